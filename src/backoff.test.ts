import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { backoffDelayMs } from "./backoff.js";

describe("backoffDelayMs", () => {
  it("default: doubles from the base with each failure up to the maximum", () => {
    const options = { baseMs: 500, maxMs: 30_000, jitter: "none" } as const;
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 1000].map((n) => backoffDelayMs(n, options)),
      [500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000],
    );
  });

  it("behavior: full jitter is from 0 to the delay, half jitter from half the delay to the delay", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (failures, baseMs, maxMs, draw) => {
          const delay = backoffDelayMs(failures, { baseMs, maxMs, jitter: "none" });
          assert.ok(
            Number.isFinite(delay) && delay <= maxMs && delay >= Math.min(baseMs, maxMs),
            "Number.isFinite(delay) && delay <= maxMs && delay >= Math.min(baseMs, maxMs)",
          );
          const full = backoffDelayMs(failures, { baseMs, maxMs, jitter: "full" }, () => draw);
          assert.ok(full >= 0 && full <= delay, `full ${full} of ${delay}`);
          const half = backoffDelayMs(failures, { baseMs, maxMs, jitter: "half" }, () => draw);
          assert.ok(half >= Math.floor(delay / 2) && half <= delay, `half ${half} of ${delay}`);
        },
      ),
    );
  });
});
