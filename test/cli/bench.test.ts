/**
 * `bridge-oracle bench`: dispatch, the RESULTS.md section writer, and a miniature end-to-end run
 * of the list benchmark (2,000 records, 1 s per scenario) so that it cannot rot unnoticed.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { writeResultsSection } from "../../bench/list-report.js";
import { buildRequestSets } from "../../bench/list-requests.js";
import { run } from "../../src/cli/bench.js";
import { captureStderr } from "../setup/capture-stderr.js";

describe("bridge-oracle bench", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-bench-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("error: an unknown benchmark exits 1", async () => {
    assert.equal(await run(["nope"]), 1);
  });

  it("error: a name Object.prototype has is an unknown benchmark, not a missing script", async () => {
    for (const name of ["constructor", "toString", "__proto__"]) {
      const { value, stderr } = await captureStderr(() => run([name]));
      assert.equal(value, 1, name);
      assert.match(stderr, new RegExp(`^unknown benchmark: ${name}\n`));
    }
  });

  it("behavior: replaces only its own section of RESULTS.md", async () => {
    const path = join(dir, "RESULTS.md");
    await writeFile(
      path,
      "# Benchmark results\n\n## router\n\nrouter numbers\n\n## list\n\nold\n\n## index\n\nindex numbers\n",
    );
    await writeResultsSection(path, "list", "## list\n\nnew list numbers\n");
    const text = await readFile(path, "utf8");
    assert.match(text, /## router\n\nrouter numbers/);
    assert.match(text, /## list\n\nnew list numbers\n/);
    assert.match(text, /## index\n\nindex numbers/);
    assert.doesNotMatch(text, /old/);
    await writeResultsSection(join(dir, "fresh.md"), "list", "## list\n\nx\n");
    assert.match(
      await readFile(join(dir, "fresh.md"), "utf8"),
      /^# Benchmark results[\s\S]*## list\n\nx\n$/,
    );
  });

  it("behavior: request sets cover hot addresses, hashes, deep pages, sorts and both page sizes", () => {
    const sets = buildRequestSets({
      hotAddresses: ["0xEf12B446540a0307D25E2497F7AB940B318456Bb"],
      addresses: ["0x0F16c7bce9fA9642605B144Dc1Edf8f3def951b0"],
      hashes: [`0x${"ab".repeat(32)}`],
    });
    assert.ok(
      sets.deepPages.includes(
        "/api/oracle/bridge-transactions?addressOrTxHash=0xEf12B446540a0307D25E2497F7AB940B318456Bb&pageNo=10001&pageSize=10",
      ),
      'sets.deepPages.includes( "/api/oracle/bridge-transactions?addressOrTxHash=0xEf12B446540a0307D25E2497F7AB940B318456Bb&...',
    );
    assert.ok(
      sets.mix.some((p) => p.includes("pageSize=50")),
      'sets.mix.some((p) => p.includes("pageSize=50"))',
    );
    assert.ok(
      sets.mix.some((p) => p.includes("sortName=sendAmount")),
      'sets.mix.some((p) => p.includes("sortName=sendAmount"))',
    );
    assert.ok(
      sets.mix.some((p) => p.includes("pageNo=2001&pageSize=50")),
      'sets.mix.some((p) => p.includes("pageNo=2001&pageSize=50"))',
    );
    assert.ok(
      sets.hashes.every((p) => p.toLowerCase().includes(`=0x${"ab".repeat(32)}&`)),
      "every hash request asks for the 0xabab… transaction hash",
    );
  });

  it("default: a miniature list benchmark runs end to end and writes its section", {
    timeout: 120_000,
  }, async () => {
    const results = join(dir, "mini-RESULTS.md");
    const code = await run([
      "list",
      "--records",
      "2000",
      "--duration",
      "1",
      "--connections",
      "2",
      "--cache-dir",
      join(dir, "cache"),
      "--results",
      results,
    ]);
    assert.equal(code, 0);
    const text = await readFile(results, "utf8");
    assert.match(text, /## list/);
    assert.match(text, /\| hash lookups \| [0-9,]+ \|/);
    assert.match(text, /\| hash lookups, cache off \| [0-9,]+ \|/);
    assert.match(text, /\| deep pages, cache off \| [0-9,]+ \|/);
    assert.match(
      text,
      /hash lookup req\/s >= 50 % of hello world's \| \d+ % with the response cache/,
    );
    assert.match(text, /\| hello world \| [0-9,]+ \|/);
    assert.match(text, /Intel|AMD|ARM|cores/);
    // Imported in this run: its rate per million (one part here) and the file's size.
    assert.match(
      text,
      /- Import rate per 1,000,000 records \(records\/s;[^)]*\): 0-2,000: [\d,]+; the last at 100 % of the first's rate\./,
    );
    assert.match(
      text,
      /- Database size: [\d.]+ MB \(the SQLite file \(WAL included\)\), [\d.]+ MB per 1,000 records\./,
    );
  });
});
