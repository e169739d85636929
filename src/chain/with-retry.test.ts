import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { retryAfterMs, withRetry } from "./with-retry.js";

describe("withRetry", () => {
  it("default: returns the first success", async () => {
    let calls = 0;
    const waits: number[] = [];
    const out = await withRetry(
      async () => {
        calls++;
        if (calls < 3) throw new Error("flaky");
        return 42;
      },
      {
        attempts: 5,
        baseDelayMs: 100,
        maxDelayMs: 1000,
        sleep: async (ms) => void waits.push(ms),
        random: () => 0.5,
      },
    );
    assert.equal(out, 42);
    assert.equal(calls, 3);
    assert.deepEqual(waits, [50, 100]);
  });
  it("error: gives up after the bounded attempts with the last error", async () => {
    let calls = 0;
    await assert.rejects(
      withRetry(
        async () => {
          calls++;
          throw new Error(`fail ${calls}`);
        },
        { attempts: 3, baseDelayMs: 1, maxDelayMs: 1, sleep: async () => {} },
      ),
      /fail 3/,
    );
  });
  it("behavior: honours Retry-After of a 429 answer", async () => {
    const waits: number[] = [];
    let calls = 0;
    await withRetry(
      async () => {
        if (calls++ === 0) {
          throw Object.assign(new Error("429"), {
            cause: { status: 429, headers: new Headers({ "retry-after": "2" }) },
          });
        }
        return 1;
      },
      {
        attempts: 3,
        baseDelayMs: 10,
        maxDelayMs: 100,
        sleep: async (ms) => void waits.push(ms),
        random: () => 0,
      },
    );
    assert.deepEqual(waits, [2000]);
  });
  it("behavior: a non-retryable error is thrown at once", async () => {
    let calls = 0;
    await assert.rejects(
      withRetry(
        async () => {
          calls++;
          throw new Error("range");
        },
        { attempts: 5, baseDelayMs: 1, maxDelayMs: 1, isRetryable: () => false },
      ),
    );
    assert.equal(calls, 1);
  });
  it("behavior: retryAfterMs reads seconds and HTTP dates", () => {
    assert.equal(retryAfterMs({ headers: { "retry-after": "3" } }), 3000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    assert.equal(
      retryAfterMs({ headers: { "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" } }, now),
      5000,
    );
    assert.equal(retryAfterMs(new Error("x")), undefined);
  });
});
