import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { parseRegistry } from "../domain/registry.js";
import {
  createRouterFixture,
  preparedFixtureRoute as prepared,
  referenceTerms,
} from "./fixtures.js";
import { quoteHops } from "./hop-quote.js";
import {
  ABOVE_MAX,
  amountLimitFlags,
  BELOW_MIN,
  type PreparedRoute,
  type PricedRoute,
  prepareRoute,
  priceRoute,
} from "./price-route.js";
import { enumerateRoutes } from "./routes.js";
import { type ChainState, coupleKey, type StateSnapshot } from "./state.js";

const E6 = 10n ** 6n;
const E18 = 10n ** 18n;
const SLIPPAGE = 50n;

function price(p: PreparedRoute, amount: bigint): PricedRoute {
  const result = priceRoute(p, amount, SLIPPAGE);
  assert.ok(result.ok, result.ok ? "" : result.reason);
  return result.priced;
}

function numbers(p: PricedRoute) {
  const { prepared: _p, route: _r, ...rest } = p;
  return rest;
}

const f = createRouterFixture();

describe("priceRoute", () => {
  it("default: kind 1 without swaps (0.05 % + 0.5 USDC)", () => {
    const p = price(prepared(f, ["alpha", "USDC"], ["beta", "USDC"], 1), 1000n * E6);
    assert.deepEqual(numbers(p), {
      amount: 1_000_000_000n,
      sourceSwap: false,
      sourceSwapFee: 0n,
      bridgeAmount: 1_000_000_000n,
      sourceMinAmount: 1_000_000_000n,
      bridgeFee: 1_000_000n,
      xprotoFee: 0n,
      fee: 1_000_000n,
      netAmount: 999_000_000n,
      destBridgeAmount: 999_000_000n,
      destSwap: false,
      destSwapFee: 0n,
      destMaxAmount: 999_000_000n,
      destMinAmount: 994_005_000n, // 999 * 0.995
      slippageBps: 50n,
    });
  });

  it("default: kind 2 adds the messaging fee", () => {
    const p = price(prepared(f, ["alpha", "USDC"], ["beta", "USDC"], 2), 1000n * E6);
    assert.equal(p.bridgeFee, 300_000n);
    assert.equal(p.xprotoFee, 250_000n);
    assert.equal(p.fee, 550_000n);
    assert.equal(p.destMaxAmount, 999_450_000n);
    assert.equal(p.destMinAmount, 994_452_750n);
  });

  it("default: kind 0 with a swap on each side (USDC -> DAI -> bridge -> DAI -> USDC)", () => {
    const p = price(prepared(f, ["alpha", "USDC"], ["beta", "USDC"], 0), 1000n * E6);
    assert.deepEqual(numbers(p), {
      amount: 1_000_000_000n,
      sourceSwap: true,
      sourceSwapFee: 3_000_000n,
      bridgeAmount: 996_503_243_133_298_050_921n,
      sourceMinAmount: 991_520_726_917_631_560_666n,
      bridgeFee: 996_503_243_133_298_050n,
      xprotoFee: 0n,
      fee: 996_503_243_133_298_050n,
      netAmount: 995_506_739_890_164_752_871n,
      destBridgeAmount: 995_506_739_890_164_752_871n,
      destSwap: true,
      destSwapFee: 2_986_520_219_670_494_258n,
      destMaxAmount: 992_027_915n,
      destMinAmount: 987_067_775n,
      slippageBps: 50n,
    });
  });

  it("default: native coin in, two swaps, kind 2 (1.5 ETH on alpha -> GOV on gamma)", () => {
    const p = price(prepared(f, ["alpha", "ETH"], ["gamma", "GOV"], 2), (15n * E18) / 10n);
    assert.equal(p.bridgeAmount, 4_479_800_458n);
    assert.equal(p.sourceMinAmount, 4_457_401_455n);
    assert.equal(p.sourceSwapFee, 4_500_000_000_000_000n); // 0.0045 ETH
    assert.equal(p.fee, 1_593_940n);
    assert.equal(p.destSwapFee, 13_434_619n);
    assert.equal(p.destMaxAmount, 2_212_628_188_903_944_402_872n);
    assert.equal(p.destMinAmount, 2_201_565_047_959_424_680_857n);
  });

  it("behavior: converts the net amount between bridge token decimals, rounding down", () => {
    const json = structuredClone(f.registryJson) as {
      chains: { name: string; tokens: { symbol: string; decimals: number }[] }[];
    };
    json.chains
      .find((c) => c.name === "beta")!
      .tokens.find((t) => t.symbol === "USDC")!.decimals = 18;
    const fx = {
      ...createRouterFixture({ tokenConfigs: { 2: { maxAmount: 0n } } }),
      registry: parseRegistry(json),
    };
    fx.token = (chainName, symbol) =>
      fx.registry.chainByName(chainName)!.tokens.find((t) => t.symbol === symbol)!;
    const up = price(prepared(fx, ["alpha", "USDC"], ["beta", "USDC"], 2), 1000n * E6);
    assert.equal(up.destBridgeAmount, 999_450_000n * 10n ** 12n);
    const down = price(
      prepared(fx, ["beta", "USDC"], ["alpha", "USDC"], 2),
      1_000_000_000_123_456_789_000n,
    );
    assert.equal(down.fee, 300_000_000_037_287_036n);
    assert.equal(down.netAmount, 999_700_000_123_419_501_964n);
    assert.equal(down.destBridgeAmount, 999_700_000n);
  });

  it("error: below the minimum, above the maximum, beyond the pool's liquidity", () => {
    const k1 = prepared(f, ["alpha", "USDC"], ["beta", "USDC"], 1);
    assert.deepEqual(priceRoute(k1, 999_999n, SLIPPAGE), { ok: false, reason: "belowMin" });
    assert.equal(priceRoute(k1, 1_000_000n, SLIPPAGE).ok, true);
    // 250,000 USDC of liquidity on beta: net 250,000 passes, one unit more does not.
    assert.equal(priceRoute(k1, 250_125_562_781n, SLIPPAGE).ok, true);
    assert.deepEqual(priceRoute(k1, 250_125_562_782n, SLIPPAGE), { ok: false, reason: "aboveMax" });
    const k0 = prepared(f, ["alpha", "DAI"], ["beta", "DAI"], 0);
    assert.equal(priceRoute(k0, 100_000n * E18, SLIPPAGE).ok, true);
    assert.deepEqual(priceRoute(k0, 100_000n * E18 + 1n, SLIPPAGE), {
      ok: false,
      reason: "aboveMax",
    });
  });

  it("behavior: maxAmount 0 means no cap", () => {
    const fx = createRouterFixture({ tokenConfigs: { 0: { maxAmount: 0n } } });
    const k0 = prepared(fx, ["alpha", "DAI"], ["beta", "DAI"], 0);
    assert.equal(priceRoute(k0, 10n ** 9n * E18, SLIPPAGE).ok, true);
    assert.equal(amountLimitFlags(k0, 10n ** 40n, SLIPPAGE) & ABOVE_MAX, 0);
  });

  it("error: nothing would arrive (fees eat the amount) is below the minimum", () => {
    const fx = createRouterFixture({ tokenConfigs: { 2: { minAmount: 0n, flatFee: 10n * E6 } } });
    const k2 = prepared(fx, ["alpha", "USDC"], ["beta", "USDC"], 2);
    // fee = 10 USDC + 0.25 USDC + 0.03 %
    assert.deepEqual(priceRoute(k2, 10_250_000n, SLIPPAGE), { ok: false, reason: "belowMin" });
    assert.equal(priceRoute(k2, 10_260_000n, SLIPPAGE).ok, true);
    assert.equal(amountLimitFlags(k2, 10_250_000n, SLIPPAGE), BELOW_MIN);
  });

  it("behavior: the flags agree with priceRoute", () => {
    const routes = [
      prepared(f, ["alpha", "USDC"], ["beta", "USDC"], 1),
      prepared(f, ["alpha", "ETH"], ["gamma", "GOV"], 2),
      prepared(f, ["alpha", "USDC"], ["beta", "USDC"], 0),
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...routes),
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        (p, amount) => {
          const result = priceRoute(p, amount, SLIPPAGE);
          const flags = amountLimitFlags(p, amount, SLIPPAGE);
          if (result.ok) assert.equal(flags, 0);
          else
            assert.equal(
              result.reason === "belowMin" ? flags & BELOW_MIN : flags & ABOVE_MAX,
              result.reason === "belowMin" ? BELOW_MIN : ABOVE_MAX,
            );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("priceRoute properties", () => {
  const fx = createRouterFixture({ extraTokensPerChain: 4 });
  const tokens = fx.registry.chains.flatMap((c) => c.tokens);
  const pairs = tokens.flatMap((a) =>
    tokens.filter((b) => b.chainId !== a.chainId).map((b) => [a, b] as const),
  );
  const routes = pairs.flatMap(([a, b]) =>
    enumerateRoutes(fx.registry, a, b).map((r) => {
      const result = prepareRoute(r, fx.snapshot);
      assert.ok(result.ok, "result.ok");
      return result.prepared;
    }),
  );

  it("behavior: destMin <= destMax, fee >= 0, net = bridgeAmount - fee, sourceMin <= bridgeAmount", () => {
    assert.ok(routes.length > 100, "routes.length > 100");
    fc.assert(
      fc.property(
        fc.constantFrom(...routes),
        fc.bigInt({ min: 1n, max: 10n ** 26n }),
        fc.integer({ min: 0, max: 10000 }),
        (p, amount, slip) => {
          const result = priceRoute(p, amount, BigInt(slip));
          if (!result.ok) return;
          const q = result.priced;
          assert.ok(q.destMinAmount <= q.destMaxAmount, "q.destMinAmount <= q.destMaxAmount");
          assert.ok(q.destMinAmount >= 0n, "q.destMinAmount >= 0n");
          assert.ok(
            q.fee >= 0n && q.bridgeFee >= 0n && q.xprotoFee >= 0n,
            "q.fee >= 0n && q.bridgeFee >= 0n && q.xprotoFee >= 0n",
          );
          assert.equal(q.netAmount, q.bridgeAmount - q.fee);
          assert.ok(
            q.netAmount > 0n && q.destMaxAmount > 0n,
            "q.netAmount > 0n && q.destMaxAmount > 0n",
          );
          assert.ok(q.sourceMinAmount <= q.bridgeAmount, "q.sourceMinAmount <= q.bridgeAmount");
          assert.ok(
            q.sourceSwapFee >= 0n && q.sourceSwapFee <= q.amount,
            "q.sourceSwapFee >= 0n && q.sourceSwapFee <= q.amount",
          );
          assert.ok(
            q.destSwapFee >= 0n && q.destSwapFee <= q.destBridgeAmount,
            "q.destSwapFee >= 0n && q.destSwapFee <= q.destBridgeAmount",
          );
          if (!q.sourceSwap) assert.equal(q.sourceMinAmount, q.amount);
          if (!q.destSwap) assert.equal(q.destMaxAmount, q.destBridgeAmount);
          const { destLiquidity } = referenceTerms(p);
          if (destLiquidity !== undefined)
            assert.ok(q.destBridgeAmount <= destLiquidity, "q.destBridgeAmount <= p.destLiquidity");
        },
      ),
      { numRuns: 500 },
    );
  });

  it("behavior: a transfer whose source swap pays out only sourceMinAmount still delivers destMinAmount", () => {
    // The contract's steps 4-7 (docs/protocol.md), written out here rather than reusing the
    // router's helpers: fee charged on the actual bridge amount, capped at the quoted fee.
    const deliveredAt = (q: PricedRoute, bridgeAmount: bigint): bigint => {
      const { destHops, route } = q.prepared;
      const { tokenConfig, xprotoFee } = referenceTerms(q.prepared);
      const bridgeFeeOf = (x: bigint) => tokenConfig.flatFee + (x * tokenConfig.feeBps) / 10000n;
      assert.ok(q.fee >= bridgeFeeOf(q.sourceMinAmount) + xprotoFee, "fee below required");
      let charged = bridgeFeeOf(bridgeAmount);
      if (charged > q.fee - xprotoFee) charged = q.fee - xprotoFee;
      const net = bridgeAmount - charged - xprotoFee;
      if (net <= 0n) return 0n;
      const from = route.sourceBridgeToken.decimals;
      const to = route.destBridgeToken.decimals;
      const destBridge =
        to >= from ? net * 10n ** BigInt(to - from) : net / 10n ** BigInt(from - to);
      return destHops.length > 0 ? (quoteHops(destBridge, destHops) ?? 0n) : destBridge;
    };
    const swapRoutes = routes.filter((p) => p.sourceHops.length > 0);
    // Amounts spread over every magnitude (1 base unit to 10^27), so each token's range is hit.
    const amounts = fc
      .tuple(fc.integer({ min: 1, max: 999 }), fc.integer({ min: 0, max: 24 }))
      .map(([mantissa, exponent]) => BigInt(mantissa) * 10n ** BigInt(exponent));
    let priced = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...swapRoutes),
        amounts,
        fc.integer({ min: 0, max: 1000 }),
        (p, amount, slip) => {
          const result = priceRoute(p, amount, BigInt(slip));
          if (!result.ok) return;
          priced += 1;
          const q = result.priced;
          assert.ok(
            deliveredAt(q, q.sourceMinAmount) >= q.destMinAmount,
            "deliveredAt(q, q.sourceMinAmount) >= q.destMinAmount",
          );
          assert.ok(
            deliveredAt(q, q.bridgeAmount) >= q.destMinAmount,
            "deliveredAt(q, q.bridgeAmount) >= q.destMinAmount",
          );
          // The contract's limits hold over the whole tolerance: at the lowest output...
          const { tokenConfig, destLiquidity } = referenceTerms(q.prepared);
          assert.ok(q.sourceMinAmount >= tokenConfig.minAmount, "below minAmount at the edge");
          // ...and at the highest (the price moved in the sender's favour by the tolerance).
          const keep = 10000n - BigInt(slip);
          const high = keep > 0n ? (q.bridgeAmount * 10000n) / keep : q.bridgeAmount;
          if (tokenConfig.maxAmount !== 0n)
            assert.ok(high <= tokenConfig.maxAmount, "high <= tokenConfig.maxAmount");
          if (destLiquidity !== undefined) {
            const fee = tokenConfig.flatFee + (high * tokenConfig.feeBps) / 10000n + q.xprotoFee;
            const from = q.route.sourceBridgeToken.decimals;
            const to = q.route.destBridgeToken.decimals;
            const net = high - fee;
            const destBridge =
              to >= from ? net * 10n ** BigInt(to - from) : net / 10n ** BigInt(from - to);
            assert.ok(destBridge <= destLiquidity, "beyond the pool's liquidity at the edge");
          }
        },
      ),
      { numRuns: 1000 },
    );
    assert.ok(priced > 150, `only ${priced} of 1000 runs priced a route`);
  });

  it("behavior: the output never falls when the input grows", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...routes),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        fc.bigInt({ min: 0n, max: 10n ** 22n }),
        (p, amount, more) => {
          const a = priceRoute(p, amount, SLIPPAGE);
          const b = priceRoute(p, amount + more, SLIPPAGE);
          if (a.ok && b.ok)
            assert.ok(
              b.priced.destMaxAmount >= a.priced.destMaxAmount,
              "b.priced.destMaxAmount >= a.priced.destMaxAmount",
            );
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("prepareRoute", () => {
  const route = enumerateRoutes(f.registry, f.token("alpha", "ETH"), f.token("beta", "USDC")).find(
    (r) => r.kind === 1,
  )!;
  const withChain = (chainId: number, change: (s: ChainState) => ChainState): StateSnapshot => {
    const chains = new Map(f.snapshot.chains);
    chains.set(chainId, change(chains.get(chainId)!));
    return { chains };
  };

  it("default: resolves reserves oriented along each hop", () => {
    const result = prepareRoute(route, f.snapshot);
    assert.ok(result.ok, "result.ok");
    // WETH -> USDC on alpha: 1,000 WETH in, 3,000,000 USDC out.
    assert.deepEqual(result.prepared.sourceHops, [
      { reserveIn: 1000n * E18, reserveOut: 3_000_000n * E6 },
    ]);
    assert.equal(referenceTerms(result.prepared).destLiquidity, 250_000n * E6);
    assert.equal(referenceTerms(result.prepared).xprotoFee, 0n);
  });

  it("behavior: each hop swaps through the factory's pair for its couple, as the contracts do", () => {
    // ORC -> WETH -> USDC on alpha (the registry has no ORC/USDC pair). The factory's ORC/WETH
    // pair is another one than the registry names (redeployed): its reserves price the hop.
    const orc = f.token("alpha", "ORC");
    const weth = f.token("alpha", "WETH");
    const viaHub = enumerateRoutes(f.registry, orc, f.token("beta", "USDC")).find(
      (r) => r.kind === 1,
    )!;
    assert.equal(viaHub.sourcePath.length, 2);
    const [first, second] = viaHub.sourcePath;
    const factoryPair = "0x00000000000000000000000000000000000beef1";
    const [token0, token1] = [orc.key, weth.key].sort() as [string, string];
    const snapshot = withChain(71001, (state) => ({
      ...state,
      pairs: new Map([
        ...state.pairs,
        [factoryPair, { token0, token1, reserve0: 7n * E18, reserve1: 11n * E18 }],
      ]),
      directPairs: new Map([
        [coupleKey(orc.key, weth.key), factoryPair],
        [coupleKey(second!.tokenIn, second!.tokenOut), second!.pair!.key],
      ]),
    }));
    const result = prepareRoute(viaHub, snapshot);
    assert.ok(result.ok, "result.ok");
    const orcIs0 = token0 === orc.key;
    assert.deepEqual(result.prepared.sourceHops[0], {
      reserveIn: orcIs0 ? 7n * E18 : 11n * E18,
      reserveOut: orcIs0 ? 11n * E18 : 7n * E18,
    });
    assert.notEqual(first!.pair!.key, factoryPair);
  });

  it("error: says which state is missing", () => {
    const noBeta = new Map(f.snapshot.chains);
    noBeta.delete(71002);
    assert.deepEqual(prepareRoute(route, { chains: noBeta }), {
      ok: false,
      chainId: 71002,
      missing: "chain state",
    });
    const noPairs = withChain(71001, (s) => ({ ...s, pairs: new Map() }));
    const missingPair = prepareRoute(route, noPairs);
    assert.ok(
      !missingPair.ok && /reserves of pair/.test(missingPair.missing),
      "!missingPair.ok && /reserves of pair/.test(missingPair.missing)",
    );
    const noPool = withChain(71002, (s) => ({
      ...s,
      bridges: { ...s.bridges, 1: { tokenConfigs: new Map() } },
    }));
    assert.deepEqual(prepareRoute(route, noPool), {
      ok: false,
      chainId: 71002,
      missing: "kind 1 availableLiquidity of USDC",
    });
    const noConfig = withChain(71001, (s) => ({ ...s, bridges: {} }));
    assert.deepEqual(prepareRoute(route, noConfig), {
      ok: false,
      chainId: 71001,
      missing: "kind 1 tokenConfig of USDC",
    });
    const k2 = enumerateRoutes(f.registry, f.token("alpha", "USDC"), f.token("beta", "USDC")).find(
      (r) => r.kind === 2,
    )!;
    const noFee = withChain(71001, (s) => ({
      ...s,
      bridges: { ...s.bridges, 2: { tokenConfigs: s.bridges[2]!.tokenConfigs } },
    }));
    assert.deepEqual(prepareRoute(k2, noFee), {
      ok: false,
      chainId: 71001,
      missing: "xprotoFee to 71002",
    });
  });
});
