import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { findBestRoute, isBetterRoute } from "./best-route.js";
import { createRouterFixture, type RouterFixture } from "./fixtures.js";
import { type PricedRoute, prepareRoute, priceRoute } from "./price-route.js";
import { enumerateRoutes } from "./routes.js";
import type { StateSnapshot } from "./state.js";

const E6 = 10n ** 6n;
const SLIPPAGE = 50n;

function best(
  fx: RouterFixture,
  from: [string, string],
  to: [string, string],
  amount: bigint,
  snapshot?: StateSnapshot,
) {
  const routes = enumerateRoutes(fx.registry, fx.token(...from), fx.token(...to));
  const prepared = routes.map((r) => prepareRoute(r, snapshot ?? fx.snapshot));
  return findBestRoute(prepared, fx.token(...from), amount, SLIPPAGE);
}

const f = createRouterFixture();

describe("findBestRoute", () => {
  it("default: the highest expected output wins (kind 2 beats kind 1 and kind 0 for USDC)", () => {
    const result = best(f, ["alpha", "USDC"], ["beta", "USDC"], 1000n * E6);
    assert.ok(result.ok, "result.ok");
    assert.equal(result.best.route.kind, 2);
    assert.equal(result.best.destMaxAmount, 999_450_000n);
  });

  it("behavior: skips routes out of range when another accepts the amount", () => {
    // 300,000 USDC: beyond kind 1's 250,000 liquidity, within kind 2's 500,000 cap.
    const result = best(f, ["alpha", "USDC"], ["beta", "USDC"], 300_000n * E6);
    assert.ok(result.ok, "result.ok");
    assert.equal(result.best.route.kind, 2);
    // DAI -> DAI: kind 0 directly beats the USDC routes with two swaps.
    const dai = best(f, ["alpha", "DAI"], ["gamma", "DAI"], 10_000n * 10n ** 18n);
    assert.ok(dai.ok, "dai.ok");
    assert.equal(dai.best.route.kind, 0);
  });

  it("behavior: a tie on output and fee goes to the lower bridgeType", () => {
    // kind 1 at 0.03 % + 0.25 USDC equals kind 2 at 0.03 % + 0.25 USDC messaging fee.
    const tied = createRouterFixture({ tokenConfigs: { 1: { feeBps: 3n, flatFee: 250_000n } } });
    const result = best(tied, ["alpha", "USDC"], ["beta", "USDC"], 1000n * E6);
    assert.ok(result.ok, "result.ok");
    assert.equal(result.best.route.kind, 1);
    assert.equal(result.best.destMaxAmount, 999_450_000n);
    const dearer = createRouterFixture({ tokenConfigs: { 1: { feeBps: 3n, flatFee: 250_001n } } });
    const other = best(dearer, ["alpha", "USDC"], ["beta", "USDC"], 1000n * E6);
    assert.ok(other.ok, "other.ok");
    assert.equal(other.best.route.kind, 2);
  });

  it("behavior: isBetterRoute compares fees in human units across tokens", () => {
    const base = best(f, ["alpha", "USDC"], ["beta", "USDC"], 1000n * E6);
    const dai = best(f, ["alpha", "DAI"], ["beta", "DAI"], 1000n * 10n ** 18n);
    assert.ok(base.ok && dai.ok, "base.ok && dai.ok");
    const usdcFee: PricedRoute = { ...base.best, destMaxAmount: 5n, fee: 600_000n }; // 0.6 USDC
    const daiFee: PricedRoute = { ...dai.best, destMaxAmount: 5n, fee: 5n * 10n ** 17n }; // 0.5 DAI
    assert.equal(isBetterRoute(daiFee, usdcFee), true);
    assert.equal(isBetterRoute(usdcFee, daiFee), false);
    assert.equal(isBetterRoute({ ...usdcFee, destMaxAmount: 6n }, daiFee), true);
  });

  it("behavior: the winner is the maximum over every enumerated route", () => {
    const fx = createRouterFixture({ extraTokensPerChain: 3 });
    const tokens = fx.registry.chains.flatMap((c) => c.tokens);
    const pairs = tokens.flatMap((a) =>
      tokens.filter((b) => b.chainId !== a.chainId).map((b) => [a, b] as const),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        ([a, b], amount) => {
          const prepared = enumerateRoutes(fx.registry, a, b).map((r) =>
            prepareRoute(r, fx.snapshot),
          );
          const result = findBestRoute(prepared, a, amount, SLIPPAGE);
          const priced = prepared.flatMap((p) => {
            if (!p.ok) return [];
            const q = priceRoute(p.prepared, amount, SLIPPAGE);
            return q.ok ? [q.priced] : [];
          });
          if (priced.length === 0) {
            assert.equal(result.ok, false);
            return;
          }
          assert.ok(result.ok, "result.ok");
          for (const q of priced) {
            assert.ok(
              result.best.destMaxAmount >= q.destMaxAmount,
              "result.best.destMaxAmount >= q.destMaxAmount",
            );
            assert.ok(!isBetterRoute(q, result.best), "!isBetterRoute(q, result.best)");
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("error: amount out of range gives the accepted range in the source token", () => {
    const low = best(f, ["alpha", "USDC"], ["beta", "USDC"], 500_000n);
    assert.deepEqual(low, {
      ok: false,
      reason: "amountOutOfRange",
      min: "1",
      minBaseUnits: 1_000_000n,
      max: "500000",
      maxBaseUnits: 500_000n * E6,
      message:
        "amount 0.5 USDC is outside the route's limits: amount must be between 1 and 500000 USDC",
    });
    const high = best(f, ["alpha", "USDC"], ["beta", "USDC"], 600_000n * E6);
    assert.ok(
      !high.ok && high.reason === "amountOutOfRange" && high.max === "500000",
      '!high.ok && high.reason === "amountOutOfRange" && high.max === "500000"',
    );
  });

  it("behavior: asks rangeOf for the ranges (the router memoizes it per snapshot)", () => {
    const routes = enumerateRoutes(f.registry, f.token("alpha", "USDC"), f.token("beta", "USDC"));
    const prepared = routes.map((r) => prepareRoute(r, f.snapshot));
    const asked: number[] = [];
    const result = findBestRoute(prepared, f.token("alpha", "USDC"), 1n, SLIPPAGE, (p) => {
      asked.push(p.route.kind);
      return { min: 7n, max: 9n };
    });
    assert.deepEqual(asked, [0, 1, 2]);
    assert.ok(
      !result.ok && result.reason === "amountOutOfRange",
      '!result.ok && result.reason === "amountOutOfRange"',
    );
    assert.equal(result.min, "0.000007");
  });

  it("error: an amount in the gap between two routes' ranges lists both", () => {
    // kind 2 accepts 1..100 USDC, kind 1 200..250,125.56 USDC (min raised), kind 0 nothing.
    const fx = createRouterFixture({
      tokenConfigs: {
        0: { maxAmount: 1n },
        1: { minAmount: 200n * E6 },
        2: { maxAmount: 100n * E6 },
      },
    });
    const result = best(fx, ["alpha", "USDC"], ["beta", "USDC"], 150n * E6);
    assert.ok(
      !result.ok && result.reason === "amountOutOfRange",
      '!result.ok && result.reason === "amountOutOfRange"',
    );
    assert.equal(
      result.message,
      "amount 150 USDC is outside the route's limits: amount must be between 200 and 250125.562781 USDC, or between 1 and 100 USDC",
    );
    assert.equal(result.min, "1");
    assert.equal(result.max, "250125.562781");
  });

  it("error: no route when no route connects the tokens or none accepts any amount", () => {
    assert.deepEqual(findBestRoute([], f.token("alpha", "USDC"), 1n, SLIPPAGE), {
      ok: false,
      reason: "noRoute",
      message: "no route connects these tokens",
    });
    const closed = createRouterFixture({
      poolLiquidity: 0n,
      tokenConfigs: { 0: { maxAmount: 1n }, 2: { maxAmount: 1n } },
    });
    const result = best(closed, ["alpha", "USDC"], ["beta", "USDC"], 10n * E6);
    assert.ok(
      !result.ok && result.reason === "noRoute",
      '!result.ok && result.reason === "noRoute"',
    );
    assert.match(result.message, /no route can carry any amount/);
  });

  it("error: state unavailable when no route can be priced", () => {
    const chains = new Map(f.snapshot.chains);
    chains.delete(71002);
    const result = best(f, ["alpha", "USDC"], ["beta", "USDC"], 10n * E6, { chains });
    assert.ok(
      !result.ok && result.reason === "stateUnavailable",
      '!result.ok && result.reason === "stateUnavailable"',
    );
    assert.deepEqual(result.chainIds, [71002]);
    assert.match(result.message, /chain state on chain 71002/);
  });
});
