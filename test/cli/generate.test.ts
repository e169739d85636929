/** `bridge-oracle generate` through its run(args): output validity and the hot-address property. */
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { run } from "../../src/cli/generate.js";
import { parseTransferRecord } from "../../src/transfers/validate.js";

function captureOutput() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    output: {
      stdout: { write: (text: string) => (out.stdout += text) },
      stderr: { write: (text: string) => (out.stderr += text), isTTY: false },
    },
  };
}

describe("bridge-oracle generate", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-generate-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("default: writes N valid canonical records, one per line, with hot addresses", async () => {
    const file = join(dir, "out.jsonl");
    const { out, output } = captureOutput();
    const code = await run(["--count", "4000", "--out", file, "--seed", "3"], { output });
    assert.equal(code, 0, out.stderr);
    assert.match(out.stdout, /wrote 4000 records/);
    const hot = /hot addresses: (0x[0-9a-fA-F]{40}), (0x[0-9a-fA-F]{40})/.exec(out.stdout);
    assert.ok(hot, out.stdout);
    const text = await readFile(file, "utf8");
    assert.ok(text.endsWith("\n"), 'text.endsWith("\\n")');
    const lines = text.trimEnd().split("\n");
    assert.equal(lines.length, 4000);
    const counts = new Map<string, number>();
    const statuses = new Set<string>();
    for (const [i, line] of lines.entries()) {
      const value = JSON.parse(line);
      const result = parseTransferRecord(value);
      assert.ok(result.ok, `line ${i + 1}: ${result.ok ? "" : result.message}`);
      assert.deepEqual(result.record, value, `line ${i + 1} is canonical`);
      statuses.add(value.status);
      for (const address of new Set([value.from_address, value.to_address])) {
        counts.set(address, (counts.get(address) ?? 0) + 1);
      }
    }
    assert.deepEqual([...statuses].sort(), ["Failed", "Processing", "Success"]);
    // Defaults: a quarter of the records split over two hot addresses (about 500 each); no
    // ordinary address comes anywhere near.
    for (const address of [hot[1]!, hot[2]!]) {
      const n = counts.get(address) ?? 0;
      assert.ok(n > 400 && n < 600, `${address}: ${n}`);
    }
    const ordinary = [...counts].filter(([a]) => a !== hot[1] && a !== hot[2]);
    assert.ok(
      Math.max(...ordinary.map(([, n]) => n)) < 100,
      "Math.max(...ordinary.map(([, n]) => n)) < 100",
    );
  });

  it("behavior: the same seed writes the same file; --hot-addresses/--hot-share apply", async () => {
    const a = join(dir, "a.jsonl");
    const b = join(dir, "b.jsonl");
    for (const file of [a, b]) {
      const args = ["--count", "500", "--out", file, "--hot-addresses", "1", "--hot-share", "0.5"];
      assert.equal(await run(args, captureOutput()), 0);
    }
    const text = await readFile(a, "utf8");
    assert.equal(text, await readFile(b, "utf8"));
    const first = JSON.parse(text.split("\n")[0]!);
    assert.ok(first.message_id, "first.message_id");
  });

  it("error: missing or bad options leave no file behind", async () => {
    const file = join(dir, "bad.jsonl");
    for (const [args, pattern] of [
      [["--out", file], /--count is required/],
      [["--count", "10"], /--out is required/],
      [["--count", "-5", "--out", file], /--count|argument/],
      [["--count", "ten", "--out", file], /--count must be an integer/],
      [["--count", "10", "--out", file, "--hot-share", "1.5"], /--hot-share must be/],
      [["--count", "10", "--out", join(dir, "missing-dir", "x.jsonl")], /cannot write/],
    ] as [string[], RegExp][]) {
      const { out, output } = captureOutput();
      assert.equal(await run(args, { output }), 1, args.join(" "));
      assert.match(out.stderr, pattern);
    }
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.startsWith("bad")),
      [],
    );
  });
});
