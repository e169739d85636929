/**
 * The quote response (docs/router.md, "Response"; docs/http-api.md, API rule 4) from a validated
 * request and its best priced route, and the way back from `signData` to the contract's base-unit
 * BridgeParams.
 */
import type { Address } from "viem";
import { formatAmount, toBaseUnits } from "../amount.js";
import type { BridgeKind } from "../domain/bridge-kind.js";
import type { Registry } from "../domain/registry.js";
import type { BridgeParams } from "../protocols/reference/bridge-params.js";
import type { PricedRoute } from "./price-route.js";
import type { QuoteExtensions } from "./quote-extensions.js";
import type { ValidatedRouterRequest } from "./validate-request.js";

/**
 * The object encoded in signData.params, fields in the order of docs/router.md, "Response". Amounts
 * are human-unit canonical decimal strings, each in its own token (docs/router.md, "Response").
 */
export interface QuoteParams {
  /** Destination in the chosen kind's chain-id scheme. */
  destChainId: string;
  /** Request string, exactly. */
  sourceToken: string;
  /** Request string, exactly. */
  destToken: string;
  /** Request amount, canonical, source token units. */
  amount: string;
  /** bridge fee + messaging fee, source bridge token units. */
  fee: string;
  /** Request string, exactly. */
  to: string;
  sourceSwap: boolean;
  /** DEX fee of the source swap, source token units. */
  sourceSwapFee: string;
  sourceBridgeToken: string;
  /** Minimum source swap output (source bridge token units); `amount` without a swap. */
  sourceMinAmount: string;
  destSwap: boolean;
  /** DEX fee of the destination swap, destination bridge token units. */
  destSwapFee: string;
  destBridgeToken: string;
  /** Guaranteed minimum delivery, destination token units. */
  destMinAmount: string;
}

export interface SignData {
  amount: string;
  bridgeType: BridgeKind;
  bridge: string;
  chainName: string;
  /** JSON.stringify(QuoteParams). */
  params: string;
}

/**
 * The `data` of a successful router response: the spec's four fields, and (unless the router was
 * built without them) the fields beside them (quote-extensions.ts).
 */
export interface RouteQuoteData extends Partial<QuoteExtensions> {
  destMaxAmount: string;
  destMinAmount: string;
  fee: string;
  /**
   * Present when the route's messaging fee is not part of `fee` (a LayerZero OFT: it is paid in
   * the source chain's native coin, as the transaction's value): how much, in which token.
   */
  messagingFee?: MessagingFee;
  signData: SignData;
}

/** A messaging fee paid apart from `fee` (docs/router.md, "Messaging fees in another token"). */
export interface MessagingFee {
  /** Human units of `address`. */
  amount: string;
  /** The token (0x0: the native coin). */
  address: string;
  symbol: string;
  decimals: number;
}

/** The messaging fee a quote names beside `fee`, undefined when `fee` includes it. */
export function messagingFeeOf(priced: PricedRoute): MessagingFee | undefined {
  const { route } = priced;
  if (route.routing.messagingFeeToken !== "native") return undefined;
  const native = route.sourceChain.nativeToken;
  return {
    amount: formatAmount(priced.xprotoFee, native.decimals),
    address: native.address,
    symbol: native.symbol,
    decimals: native.decimals,
  };
}

export function buildQuoteParams(
  request: ValidatedRouterRequest,
  priced: PricedRoute,
): QuoteParams {
  const { route } = priced;
  const amount = formatAmount(priced.amount, route.sourceToken.decimals);
  // Object literal order is JSON.stringify order: keep the documented order (docs/router.md,
  // "Response").
  return {
    destChainId: route.destBridgeChainId,
    sourceToken: request.request.sourceToken,
    destToken: request.request.destToken,
    amount,
    fee: formatAmount(priced.fee, route.sourceBridgeToken.decimals),
    to: request.request.to,
    sourceSwap: priced.sourceSwap,
    sourceSwapFee: formatAmount(priced.sourceSwapFee, route.sourceToken.decimals),
    sourceBridgeToken: route.sourceBridgeToken.address,
    sourceMinAmount: formatAmount(priced.sourceMinAmount, route.sourceBridgeToken.decimals),
    destSwap: priced.destSwap,
    destSwapFee: formatAmount(priced.destSwapFee, route.destBridgeToken.decimals),
    destBridgeToken: route.destBridgeToken.address,
    destMinAmount: formatAmount(priced.destMinAmount, route.destToken.decimals),
  };
}

/** The spec's fields of a successful router response (docs/router.md, "Response"). */
export function buildQuoteData(
  request: ValidatedRouterRequest,
  priced: PricedRoute,
): RouteQuoteData {
  const params = buildQuoteParams(request, priced);
  const signData: SignData = {
    amount: params.amount,
    bridgeType: priced.route.kind,
    bridge: priced.route.bridge,
    chainName: priced.route.sourceChain.name,
    params: JSON.stringify(params),
  };
  const destMaxAmount = formatAmount(priced.destMaxAmount, priced.route.destToken.decimals);
  const messagingFee = messagingFeeOf(priced);
  if (messagingFee !== undefined) {
    return {
      destMaxAmount,
      destMinAmount: params.destMinAmount,
      fee: params.fee,
      messagingFee,
      signData,
    };
  }
  return { destMaxAmount, destMinAmount: params.destMinAmount, fee: params.fee, signData };
}

/**
 * Whether two priced routes give the same buildQuoteData (for the same request): the same
 * candidate route and equal values in every PricedRoute field buildQuoteData reads. The router
 * uses it to answer an unchanged quote of a new snapshot with the previous answer's object.
 */
export function quoteDataInputsEqual(a: PricedRoute, b: PricedRoute): boolean {
  return (
    a.route === b.route &&
    a.amount === b.amount &&
    a.fee === b.fee &&
    // A messaging fee apart from `fee` is in the data itself (messagingFee).
    (a.xprotoFee === b.xprotoFee || a.route.routing.messagingFeeToken !== "native") &&
    a.sourceSwap === b.sourceSwap &&
    a.sourceSwapFee === b.sourceSwapFee &&
    a.sourceMinAmount === b.sourceMinAmount &&
    a.destSwap === b.destSwap &&
    a.destSwapFee === b.destSwapFee &&
    a.destMinAmount === b.destMinAmount &&
    a.destMaxAmount === b.destMaxAmount
  );
}

/**
 * Converts a quote's signData back into the contract call's BridgeParams. Takes signData, not
 * params alone: the devnet deploys the same addresses on every chain, so a token address says
 * nothing about its chain; `chainName` and `bridgeType` + `destChainId` pin both chains.
 * Throws RangeError on a signData this service did not produce.
 */
export function toBridgeParams(
  signData: Pick<SignData, "bridgeType" | "chainName" | "params">,
  registry: Registry,
): BridgeParams {
  const source = registry.chainByName(signData.chainName);
  if (!source) throw new RangeError(`unknown chain name ${signData.chainName}`);
  const p = JSON.parse(signData.params) as QuoteParams;
  const dest = registry.chainByBridgeChainId(signData.bridgeType, p.destChainId);
  if (!dest) {
    throw new RangeError(`kind ${signData.bridgeType} destChainId ${p.destChainId} is unknown`);
  }
  const decimalsOf = (chainId: number, address: string, field: string): number => {
    const token = registry.token(chainId, address);
    if (!token)
      throw new RangeError(`params.${field} ${address} is not a token of chain ${chainId}`);
    return token.decimals;
  };
  const sourceDecimals = decimalsOf(source.chainId, p.sourceToken, "sourceToken");
  const sourceBridgeDecimals = decimalsOf(source.chainId, p.sourceBridgeToken, "sourceBridgeToken");
  const destDecimals = decimalsOf(dest.chainId, p.destToken, "destToken");
  const destBridgeDecimals = decimalsOf(dest.chainId, p.destBridgeToken, "destBridgeToken");
  return {
    destChainId: BigInt(p.destChainId),
    sourceToken: p.sourceToken as Address,
    destToken: p.destToken as Address,
    amount: toBaseUnits(p.amount, sourceDecimals),
    fee: toBaseUnits(p.fee, sourceBridgeDecimals),
    to: p.to as Address,
    sourceSwap: p.sourceSwap,
    sourceSwapFee: toBaseUnits(p.sourceSwapFee, sourceDecimals),
    sourceBridgeToken: p.sourceBridgeToken as Address,
    sourceMinAmount: toBaseUnits(p.sourceMinAmount, sourceBridgeDecimals),
    destSwap: p.destSwap,
    destSwapFee: toBaseUnits(p.destSwapFee, destBridgeDecimals),
    destBridgeToken: p.destBridgeToken as Address,
    destMinAmount: toBaseUnits(p.destMinAmount, destDecimals),
  };
}
