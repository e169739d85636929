/**
 * The relations every successful quote satisfies (docs/router.md, "Response"; docs/http-api.md,
 * API rule 4), checked on the response alone plus the registry: shared by the route test and
 * the devnet test.
 */
import assert from "node:assert/strict";
import { decodeFunctionData, parseAbi } from "viem";
import { canonicalDecimal, toBaseUnits } from "../../src/amount.js";
import type { Registry, RegistryToken } from "../../src/domain/registry.js";
import {
  type QuoteParams,
  type RouteQuoteData,
  toBridgeParams,
} from "../../src/router/quote-response.js";
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

/** The fields a quote adds beside the spec's, in the order the response has them. */
export const EXTENSION_FIELDS = [
  "transactionRequest",
  "approval",
  "stateBlocks",
  "expiresAt",
  "estimatedDuration",
] as const;

/** What an integrator's wallet sees in the two ready transactions. */
const EXECUTION_ABI = parseAbi([
  "function bridge((uint256 destChainId, address sourceToken, address destToken, uint256 amount, uint256 fee, address to, bool sourceSwap, uint256 sourceSwapFee, address sourceBridgeToken, uint256 sourceMinAmount, bool destSwap, uint256 destSwapFee, address destBridgeToken, uint256 destMinAmount) p) payable returns (bytes32)",
  "function approve(address spender, uint256 amount) returns (bool)",
]);

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
  assert.deepEqual(Object.keys(data), [
    "destMaxAmount",
    "destMinAmount",
    "fee",
    "signData",
    ...EXTENSION_FIELDS,
  ]);
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
  assert.ok(
    units(data.destMinAmount, destToken) <= units(data.destMaxAmount, destToken),
    "units(data.destMinAmount, destToken) <= units(data.destMaxAmount, destToken)",
  );
  assert.ok(units(data.destMinAmount, destToken) > 0n, "units(data.destMinAmount, destToken) > 0n");

  // Swaps follow the tokens.
  assert.equal(p.sourceSwap, sourceToken.key !== sourceBridge.key);
  assert.equal(p.destSwap, destToken.key !== destBridge.key);
  if (!p.sourceSwap) {
    assert.equal(p.sourceMinAmount, p.amount);
    assert.equal(p.sourceSwapFee, "0");
  } else {
    assert.ok(units(p.sourceSwapFee, sourceToken) > 0n, "units(p.sourceSwapFee, sourceToken) > 0n");
  }
  if (!p.destSwap) assert.equal(p.destSwapFee, "0");

  // The kind: a registry link, its bridge on the source, destChainId in its scheme.
  const kind = signData.bridgeType;
  assert.ok(kind === 0 || kind === 1 || kind === 2, "kind === 0 || kind === 1 || kind === 2");
  assert.ok(
    registry
      .linksBetween(source.chainId, dest.chainId)
      .some((l) => l.kind === kind && l.sourceToken === sourceBridge && l.destToken === destBridge),
    "a registry link carries the bridge tokens",
  );
  assert.equal(signData.bridge, source.bridges[kind]);
  assert.equal(signData.chainName, source.name);
  assert.equal(p.destChainId, dest.bridgeChainIds[kind]);
  assertExecutionFields(registry, data, sourceToken);
  return p;
}

/**
 * The added fields: the ready transactions carry exactly `params` in base units, the approval
 * is there iff the source token is not the native coin, the state blocks name both chains.
 */
function assertExecutionFields(
  registry: Registry,
  data: RouteQuoteData,
  sourceToken: RegistryToken,
): void {
  const { signData } = data;
  const source = registry.chainByName(signData.chainName)!;
  const params = toBridgeParams(signData, registry);
  const tx = data.transactionRequest!;
  assert.deepEqual(Object.keys(tx), ["chainId", "to", "data", "value"]);
  assert.equal(tx.chainId, source.chainId);
  assert.equal(tx.to, signData.bridge);
  const call = decodeFunctionData({ abi: EXECUTION_ABI, data: tx.data });
  assert.equal(call.functionName, "bridge");
  const decoded = call.args[0] as Record<string, unknown>;
  for (const [name, value] of Object.entries(params)) {
    const got = decoded[name];
    assert.equal(
      typeof got === "string" ? got.toLowerCase() : got,
      typeof value === "string" ? value.toLowerCase() : value,
      `transactionRequest.data: ${name}`,
    );
  }
  assert.equal(tx.value, sourceToken.native ? `0x${params.amount.toString(16)}` : "0x0");
  if (sourceToken.native) assert.equal(data.approval, null);
  else {
    const approval = data.approval!;
    assert.deepEqual(Object.keys(approval), ["token", "spender", "amount", "transactionRequest"]);
    assert.equal(approval.token, sourceToken.address);
    assert.equal(approval.spender, signData.bridge);
    assert.equal(approval.amount, signData.amount);
    assert.equal(approval.transactionRequest.chainId, source.chainId);
    assert.equal(approval.transactionRequest.to, sourceToken.address);
    assert.equal(approval.transactionRequest.value, "0x0");
    const approve = decodeFunctionData({
      abi: EXECUTION_ABI,
      data: approval.transactionRequest.data,
    });
    assert.equal(approve.functionName, "approve");
    assert.deepEqual(
      (approve.args as readonly unknown[]).map((a) =>
        typeof a === "string" ? a.toLowerCase() : a,
      ),
      [signData.bridge.toLowerCase(), params.amount],
    );
  }
  const dest = registry.chainByBridgeChainId(signData.bridgeType, `${params.destChainId}`)!;
  assert.deepEqual(
    Object.keys(data.stateBlocks!).sort(),
    [String(source.chainId), String(dest.chainId)].sort(),
  );
  for (const block of Object.values(data.stateBlocks!))
    assert.ok(Number.isSafeInteger(block), "Number.isSafeInteger(block)");
  assert.match(data.expiresAt!, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  const duration = data.estimatedDuration;
  assert.ok(duration !== undefined, "duration !== undefined");
  if (duration !== null) {
    assert.ok(
      duration.samples >= 1 && duration.p50Seconds <= duration.p90Seconds,
      "duration.samples >= 1 && duration.p50Seconds <= duration.p90Seconds",
    );
  }
}
