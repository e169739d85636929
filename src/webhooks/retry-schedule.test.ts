import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { DEFAULT_RETRY_POLICY, nextAttemptAt, retryDelayMs } from "./retry-schedule.js";

const HOUR = 3_600_000;

describe("webhook retry schedule", () => {
  it("default: doubles from 5 s, capped at an hour", () => {
    const delays = [1, 2, 3, 4, 10, 11, 30].map((n) => retryDelayMs(DEFAULT_RETRY_POLICY, n));
    assert.deepEqual(delays, [5000, 10_000, 20_000, 40_000, 2_560_000, HOUR, HOUR]);
  });

  it("behavior: equal jitter keeps each retry between half and all of its delay", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        (attempts, random) => {
          const now = 1_000_000;
          const at = nextAttemptAt(DEFAULT_RETRY_POLICY, attempts, now, now, () => random);
          const delay = retryDelayMs(DEFAULT_RETRY_POLICY, attempts);
          assert.ok(
            at !== undefined && at >= now + delay / 2 - 1 && at <= now + delay + 1,
            "at !== undefined && at >= now + delay / 2 - 1 && at <= now + delay + 1",
          );
        },
      ),
    );
  });

  it("behavior: retried for 24 hours from the first attempt, the last at the window's end", () => {
    const first = 0;
    assert.equal(nextAttemptAt(DEFAULT_RETRY_POLICY, 30, first, 24 * HOUR - 1000), 24 * HOUR);
    assert.equal(nextAttemptAt(DEFAULT_RETRY_POLICY, 31, first, 24 * HOUR), undefined);
  });

  it("behavior: the default schedule makes about 40 attempts in 24 hours", () => {
    let now = 0;
    let attempts = 1;
    for (;;) {
      const next = nextAttemptAt(DEFAULT_RETRY_POLICY, attempts, 0, now, () => 0.5);
      if (next === undefined) break;
      now = next;
      attempts++;
    }
    assert.ok(attempts >= 35 && attempts <= 45, `${attempts} attempts`);
  });
});
