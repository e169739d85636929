import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { formatAmount, parseAmount, toBaseUnits } from "../amount.js";
import { createRouter } from "./create-router.js";
import { createRouterFixture, fixtureQuoteRequest } from "./fixtures.js";
import type { PricedRoute } from "./price-route.js";
import { buildQuoteData, quoteDataInputsEqual, toBridgeParams } from "./quote-response.js";

const PARAM_TYPES = [
  ["destChainId", "string"],
  ["sourceToken", "string"],
  ["destToken", "string"],
  ["amount", "string"],
  ["fee", "string"],
  ["to", "string"],
  ["sourceSwap", "boolean"],
  ["sourceSwapFee", "string"],
  ["sourceBridgeToken", "string"],
  ["sourceMinAmount", "string"],
  ["destSwap", "boolean"],
  ["destSwapFee", "string"],
  ["destBridgeToken", "string"],
  ["destMinAmount", "string"],
] as const;
const AMOUNT_FIELDS = [
  "amount",
  "fee",
  "sourceSwapFee",
  "sourceMinAmount",
  "destSwapFee",
  "destMinAmount",
];
const CANONICAL = /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/;
const TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const f = createRouterFixture();
// The spec's fields alone here; the added ones: quote-extensions.test.ts.
const router = createRouter({ registry: f.registry, extensions: false });

function quote(body: Record<string, string>) {
  const result = router.quote(body, f.snapshot);
  assert.ok(result.ok, result.ok ? "" : result.message);
  return result;
}

describe("buildQuoteData", () => {
  it('default: the data object of docs/router.md ("Response")', () => {
    const body = {
      sourceChain: "71001",
      sourceToken: f.token("alpha", "USDC").address.toLowerCase(),
      destChain: "71002",
      destToken: f.token("beta", "USDC").address,
      amount: "001000.000",
      to: TO.toLowerCase(),
    };
    const { data } = quote(body);
    assert.deepEqual(data, {
      destMaxAmount: "999.45",
      destMinAmount: "994.45275",
      fee: "0.55",
      signData: {
        amount: "1000",
        bridgeType: 2,
        bridge: f.chain("alpha").bridges[2],
        chainName: "alpha",
        params: JSON.stringify({
          destChainId: "40102",
          sourceToken: body.sourceToken,
          destToken: body.destToken,
          amount: "1000",
          fee: "0.55",
          to: body.to,
          sourceSwap: false,
          sourceSwapFee: "0",
          sourceBridgeToken: f.token("alpha", "USDC").address,
          sourceMinAmount: "1000",
          destSwap: false,
          destSwapFee: "0",
          destBridgeToken: f.token("beta", "USDC").address,
          destMinAmount: "994.45275",
        }),
      },
    });
  });

  it("behavior: swap fees in each swap's input token, minimums in their own tokens", () => {
    const { data } = quote({
      sourceChain: "71001",
      sourceToken: "0x0000000000000000000000000000000000000000",
      destChain: "71003",
      destToken: f.token("gamma", "GOV").address,
      amount: "1.5",
      to: TO,
    });
    const params = JSON.parse(data.signData.params);
    assert.equal(data.destMaxAmount, "2212.628188903944402872");
    assert.equal(params.sourceSwap, true);
    assert.equal(params.sourceSwapFee, "0.0045"); // ETH
    assert.equal(params.sourceMinAmount, "4457.401455"); // USDC on alpha
    assert.equal(params.fee, "1.59394"); // USDC
    assert.equal(params.destSwap, true);
    assert.equal(params.destSwapFee, "13.434619"); // USDC on gamma
    assert.equal(params.destMinAmount, "2201.565047959424680857"); // GOV
    assert.equal(params.destChainId, "40103");
  });

  it("behavior: params round trip (14 typed fields, request strings kept, canonical amounts, base units back)", () => {
    const fx = createRouterFixture({ extraTokensPerChain: 3 });
    const r = createRouter({ registry: fx.registry, slippageBps: 100 });
    const tokens = fx.registry.chains.flatMap((c) => c.tokens);
    const pairs = tokens.flatMap((a) =>
      tokens.filter((b) => b.chainId !== a.chainId).map((b) => [a, b] as const),
    );
    const caseOf = fc.constantFrom(
      (s: string) => s,
      (s: string) => s.toLowerCase(),
      (s: string) => `0x${s.slice(2).toUpperCase()}`,
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...pairs),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        caseOf,
        caseOf,
        caseOf,
        ([a, b], units, c1, c2, c3) => {
          const body = {
            sourceChain: String(a.chainId),
            sourceToken: c1(a.address),
            destChain: String(b.chainId),
            destToken: c2(b.address),
            amount: formatAmount(units, a.decimals),
            to: c3(TO),
          };
          const result = r.quote(body, fx.snapshot);
          if (!result.ok) {
            assert.ok(["amountOutOfRange", "noRoute"].includes(result.kind), result.message);
            return;
          }
          const { data, priced } = result;
          const params = JSON.parse(data.signData.params);
          assert.deepEqual(
            Object.keys(params),
            PARAM_TYPES.map(([k]) => k),
          );
          for (const [key, type] of PARAM_TYPES) assert.equal(typeof params[key], type, key);
          assert.equal(params.to, body.to);
          assert.equal(params.sourceToken, body.sourceToken);
          assert.equal(params.destToken, body.destToken);
          for (const key of AMOUNT_FIELDS) assert.match(params[key], CANONICAL, key);
          for (const value of [data.destMaxAmount, data.destMinAmount, data.fee])
            assert.match(value, CANONICAL);
          assert.equal(params.amount, data.signData.amount);
          assert.equal(params.amount, body.amount);
          assert.equal(params.fee, data.fee);
          assert.equal(params.destMinAmount, data.destMinAmount);
          assert.equal(data.signData.chainName, fx.registry.chain(a.chainId)!.name);
          assert.equal(
            fx.registry.chainByBridgeChainId(data.signData.bridgeType, params.destChainId)?.chainId,
            b.chainId,
          );

          const p = toBridgeParams(data.signData, fx.registry);
          assert.equal(p.amount, units);
          assert.equal(p.fee, priced.fee);
          assert.equal(p.sourceSwapFee, priced.sourceSwapFee);
          assert.equal(p.sourceMinAmount, priced.sourceMinAmount);
          assert.equal(p.destSwapFee, priced.destSwapFee);
          assert.equal(p.destMinAmount, priced.destMinAmount);
          assert.equal(p.destChainId, BigInt(priced.route.destBridgeChainId));
          assert.equal(p.sourceSwap, priced.sourceSwap);
          assert.equal(p.destSwap, priced.destSwap);
          assert.equal(p.to, body.to);
          assert.equal(p.sourceBridgeToken, priced.route.sourceBridgeToken.address);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("behavior: toBridgeParams works when every chain has the same addresses", () => {
    const fx = createRouterFixture({ sameAddressesAcrossChains: true });
    assert.equal(fx.token("alpha", "USDC").address, fx.token("gamma", "USDC").address);
    const r = createRouter({ registry: fx.registry });
    const result = r.quote(
      fixtureQuoteRequest(fx, ["gamma", "GOV"], ["beta", "ORC"], "100", TO),
      fx.snapshot,
    );
    assert.ok(result.ok, result.ok ? "" : result.message);
    const p = toBridgeParams(result.data.signData, fx.registry);
    assert.equal(p.amount, 100n * 10n ** 18n);
    assert.equal(p.destMinAmount, result.priced.destMinAmount);
    assert.equal(result.data.signData.chainName, "gamma");
  });

  it("error: toBridgeParams refuses signData it cannot resolve", () => {
    const { data } = quote(fixtureQuoteRequest(f, ["alpha", "USDC"], ["beta", "USDC"], "10", TO));
    assert.throws(
      () => toBridgeParams({ ...data.signData, chainName: "delta" }, f.registry),
      /unknown chain name delta/,
    );
    // 10 USDC: kind 0 (via DAI, no flat fee) wins; its destChainId means nothing to kind 1.
    assert.equal(data.signData.bridgeType, 0);
    assert.throws(
      () => toBridgeParams({ ...data.signData, bridgeType: 1 }, f.registry),
      /kind 1 destChainId 71002 is unknown/,
    );
  });

  it("behavior: buildQuoteData is what quote returns", () => {
    const result = quote(fixtureQuoteRequest(f, ["beta", "ORC"], ["alpha", "DAI"], "3.25", TO));
    assert.deepEqual(buildQuoteData(result.request, result.priced), result.data);
  });
});

describe("quoteDataInputsEqual", () => {
  it("behavior: equal exactly when buildQuoteData gives the same data, each field changed alone", () => {
    // Swaps on both sides, so every field of the priced route is in play.
    const { request, priced } = quote(
      fixtureQuoteRequest(f, ["alpha", "WETH"], ["gamma", "GOV"], "1.5", TO),
    );
    assert.ok(priced.sourceSwap && priced.destSwap, "priced.sourceSwap && priced.destSwap");
    const otherRoute = quote(
      fixtureQuoteRequest(f, ["alpha", "USDC"], ["beta", "USDC"], "1000", TO),
    ).priced.route;
    const base = buildQuoteData(request, priced);
    assert.equal(quoteDataInputsEqual(priced, { ...priced }), true);
    for (const field of Object.keys(priced) as (keyof PricedRoute)[]) {
      const value = priced[field];
      const changed =
        typeof value === "bigint"
          ? value + 1n
          : typeof value === "boolean"
            ? !value
            : field === "route"
              ? otherRoute
              : { ...(value as object) };
      const copy = { ...priced, [field]: changed } as PricedRoute;
      const sameData = isDeepStrictEqual(buildQuoteData(request, copy), base);
      assert.equal(quoteDataInputsEqual(priced, copy), sameData, `${field} changed alone`);
    }
  });
});

describe("amount formatting round trips", () => {
  it("behavior: parseAmount(formatAmount(x)) = x and canonical text survives toBaseUnits", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 40n }),
        fc.integer({ min: 0, max: 30 }),
        (x, decimals) => {
          const text = formatAmount(x, decimals);
          assert.match(text, CANONICAL);
          assert.deepEqual(parseAmount(text, decimals), { ok: true, value: x });
          assert.equal(formatAmount(toBaseUnits(text, decimals), decimals), text);
        },
      ),
    );
  });
});
