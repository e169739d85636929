/**
 * The router's per-snapshot memo of successful quotes (createRouter memoizeQuotes): a repeated
 * request gets the answer a fresh computation gives, staleness is still judged per request, and
 * nothing but the exact six strings of a successful request is ever answered from it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { createRouter } from "./create-router.js";
import { createRouterFixture } from "./fixtures.js";

const TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const f = createRouterFixture({ readAtMs: 1_000_000 });
const body = (amount = "1000") => ({
  sourceChain: "71001",
  sourceToken: f.token("alpha", "USDC").address,
  destChain: "71002",
  destToken: f.token("beta", "USDC").address,
  amount,
  to: TO,
});

describe("quote memo", () => {
  it("default: a repeated request within one snapshot gets the same frozen answer", () => {
    const router = createRouter({ registry: f.registry });
    const first = router.quote(body(), f.snapshot);
    const second = router.quote({ ...body() }, f.snapshot);
    assert.ok(first.ok && second.ok);
    assert.equal(second, first);
    assert.ok(Object.isFrozen(first.data) && Object.isFrozen(first.data.signData));
  });

  it("behavior: memoized answers equal computed ones, over many requests asked in any order", () => {
    // Every token of alpha to every token of beta (direct and swap routes, and some with no
    // route or an amount out of range), at three amounts, plus malformed amounts.
    const g = createRouterFixture({ extraTokensPerChain: 2, readAtMs: 1_000_000 });
    const chain = (name: string) => g.registry.chains.find((c) => c.name === name)!;
    const bodies: Record<string, unknown>[] = [];
    for (const source of chain("alpha").tokens) {
      for (const dest of chain("beta").tokens) {
        for (const amount of ["0.5", "250", "90000"]) {
          bodies.push({
            sourceChain: "71001",
            sourceToken: source.address,
            destChain: "71002",
            destToken: dest.address,
            amount,
            to: TO,
          });
        }
      }
    }
    bodies.push(body("0.0000001"), body("1e3"));
    const memo = createRouter({ registry: g.registry });
    const fresh = createRouter({ registry: g.registry, memoizeQuotes: false });
    const successes = bodies.filter((b) => fresh.quote(b, g.snapshot).ok).length;
    assert.ok(successes >= 20 && successes < bodies.length, `${successes} of ${bodies.length}`);
    fc.assert(
      fc.property(fc.array(fc.nat(bodies.length - 1), { minLength: 1, maxLength: 60 }), (picks) => {
        for (const i of picks) {
          const request = { ...bodies[i] };
          const a = memo.quote(request, g.snapshot);
          const b = fresh.quote(request, g.snapshot);
          assert.deepEqual(a, b);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("behavior: staleness is judged on every request, memoized or not", () => {
    const router = createRouter({ registry: f.registry });
    const fresh = router.quote(body(), f.snapshot, { nowMs: 1_000_500, maxStateAgeMs: 1000 });
    assert.ok(fresh.ok);
    const stale = router.quote(body(), f.snapshot, { nowMs: 1_005_000, maxStateAgeMs: 1000 });
    assert.ok(!stale.ok);
    assert.equal(stale.kind, "chainStateUnavailable");
  });

  it("behavior: a new snapshot computes afresh", () => {
    const router = createRouter({ registry: f.registry });
    const first = router.quote(body(), f.snapshot);
    const cheaper = createRouterFixture({ xprotoFee: 0n, readAtMs: 1_000_000 });
    const second = router.quote(body(), cheaper.snapshot);
    assert.ok(first.ok && second.ok);
    assert.notEqual(second, first);
    assert.notEqual(second.data.fee, first.data.fee);
  });

  it("error: a body that is not six strings is validated, even after its string twin succeeded", () => {
    const router = createRouter({ registry: f.registry });
    assert.ok(router.quote(body("5"), f.snapshot).ok);
    const numeric = router.quote({ ...body(), amount: 5 }, f.snapshot);
    assert.ok(!numeric.ok);
    assert.match(numeric.message, /amount must be a string/);
    const withNul = router.quote(
      { ...body("5"), sourceChain: "71001\u0000x", to: TO.slice(0, -1) },
      f.snapshot,
    );
    assert.ok(!withNul.ok);
  });

  it("error: failures are never memoized", () => {
    const router = createRouter({ registry: f.registry });
    const tooMuch = router.quote(body("1000000000000"), f.snapshot);
    assert.ok(!tooMuch.ok);
    const again = router.quote(body("1000000000000"), f.snapshot);
    assert.ok(!again.ok);
    assert.notEqual(again, tooMuch);
  });
});
