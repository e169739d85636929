/**
 * A miniature run of bench/router-pairs.ts (two pairs, one round of a second) in each method, so
 * the diagnostic cannot rot unnoticed: the servers start, get pinned where the method says, and
 * every pair prints its ratio, rounds and CPU.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { middle, runRouterPairs } from "../../bench/router-pairs.js";

describe("bench router pairs", () => {
  it("default: the median of an even count is the mean of the two middle values", () => {
    assert.equal(middle([3, 1, 2]), 2);
    assert.equal(middle([4, 1, 3, 2]), 2.5);
    assert.equal(middle([0.9]), 0.9);
  });

  // in-turn is bench:router's own way (test/router/bench-router.test.ts).
  for (const method of ["at-once", "in-turn-pinned"]) {
    it(`behavior: --method ${method} prints each pair, the start order alternating, and the median`, async () => {
      const lines: string[] = [];
      const args = ["--method", method, "--pairs", "2", "--rounds", "1", "--duration", "1"];
      const code = await runRouterPairs(args, (line) => lines.push(line));
      assert.equal(code, 0, lines.join("\n"));
      assert.equal(lines.length, 3, lines.join("\n"));
      assert.match(
        lines[0]!,
        /^pair 1 \(with the added fields started first\): \d+\.\d %; rounds \d+\.\d; CPU \d+\.\d vs \d+\.\d µs per request$/,
      );
      assert.match(lines[1]!, /^pair 2 \(the spec's four fields only started first\): /);
      assert.match(
        lines[2]!,
        new RegExp(
          `^${method}, memo off: with the added fields vs the spec's four fields only: median \\d+\\.\\d % over 2 pairs`,
        ),
      );
    });
  }

  it("error: an unknown method is refused with the usage", async () => {
    const code = await runRouterPairs(["--method", "sideways"]);
    assert.equal(code, 1);
  });
});
