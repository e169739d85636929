import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { getAmountIn } from "./dex.js";
import { createRouterFixture, type RouterFixture } from "./fixtures.js";
import {
  ABOVE_MAX,
  amountLimitFlags,
  BELOW_MIN,
  type PreparedRoute,
  prepareRoute,
} from "./price-route.js";
import { routeAmountRange } from "./route-limits.js";
import { enumerateRoutes } from "./routes.js";

const E6 = 10n ** 6n;
const E18 = 10n ** 18n;

function prepared(
  fx: RouterFixture,
  from: [string, string],
  to: [string, string],
  kind: number,
): PreparedRoute {
  const route = enumerateRoutes(fx.registry, fx.token(...from), fx.token(...to)).find(
    (r) => r.kind === kind,
  )!;
  const result = prepareRoute(route, fx.snapshot);
  assert.ok(result.ok);
  return result.prepared;
}

const f = createRouterFixture();

describe("routeAmountRange", () => {
  it("default: minAmount up to the destination pool's liquidity (kind 1)", () => {
    // max: largest x with x - 0.5 USDC - x*0.05 % <= 250,000 USDC
    assert.deepEqual(routeAmountRange(prepared(f, ["alpha", "USDC"], ["beta", "USDC"], 1)), {
      min: 1_000_000n,
      max: 250_125_562_781n,
    });
  });

  it("default: minAmount up to maxAmount (kinds 0 and 2)", () => {
    assert.deepEqual(routeAmountRange(prepared(f, ["alpha", "USDC"], ["beta", "USDC"], 2)), {
      min: 1_000_000n,
      max: 500_000n * E6,
    });
    assert.deepEqual(routeAmountRange(prepared(f, ["alpha", "DAI"], ["gamma", "DAI"], 0)), {
      min: E18,
      max: 100_000n * E18,
    });
  });

  it("behavior: with a source swap the limits are in the source token, not bigger than getAmountIn", () => {
    const p = prepared(f, ["alpha", "ETH"], ["beta", "USDC"], 1);
    const range = routeAmountRange(p)!;
    const hop = p.sourceHops[0]!;
    const viaGetAmountIn = getAmountIn(1_000_000n, hop.reserveIn, hop.reserveOut)!;
    assert.ok(range.min <= viaGetAmountIn);
    assert.ok(viaGetAmountIn - range.min < 10n ** 9n); // within rounding of one hop
    assert.equal(amountLimitFlags(p, range.min) & BELOW_MIN, 0);
    assert.equal(amountLimitFlags(p, range.min - 1n) & BELOW_MIN, BELOW_MIN);
    // ~0.000334 ETH for 1 USDC; the liquidity cap needs ~84 ETH at this depth.
    assert.ok(range.min > 3n * 10n ** 14n && range.min < 4n * 10n ** 14n);
    assert.ok(range.max! > 80n * E18 && range.max! < 100n * E18);
  });

  it("behavior: unbounded when maxAmount is 0 and no pool caps the route", () => {
    const fx = createRouterFixture({ tokenConfigs: { 0: { maxAmount: 0n } } });
    assert.deepEqual(routeAmountRange(prepared(fx, ["alpha", "DAI"], ["beta", "DAI"], 0)), {
      min: E18,
      max: undefined,
    });
  });

  it("error: no accepted amount at all", () => {
    const dry = createRouterFixture({ poolLiquidity: 0n });
    assert.equal(
      routeAmountRange(prepared(dry, ["alpha", "USDC"], ["beta", "USDC"], 1)),
      undefined,
    );
    const capped = createRouterFixture({ tokenConfigs: { 2: { maxAmount: 500_000n } } });
    assert.equal(
      routeAmountRange(prepared(capped, ["alpha", "USDC"], ["beta", "USDC"], 2)),
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
          assert.ok(result.ok);
          return result.prepared;
        }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...routes), (p) => {
        const range = routeAmountRange(p);
        assert.ok(
          range,
          `${p.route.sourceToken.symbol} -> ${p.route.destToken.symbol} kind ${p.route.kind}`,
        );
        assert.equal(amountLimitFlags(p, range.min), 0);
        if (range.min > 1n) assert.ok(amountLimitFlags(p, range.min - 1n) & BELOW_MIN);
        if (range.max !== undefined) {
          assert.equal(amountLimitFlags(p, range.max), 0);
          assert.ok(amountLimitFlags(p, range.max + 1n) & ABOVE_MAX);
        }
      }),
      { numRuns: 60 },
    );
  });
});
