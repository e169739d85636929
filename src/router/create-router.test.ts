import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseRegistry } from "../domain/registry.js";
import { createRouter, quoteFailureToApiError } from "./create-router.js";
import { createRouterFixture, fixtureAddress, fixtureQuoteRequest } from "./fixtures.js";
import type { StateSnapshot } from "./state.js";

const TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const f = createRouterFixture({ readAtMs: 1_000_000 });
const usdcToUsdc = (amount: string) =>
  fixtureQuoteRequest(f, ["alpha", "USDC"], ["beta", "USDC"], amount, TO);

/** Every token of alpha to every token of beta, at three amounts (0.5, 250, 90000). */
function alphaToBetaBodies(fixture: ReturnType<typeof createRouterFixture>) {
  const chain = (name: string) => fixture.registry.chains.find((c) => c.name === name)!;
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
  return bodies;
}

/** The same chain states read again at `readAtMs` (a new snapshot, nothing else changed). */
function restamped(snapshot: StateSnapshot, readAtMs: number): StateSnapshot {
  const chains = new Map([...snapshot.chains].map(([id, state]) => [id, { ...state, readAtMs }]));
  return { chains };
}

describe("createRouter", () => {
  it("default: quote = validate + best route + response, 0.5 % slippage", () => {
    const router = createRouter({ registry: f.registry });
    assert.equal(router.slippageBps, 50);
    const result = router.quote(usdcToUsdc("1000"), f.snapshot);
    assert.ok(result.ok, "result.ok");
    assert.equal(result.data.destMaxAmount, "999.45");
    assert.equal(result.data.destMinAmount, "994.45275");
    assert.equal(result.priced.route.kind, 2);
    const validated = router.validate(usdcToUsdc("1000"));
    assert.ok(validated.ok, "validated.ok");
    const best = router.bestRoute(validated.value, f.snapshot);
    assert.ok(best.ok, "best.ok");
    assert.equal(best.best.destMaxAmount, 999_450_000n);
  });

  it("behavior: the configured slippage sets the minimums", () => {
    const router = createRouter({ registry: f.registry, slippageBps: 100 });
    const result = router.quote(usdcToUsdc("1000"), f.snapshot);
    assert.ok(result.ok, "result.ok");
    assert.equal(result.data.destMinAmount, "989.4555"); // 999.45 * 0.99
  });

  it("behavior: prices against the snapshot it is given (state cached per snapshot)", () => {
    const router = createRouter({ registry: f.registry });
    const first = router.quote(usdcToUsdc("1000"), f.snapshot);
    const cheaper = createRouterFixture({ xprotoFee: 0n });
    const second = router.quote(usdcToUsdc("1000"), cheaper.snapshot);
    const again = router.quote(usdcToUsdc("1000"), f.snapshot);
    assert.ok(first.ok && second.ok && again.ok, "first.ok && second.ok && again.ok");
    assert.equal(first.data.fee, "0.55");
    assert.equal(second.data.fee, "0.3");
    assert.deepEqual(again.data, first.data);
  });

  it("error: validation failures pass through with their kind", () => {
    const router = createRouter({ registry: f.registry });
    const result = router.quote({ ...usdcToUsdc("1"), sourceChain: "5" }, f.snapshot);
    assert.ok(!result.ok, "!result.ok");
    assert.equal(result.kind, "noRoute");
    assert.equal(quoteFailureToApiError(result).code, 42201);
    const bad = router.quote(usdcToUsdc("1.0000001"), f.snapshot);
    assert.ok(!bad.ok, "!bad.ok");
    assert.equal(quoteFailureToApiError(bad).code, 40001);
  });

  it("error: amount out of range -> 42202 with the limits in the message", () => {
    const router = createRouter({ registry: f.registry });
    const result = router.quote(usdcToUsdc("0.5"), f.snapshot);
    assert.ok(!result.ok, "!result.ok");
    assert.equal(result.kind, "amountOutOfRange");
    assert.equal(result.route?.reason, "amountOutOfRange");
    const error = quoteFailureToApiError(result);
    assert.equal(error.code, 42202);
    assert.equal(error.status, 422);
    assert.equal(
      error.message,
      "amount 0.5 USDC is outside the route's limits: amount must be between 1 and 500000 USDC",
    );
  });

  it("error: a token no route reaches -> 42201", () => {
    const json = structuredClone(f.registryJson) as { chains: { tokens: object[] }[] };
    const lone = fixtureAddress("lone");
    json.chains[0]!.tokens.push({ address: lone, symbol: "LONE", decimals: 18 });
    const router = createRouter({ registry: parseRegistry(json) });
    const result = router.quote({ ...usdcToUsdc("5"), sourceToken: lone }, f.snapshot);
    assert.ok(!result.ok, "!result.ok");
    assert.equal(result.kind, "noRoute");
    assert.equal(result.message, "no route from LONE on alpha to USDC on beta");
  });

  it("error: missing or stale chain state -> 50301", () => {
    const router = createRouter({ registry: f.registry });
    const fresh = router.quote(usdcToUsdc("10"), f.snapshot, {
      nowMs: 1_020_000,
      maxStateAgeMs: 30_000,
    });
    assert.ok(fresh.ok, "fresh.ok");
    // The same request again: its quote is memoized for this snapshot, and still judged stale.
    const stale = router.quote(usdcToUsdc("10"), f.snapshot, {
      nowMs: 1_045_000,
      maxStateAgeMs: 30_000,
    });
    assert.ok(!stale.ok, "!stale.ok");
    assert.equal(stale.kind, "serviceUnavailable");
    assert.equal(stale.message, "state of chain alpha (71001) was read 45 s ago; retry shortly");
    assert.equal(quoteFailureToApiError(stale).code, 50301);
    const chains = new Map(f.snapshot.chains);
    chains.delete(71002);
    const partial: StateSnapshot = { chains };
    const missing = router.quote(usdcToUsdc("10"), partial);
    assert.ok(!missing.ok, "!missing.ok");
    assert.equal(missing.kind, "serviceUnavailable");
    const unread = router.quote(usdcToUsdc("10"), partial, {
      nowMs: 1_000_000,
      maxStateAgeMs: 30_000,
    });
    assert.ok(!unread.ok, "!unread.ok");
    assert.equal(
      unread.message,
      "state of chain beta (71002) has not been read yet; retry shortly",
    );
  });

  it("error: slippage outside 0..10000 is a configuration error", () => {
    assert.throws(
      () => createRouter({ registry: f.registry, slippageBps: 10001 }),
      /slippageBps must be an integer from 0 to 10000/,
    );
    assert.throws(() => createRouter({ registry: f.registry, slippageBps: 0.5 }), RangeError);
  });
});

describe("quote memo", () => {
  it("default: a repeated request within one snapshot gets the same frozen answer", () => {
    const router = createRouter({ registry: f.registry });
    const first = router.quote(usdcToUsdc("1000"), f.snapshot);
    const second = router.quote({ ...usdcToUsdc("1000") }, f.snapshot);
    assert.ok(first.ok && second.ok, "first.ok && second.ok");
    assert.equal(second, first);
    assert.ok(
      Object.isFrozen(first.data) && Object.isFrozen(first.data.signData),
      "Object.isFrozen(first.data) && Object.isFrozen(first.data.signData)",
    );
  });

  it("behavior: memoized answers equal computed ones, over many requests asked in any order", () => {
    // Every token of alpha to every token of beta (direct and swap routes, and some with no
    // route or an amount out of range), at three amounts, plus malformed amounts.
    const g = createRouterFixture({ extraTokensPerChain: 2, readAtMs: 1_000_000 });
    const bodies = alphaToBetaBodies(g);
    bodies.push(usdcToUsdc("0.0000001"), usdcToUsdc("1e3"));
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

  it("behavior: a new snapshot computes afresh", () => {
    const router = createRouter({ registry: f.registry });
    const first = router.quote(usdcToUsdc("1000"), f.snapshot);
    const cheaper = createRouterFixture({ xprotoFee: 0n, readAtMs: 1_000_000 });
    const second = router.quote(usdcToUsdc("1000"), cheaper.snapshot);
    assert.ok(first.ok && second.ok, "first.ok && second.ok");
    assert.notEqual(second, first);
    assert.notEqual(second.data.fee, first.data.fee);
  });

  it("behavior: a later snapshot with the same figures answers with the same response object", () => {
    const router = createRouter({ registry: f.registry });
    const first = router.quote(usdcToUsdc("1000"), f.snapshot);
    const later = router.quote(usdcToUsdc("1000"), restamped(f.snapshot, 1_000_500));
    assert.ok(first.ok && later.ok, "first.ok && later.ok");
    assert.notEqual(later, first);
    assert.equal(later.data, first.data);
    // Different figures: a new response.
    const cheaper = createRouterFixture({ xprotoFee: 0n, readAtMs: 1_000_000 }).snapshot;
    const changed = router.quote(usdcToUsdc("1000"), cheaper);
    assert.ok(changed.ok, "changed.ok");
    assert.notEqual(changed.data, first.data);
    assert.notEqual(changed.data.fee, first.data.fee);
  });

  it("behavior: answers across changing snapshots equal computed ones, in any order", () => {
    const g = createRouterFixture({ extraTokensPerChain: 2, readAtMs: 1_000_000 });
    const variant = (options: Parameters<typeof createRouterFixture>[0]) =>
      createRouterFixture({ extraTokensPerChain: 2, readAtMs: 1_000_000, ...options }).snapshot;
    // The same state restamped (as an idle chain's republication), and states that move fees,
    // pool depths, liquidity and limits.
    const snapshots = [
      g.snapshot,
      restamped(g.snapshot, 1_000_400),
      variant({ xprotoFee: 0n }),
      variant({ pairDepthUsd: 50_000n }),
      variant({ poolLiquidity: 300_000_000n }),
      variant({ tokenConfigs: { 0: { feeBps: 7n }, 1: { maxAmount: 10_000_000n } } }),
    ];
    const bodies = alphaToBetaBodies(g);
    const fresh = createRouter({ registry: g.registry, memoizeQuotes: false });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(snapshots.length - 1), fc.nat(bodies.length - 1)), {
          minLength: 1,
          maxLength: 80,
        }),
        (steps) => {
          const memo = createRouter({ registry: g.registry });
          for (const [s, b] of steps) {
            const request = { ...bodies[b] };
            assert.deepEqual(
              memo.quote(request, snapshots[s]!),
              fresh.quote(request, snapshots[s]!),
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("error: a body that is not six strings is validated, even after its string twin succeeded", () => {
    const router = createRouter({ registry: f.registry });
    assert.ok(
      router.quote(usdcToUsdc("5"), f.snapshot).ok,
      'router.quote(usdcToUsdc("5"), f.snapshot).ok',
    );
    const numeric = router.quote({ ...usdcToUsdc("1000"), amount: 5 }, f.snapshot);
    assert.ok(!numeric.ok, "!numeric.ok");
    assert.match(numeric.message, /amount must be a string/);
    const withNul = router.quote(
      { ...usdcToUsdc("5"), sourceChain: "71001\u0000x", to: TO.slice(0, -1) },
      f.snapshot,
    );
    assert.ok(!withNul.ok, "!withNul.ok");
  });

  it("error: failures are never memoized", () => {
    const router = createRouter({ registry: f.registry });
    const tooMuch = router.quote(usdcToUsdc("1000000000000"), f.snapshot);
    assert.ok(!tooMuch.ok, "!tooMuch.ok");
    const again = router.quote(usdcToUsdc("1000000000000"), f.snapshot);
    assert.ok(!again.ok, "!again.ok");
    assert.notEqual(again, tooMuch);
  });
});
