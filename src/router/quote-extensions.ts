/**
 * What a quote's `data` carries beside the spec's fields (docs/http-api.md, API rule 8; docs/router.md,
 * "Executing a quote"): the ready `bridge(params)` transaction and the approval it needs, the
 * blocks whose state priced it, until when the service stands by it, and how long such a
 * transfer took lately. Pure: the snapshot, the priced route and a duration lookup come in.
 */
import type { BridgeParams } from "../chain/bridge-params.js";
import type { PricedRoute } from "./price-route.js";
import type { CandidateRoute } from "./routes.js";
import type { StateSnapshot } from "./state.js";
import {
  encodeApproveCall,
  encodeBridgeCall,
  hexQuantity,
  type TransactionRequest,
} from "./transaction-request.js";
import type { ValidatedRouterRequest } from "./validate-request.js";

/** Percentiles of recent settlement times of one route's bridge and chains (seconds). */
export interface EstimatedDuration {
  p50Seconds: number;
  p90Seconds: number;
  samples: number;
}

/** The estimate for a route's bridge contract and chains; null when there is too little data. */
export type DurationLookup = (route: CandidateRoute) => EstimatedDuration | null;

export interface Approval {
  token: string;
  spender: string;
  /** = signData.amount (human units of the source token). */
  amount: string;
  transactionRequest: TransactionRequest;
}

export interface QuoteExtensions {
  transactionRequest: TransactionRequest;
  approval: Approval | null;
  /** EVM chain id (decimal string) -> block number of the state that priced the quote. */
  stateBlocks: Record<string, number>;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  expiresAt: string;
  estimatedDuration: EstimatedDuration | null;
}

export interface QuoteExtensionOptions {
  /** expiresAt = read time of the older of the two chain states + this, rounded down. */
  ttlSeconds: number;
  /** Default: no estimate (null). */
  estimatedDuration?: DurationLookup;
}

/** Default QUOTE_TTL_SECONDS. */
export const DEFAULT_QUOTE_TTL_SECONDS = 30;

/** The contract call's BridgeParams straight from the priced route (same values as `params`). */
export function bridgeParamsOf(request: ValidatedRouterRequest, priced: PricedRoute): BridgeParams {
  const { route } = priced;
  return {
    destChainId: BigInt(route.destBridgeChainId),
    sourceToken: request.request.sourceToken as BridgeParams["sourceToken"],
    destToken: request.request.destToken as BridgeParams["destToken"],
    amount: priced.amount,
    fee: priced.fee,
    to: request.request.to as BridgeParams["to"],
    sourceSwap: priced.sourceSwap,
    sourceSwapFee: priced.sourceSwapFee,
    sourceBridgeToken: route.sourceBridgeToken.address,
    sourceMinAmount: priced.sourceMinAmount,
    destSwap: priced.destSwap,
    destSwapFee: priced.destSwapFee,
    destBridgeToken: route.destBridgeToken.address,
    destMinAmount: priced.destMinAmount,
  };
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) of a Unix time in seconds. */
export function formatUtcSeconds(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace("T", " ");
}

/**
 * formatUtcSeconds remembering its last answer: the quotes of one snapshot all expire in the
 * same second, and formatting a Date costs more than the rest of the added fields together.
 */
function createExpiryFormatter(): (unixSeconds: number) => string {
  let last = Number.NaN;
  let text = "";
  return (unixSeconds) => {
    if (unixSeconds !== last) {
      text = formatUtcSeconds(unixSeconds);
      last = unixSeconds;
    }
    return text;
  };
}

const formatExpiry = createExpiryFormatter();

/**
 * The added fields of a quote. `amount` is signData.amount (the canonical request amount), so
 * the approval's amount is exactly what the call moves.
 */
export function buildQuoteExtensions(
  request: ValidatedRouterRequest,
  priced: PricedRoute,
  amount: string,
  snapshot: StateSnapshot,
  options: QuoteExtensionOptions,
): QuoteExtensions {
  const { route } = priced;
  const sourceChainId = route.sourceChain.chainId;
  const destChainId = route.destChain.chainId;
  const native = route.sourceToken.native;
  const transactionRequest: TransactionRequest = {
    chainId: sourceChainId,
    to: route.bridge,
    data: encodeBridgeCall(bridgeParamsOf(request, priced)),
    value: native ? hexQuantity(priced.amount) : "0x0",
  };
  const approval: Approval | null = native
    ? null
    : {
        token: route.sourceToken.address,
        spender: route.bridge,
        amount,
        transactionRequest: {
          chainId: sourceChainId,
          to: route.sourceToken.address,
          data: encodeApproveCall(route.bridge, priced.amount),
          value: "0x0",
        },
      };
  // prepareRoute priced the route from both chains' states, so both are in the snapshot.
  const source = snapshot.chains.get(sourceChainId);
  const dest = snapshot.chains.get(destChainId);
  if (source === undefined || dest === undefined) {
    throw new Error(`quote priced without the state of chain ${sourceChainId} or ${destChainId}`);
  }
  const stateBlocks: Record<string, number> = {
    [sourceChainId]: Number(source.blockNumber),
    [destChainId]: Number(dest.blockNumber),
  };
  const readAtMs = Math.min(source.readAtMs, dest.readAtMs);
  return {
    transactionRequest,
    approval,
    stateBlocks,
    expiresAt: formatExpiry(Math.floor(readAtMs / 1000) + options.ttlSeconds),
    estimatedDuration: options.estimatedDuration?.(route) ?? null,
  };
}
