/**
 * What a quote's `data` carries beside the spec's fields (docs/http-api.md, API rule 8; docs/router.md,
 * "Executing a quote"): the ready transaction (the route's protocol builds it: the reference
 * bridges' `bridge(params)`, an OFT's `send`) and the approval it needs, the
 * blocks whose state priced it, until when the service stands by it, and how long such a
 * transfer took lately. The snapshot, the priced route and a duration lookup come in; what
 * depends on the route and the snapshot alone is worked out once per prepared route, so the
 * fields cost a memo-off quote little (bench/RESULTS.md, router).
 */
import type { Address } from "viem";
import type { RoutedTransactionRequest } from "../protocols/routing.js";
import type { PreparedRoute, PricedRoute } from "./price-route.js";
import type { CandidateRoute } from "./routes.js";
import type { StateSnapshot } from "./state.js";
import type { ValidatedRouterRequest } from "./validate-request.js";

/** A transaction in the form eth_sendTransaction takes (protocols/routing.ts). */
export type TransactionRequest = RoutedTransactionRequest;

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
  stateBlocks: Readonly<Record<string, number>>;
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

/** `YYYY-MM-DD HH:MM:SS` (UTC) of a Unix time in seconds. */
export function formatUtcSeconds(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace("T", " ");
}

/**
 * What the added fields take from a route and its snapshot alone, the same for every quote of
 * the route priced from that snapshot: computed on the route's first quote, so a quote itself
 * encodes only its amounts and recipient.
 */
interface RouteParts {
  /** Frozen: shared by the route's quotes of this snapshot. */
  stateBlocks: Readonly<Record<string, number>>;
  expiresAt: string;
  /** The protocol's per-route part of its transactions (ProtocolRouting.transactionTemplate). */
  template: unknown;
}

function routeParts(
  prepared: PreparedRoute,
  snapshot: StateSnapshot,
  ttlSeconds: number,
): RouteParts {
  const { route } = prepared;
  const sourceChainId = route.sourceChain.chainId;
  const destChainId = route.destChain.chainId;
  // prepareRoute read the route from both chains' states, so both are in the snapshot.
  const source = snapshot.chains.get(sourceChainId);
  const dest = snapshot.chains.get(destChainId);
  if (source === undefined || dest === undefined) {
    throw new Error(`quote priced without the state of chain ${sourceChainId} or ${destChainId}`);
  }
  const readAtMs = Math.min(source.readAtMs, dest.readAtMs);
  return {
    stateBlocks: Object.freeze({
      [sourceChainId]: Number(source.blockNumber),
      [destChainId]: Number(dest.blockNumber),
    }),
    expiresAt: formatUtcSeconds(Math.floor(readAtMs / 1000) + ttlSeconds),
    template: route.routing.transactionTemplate(route, prepared.terms),
  };
}

/** Builds a quote's added fields with the router's settings (createQuoteExtensionBuilder). */
export type QuoteExtensionBuilder = (
  request: ValidatedRouterRequest,
  priced: PricedRoute,
  amount: string,
  snapshot: StateSnapshot,
) => QuoteExtensions;

/**
 * The added fields of a quote. `amount` is signData.amount (the canonical request amount), so
 * the approval's amount is exactly what the call moves. The route's own parts are kept per
 * prepared route (a WeakMap, dropped with the snapshot), like the router's other per-snapshot
 * work.
 */
export function createQuoteExtensionBuilder(options: QuoteExtensionOptions): QuoteExtensionBuilder {
  const parts = new WeakMap<PreparedRoute, RouteParts>();
  return (request, priced, amount, snapshot) => {
    const { route } = priced;
    let fixed = parts.get(priced.prepared);
    if (fixed === undefined) {
      fixed = routeParts(priced.prepared, snapshot, options.ttlSeconds);
      parts.set(priced.prepared, fixed);
    }
    const leg = route.routing.transaction(route, priced.prepared.terms, fixed.template, {
      amount: priced.amount,
      fee: priced.fee,
      messagingFee: priced.xprotoFee,
      to: request.request.to as Address,
      sourceSwap: priced.sourceSwap,
      sourceSwapFee: priced.sourceSwapFee,
      sourceMinAmount: priced.sourceMinAmount,
      destSwap: priced.destSwap,
      destSwapFee: priced.destSwapFee,
      destMinAmount: priced.destMinAmount,
    });
    const transactionRequest = leg.transactionRequest;
    const approval: Approval | null =
      leg.approval === null
        ? null
        : {
            token: leg.approval.token,
            spender: leg.approval.spender,
            amount,
            transactionRequest: leg.approval.transactionRequest,
          };
    return {
      transactionRequest,
      approval,
      stateBlocks: fixed.stateBlocks,
      expiresAt: fixed.expiresAt,
      estimatedDuration: options.estimatedDuration?.(route) ?? null,
    };
  };
}
