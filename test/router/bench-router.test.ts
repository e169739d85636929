/**
 * A miniature run of the router benchmark (1 s per scenario, one round, two pairs of memo-off
 * servers) so that it cannot rot unnoticed: the server processes start, every request answers
 * 200, and the "router" section is written with its scenarios, targets, the pairs' readings and
 * each server's garbage collections.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runRouterBenchmark } from "../../bench/router.js";

describe("bench router", () => {
  it("default: a short run answers only 200s and writes the router section, keeping others", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bench-router-test-"));
    try {
      const results = join(dir, "RESULTS.md");
      await writeFile(results, "# Benchmark results\n\n## list\n\nkept\n");
      const code = await runRouterBenchmark([
        "--duration",
        "1",
        "--rounds",
        "1",
        "--connections",
        "2",
        "--pairs",
        "2",
        "--pair-rounds",
        "1",
        "--results",
        results,
      ]);
      assert.equal(code, 0, "no non-2xx responses or errors");
      const text = await readFile(results, "utf8");
      assert.match(text, /## list\n\nkept/);
      assert.match(text, /## router/);
      for (const row of [
        "router: mix",
        "router: direct routes",
        "router: swap routes",
        "bare Fastify POST, canned quote",
        "router mix req/s >= 70 % of the bare route's",
        "router: mix, quote memo off (every request validated and priced)",
        "bare route, the canned quote's text as is (diagnostic)",
        "bare route, the same text without the added fields (diagnostic)",
        ">= 90 % of the same server answering the spec's four fields only (the median of 2 pairs",
        "(reading) the added bytes alone",
      ]) {
        assert.ok(text.includes(row), row);
      }
      assert.match(text, /15 tokens on alpha, 16 tokens on beta, 15 tokens on gamma/);
      assert.match(text, /the spec's four fields only \(pair [12] of 2, the median pair\) \|/);
      assert.match(text, /pair by pair, each over 1 rounds: \d+\.\d %, \d+\.\d % \|/);
      // Each pair's servers' CPU per request, read from /proc.
      assert.match(
        text,
        /\d+ vs \d+ µs: the fields add -?\d+ µs, -?\d+\.\d %; pair by pair, µs: \d+ vs \d+, \d+ vs \d+ \|/,
      );
      // Each server process reports its garbage collections when it stops.
      for (const server of ["app", "memo-off app", "bare route"]) {
        assert.match(text, new RegExp(`(\\| |; )${server}: \\d+, mean \\d+\\.\\d\\d ms, longest`));
      }
      assert.ok(!text.includes("not reported"), '!text.includes("not reported")');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
