/**
 * The relations every successful quote satisfies (docs/router.md, "Response"; docs/http-api.md,
 * API rule 4), checked on the response alone plus the registry: shared by the route test and
 * the devnet test.
 */
import assert from "node:assert/strict";
import { canonicalDecimal, toBaseUnits } from "../../src/amount.js";
import type { Registry, RegistryToken } from "../../src/config/registry.js";
import type { QuoteParams, RouteQuoteData } from "../../src/router/quote-response.js";
import type { RouterRequest } from "../../src/router/validate-request.js";

export const PARAMS_FIELDS = [
  "destChainId",
  "sourceToken",
  "destToken",
  "amount",
  "fee",
  "to",
  "sourceSwap",
  "sourceSwapFee",
  "sourceBridgeToken",
  "sourceMinAmount",
  "destSwap",
  "destSwapFee",
  "destBridgeToken",
  "destMinAmount",
] as const;

const BOOLEAN_FIELDS = new Set(["sourceSwap", "destSwap"]);
const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/;

/** params decoded from its JSON string: the router's own QuoteParams shape. */
export type DecodedParams = QuoteParams;

/** Asserts every relation and returns the decoded params. */
export function assertQuoteRelations(
  registry: Registry,
  request: RouterRequest,
  data: RouteQuoteData,
): DecodedParams {
  assert.deepEqual(Object.keys(data), ["destMaxAmount", "destMinAmount", "fee", "signData"]);
  const { signData } = data;
  assert.deepEqual(Object.keys(signData), [
    "amount",
    "bridgeType",
    "bridge",
    "chainName",
    "params",
  ]);
  assert.equal(typeof signData.params, "string", "params is a JSON string");
  const p = JSON.parse(signData.params) as DecodedParams;
  assert.deepEqual(Object.keys(p), [...PARAMS_FIELDS], "the 14 fields in order");
  for (const name of PARAMS_FIELDS) {
    assert.equal(typeof p[name], BOOLEAN_FIELDS.has(name) ? "boolean" : "string", name);
  }
  // Repeats of the request, exactly as sent.
  assert.equal(p.to, request.to);
  assert.equal(p.sourceToken, request.sourceToken);
  assert.equal(p.destToken, request.destToken);

  const source = registry.chain(Number(request.sourceChain))!;
  const dest = registry.chain(Number(request.destChain))!;
  const sourceToken = registry.token(source.chainId, request.sourceToken)!;
  const destToken = registry.token(dest.chainId, request.destToken)!;
  const sourceBridge = registry.token(source.chainId, p.sourceBridgeToken)!;
  const destBridge = registry.token(dest.chainId, p.destBridgeToken)!;
  assert.ok(sourceBridge && destBridge, "bridge tokens are registry tokens");

  // Amounts: canonical, and the request amount's value.
  for (const value of [data.destMaxAmount, data.destMinAmount, data.fee, signData.amount]) {
    assert.match(value, DECIMAL);
  }
  for (const name of [
    "amount",
    "fee",
    "sourceSwapFee",
    "sourceMinAmount",
    "destSwapFee",
    "destMinAmount",
  ] as const) {
    assert.match(p[name], DECIMAL, name);
  }
  assert.equal(signData.amount, canonicalDecimal(request.amount));
  assert.equal(p.amount, signData.amount);
  assert.equal(p.fee, data.fee);
  assert.equal(p.destMinAmount, data.destMinAmount);
  const units = (text: string, token: RegistryToken) => toBaseUnits(text, token.decimals);
  assert.ok(units(data.destMinAmount, destToken) <= units(data.destMaxAmount, destToken));
  assert.ok(units(data.destMinAmount, destToken) > 0n);

  // Swaps follow the tokens.
  assert.equal(p.sourceSwap, sourceToken.key !== sourceBridge.key);
  assert.equal(p.destSwap, destToken.key !== destBridge.key);
  if (!p.sourceSwap) {
    assert.equal(p.sourceMinAmount, p.amount);
    assert.equal(p.sourceSwapFee, "0");
  } else {
    assert.ok(units(p.sourceSwapFee, sourceToken) > 0n);
  }
  if (!p.destSwap) assert.equal(p.destSwapFee, "0");

  // The kind: a registry link, its bridge on the source, destChainId in its scheme.
  const kind = signData.bridgeType;
  assert.ok(kind === 0 || kind === 1 || kind === 2);
  assert.ok(
    registry
      .linksBetween(source.chainId, dest.chainId)
      .some((l) => l.kind === kind && l.sourceToken === sourceBridge && l.destToken === destBridge),
    "a registry link carries the bridge tokens",
  );
  assert.equal(signData.bridge, source.bridges[kind]);
  assert.equal(signData.chainName, source.name);
  assert.equal(p.destChainId, dest.bridgeChainIds[kind]);
  return p;
}
