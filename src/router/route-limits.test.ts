import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { getAmountIn, type HopReserves } from "./dex.js";
import {
  createRouterFixture,
  preparedFixtureRoute as prepared,
  referenceTerms,
} from "./fixtures.js";
import { ABOVE_MAX, amountLimitFlags, BELOW_MIN, prepareRoute } from "./price-route.js";
import { routeAmountRange } from "./route-limits.js";
import { enumerateRoutes } from "./routes.js";

const E6 = 10n ** 6n;
const E18 = 10n ** 18n;
const SLIPPAGE = 50n;

const f = createRouterFixture();

describe("routeAmountRange", () => {
  it("default: minAmount up to the destination pool's liquidity (kind 1)", () => {
    // max: largest x with x - 0.5 USDC - x*0.05 % <= 250,000 USDC
    assert.deepEqual(
      routeAmountRange(prepared(f, ["alpha", "USDC"], ["beta", "USDC"], 1), SLIPPAGE),
      {
        min: 1_000_000n,
        max: 250_125_562_781n,
      },
    );
  });

  it("default: minAmount up to maxAmount (kinds 0 and 2)", () => {
    assert.deepEqual(
      routeAmountRange(prepared(f, ["alpha", "USDC"], ["beta", "USDC"], 2), SLIPPAGE),
      {
        min: 1_000_000n,
        max: 500_000n * E6,
      },
    );
    assert.deepEqual(
      routeAmountRange(prepared(f, ["alpha", "DAI"], ["gamma", "DAI"], 0), SLIPPAGE),
      {
        min: E18,
        max: 100_000n * E18,
      },
    );
  });

  it("error: a lock-and-mint transfer into DAI's home chain is capped by the DAI locked there", () => {
    // Regression: kind 0 delivery on the home chain unlocks DAI, and the router did not read
    // the locked balance: a larger quote failed on the destination and lost the fee.
    const fx = createRouterFixture({ lockedLiquidity: 5_000n * E18 });
    const home = prepared(fx, ["beta", "DAI"], ["alpha", "DAI"], 0);
    assert.equal(referenceTerms(home).destLiquidity, 5_000n * E18);
    const range = routeAmountRange(home, SLIPPAGE)!;
    assert.ok(range.max! > 5_000n * E18 && range.max! < 5_100n * E18, String(range.max));
    assert.equal(amountLimitFlags(home, range.max!, SLIPPAGE) & ABOVE_MAX, 0);
    assert.equal(amountLimitFlags(home, range.max! + 1n, SLIPPAGE) & ABOVE_MAX, ABOVE_MAX);
    // Off the home chain the bridge mints: only maxAmount caps.
    const minted = prepared(fx, ["beta", "DAI"], ["gamma", "DAI"], 0);
    assert.equal(referenceTerms(minted).destLiquidity, 2n ** 256n - 1n);
    assert.equal(routeAmountRange(minted, SLIPPAGE)?.max, 100_000n * E18);
  });

  it("behavior: with a source swap the limits are in the source token and hold across the tolerance", () => {
    const p = prepared(f, ["alpha", "ETH"], ["beta", "USDC"], 1);
    const range = routeAmountRange(p, SLIPPAGE)!;
    const hop = p.sourceHops[0] as HopReserves; // a V2-only fixture
    // The minimum: the swap's output less the 0.5 % tolerance still reaches minAmount (1 USDC),
    // so the expected output must reach 1 USDC / 0.995.
    const needed = (1_000_000n * 10000n + (10000n - SLIPPAGE) - 1n) / (10000n - SLIPPAGE);
    const viaGetAmountIn = getAmountIn(needed, hop.reserveIn, hop.reserveOut)!;
    assert.ok(range.min <= viaGetAmountIn, "range.min <= viaGetAmountIn");
    assert.ok(viaGetAmountIn - range.min < 10n ** 9n, "viaGetAmountIn - range.min < 10n ** 9n"); // within rounding of one hop
    assert.equal(amountLimitFlags(p, range.min, SLIPPAGE) & BELOW_MIN, 0);
    assert.equal(amountLimitFlags(p, range.min - 1n, SLIPPAGE) & BELOW_MIN, BELOW_MIN);
    // ~0.000334 ETH for 1 USDC; the liquidity cap needs ~84 ETH at this depth.
    assert.ok(
      range.min > 3n * 10n ** 14n && range.min < 4n * 10n ** 14n,
      "range.min > 3n * 10n ** 14n && range.min < 4n * 10n ** 14n",
    );
    assert.ok(
      range.max! > 80n * E18 && range.max! < 100n * E18,
      "range.max! > 80n * E18 && range.max! < 100n * E18",
    );
  });

  it("error: a swap that would overflow a pair's uint112 balance is above the maximum", () => {
    const p = prepared(f, ["alpha", "ETH"], ["beta", "USDC"], 1);
    const maxReserve = (1n << 112n) - 1n;
    const deep = {
      ...p,
      terms: {
        ...referenceTerms(p),
        tokenConfig: { feeBps: 0n, flatFee: 0n, minAmount: 1n, maxAmount: 0n },
        destLiquidity: undefined,
      },
      sourceHops: [{ reserveIn: maxReserve - 1000n, reserveOut: maxReserve }],
    };
    assert.equal(amountLimitFlags(deep, 1000n, SLIPPAGE) & ABOVE_MAX, 0);
    assert.equal(amountLimitFlags(deep, 1001n, SLIPPAGE) & ABOVE_MAX, ABOVE_MAX);
    assert.equal(routeAmountRange(deep, SLIPPAGE)?.max, 1000n, "a real maximum, not uint256");
  });

  it("behavior: unbounded when maxAmount is 0 and no pool caps the route", () => {
    const fx = createRouterFixture({ tokenConfigs: { 0: { maxAmount: 0n } } });
    assert.deepEqual(
      routeAmountRange(prepared(fx, ["alpha", "DAI"], ["beta", "DAI"], 0), SLIPPAGE),
      {
        min: E18,
        max: undefined,
      },
    );
  });

  it("error: no accepted amount at all", () => {
    const dry = createRouterFixture({ poolLiquidity: 0n });
    assert.equal(
      routeAmountRange(prepared(dry, ["alpha", "USDC"], ["beta", "USDC"], 1), SLIPPAGE),
      undefined,
    );
    const capped = createRouterFixture({ tokenConfigs: { 2: { maxAmount: 500_000n } } });
    assert.equal(
      routeAmountRange(prepared(capped, ["alpha", "USDC"], ["beta", "USDC"], 2), SLIPPAGE),
      undefined,
    );
  });

  it("behavior: the ends are exact on every kind of route", () => {
    const fx = createRouterFixture({ extraTokensPerChain: 2 });
    const tokens = fx.registry.chains.flatMap((c) => c.tokens);
    const routes = tokens.flatMap((a) =>
      tokens
        .filter((b) => b.chainId !== a.chainId)
        .flatMap((b) => enumerateRoutes(fx.registry, a, b))
        .map((r) => {
          const result = prepareRoute(r, fx.snapshot);
          assert.ok(result.ok, "result.ok");
          return result.prepared;
        }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...routes), (p) => {
        const range = routeAmountRange(p, SLIPPAGE);
        assert.ok(
          range,
          `${p.route.sourceToken.symbol} -> ${p.route.destToken.symbol} kind ${p.route.kind}`,
        );
        assert.equal(amountLimitFlags(p, range.min, SLIPPAGE), 0);
        if (range.min > 1n)
          assert.ok(
            amountLimitFlags(p, range.min - 1n, SLIPPAGE) & BELOW_MIN,
            "amountLimitFlags(p, range.min - 1n, SLIPPAGE) & BELOW_MIN",
          );
        if (range.max !== undefined) {
          assert.equal(amountLimitFlags(p, range.max, SLIPPAGE), 0);
          assert.ok(
            amountLimitFlags(p, range.max + 1n, SLIPPAGE) & ABOVE_MAX,
            "amountLimitFlags(p, range.max + 1n, SLIPPAGE) & ABOVE_MAX",
          );
        }
      }),
      { numRuns: 60 },
    );
  });
});
