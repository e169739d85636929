import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createMemoryRateLimitCounter, type WindowHit } from "./rate-limit-counter.js";

function syncHit(value: WindowHit | Promise<WindowHit>): WindowHit {
  assert.ok(!(value instanceof Promise), "the memory counter answers synchronously");
  return value;
}

describe("createMemoryRateLimitCounter", () => {
  it("default: counts hits per bucket within a window", () => {
    let now = 1_000;
    const counter = createMemoryRateLimitCounter({ now: () => now });
    assert.deepEqual(syncHit(counter.hit("a", 60_000)), { count: 1, resetInMs: 60_000 });
    now += 10_000;
    assert.deepEqual(syncHit(counter.hit("a", 60_000)), { count: 2, resetInMs: 50_000 });
    assert.deepEqual(syncHit(counter.hit("b", 60_000)), { count: 1, resetInMs: 60_000 });
  });

  it("behavior: a new window starts at zero once the old one ends", () => {
    let now = 0;
    const counter = createMemoryRateLimitCounter({ now: () => now });
    counter.hit("a", 1_000);
    counter.hit("a", 1_000);
    now = 1_000;
    assert.deepEqual(syncHit(counter.hit("a", 1_000)), { count: 1, resetInMs: 1_000 });
  });

  it("behavior: expired buckets are swept out once a minute", () => {
    let now = 0;
    const counter = createMemoryRateLimitCounter({ now: () => now });
    for (let i = 0; i < 100; i++) counter.hit(`ip:${i}`, 1_000);
    assert.equal(counter.buckets, 100);
    now = 61_000;
    counter.hit("late", 1_000);
    assert.equal(counter.buckets, 1);
  });

  it("behavior: a sweep keeps windows that are still open, and their counts", () => {
    let now = 0;
    const counter = createMemoryRateLimitCounter({ now: () => now });
    counter.hit("open", 120_000);
    counter.hit("open", 120_000);
    counter.hit("done", 1_000);
    now = 61_000; // the sweep runs on this hit
    assert.deepEqual(syncHit(counter.hit("open", 120_000)), { count: 3, resetInMs: 59_000 });
    assert.equal(counter.buckets, 1);
  });
});
