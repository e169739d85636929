/**
 * The router's pure entry point: request body + state snapshot -> quote data or a typed failure.
 * The HTTP route owns transport and auth, the state providers own the snapshot; this owns the
 * decision. Per snapshot it resolves each route's state once (WeakMap, dropped with the
 * snapshot), so a request does route lookup + arithmetic only. The quote memo is a wrapper
 * around this (quote-memo.ts); createRouter puts it on unless told not to.
 */
import type { Registry } from "../domain/registry.js";
import { ApiError, type ErrorKind } from "../errors.js";
import { findBestRoute, type RouteFailure, type RouteResult } from "./best-route.js";
import { type PreparedRoute, type PrepareRouteResult, prepareRoute } from "./price-route.js";
import {
  createQuoteExtensionBuilder,
  DEFAULT_QUOTE_TTL_SECONDS,
  type QuoteExtensionOptions,
} from "./quote-extensions.js";
import { withQuoteMemo } from "./quote-memo.js";
import { buildQuoteData, type RouteQuoteData } from "./quote-response.js";
import { type AmountRange, routeAmountRange } from "./route-limits.js";
import type { QuoteFailure, QuoteOptions, QuoteResult, Router } from "./router.js";
import { type CandidateRoute, createRouteIndex } from "./routes.js";
import type { StateSnapshot } from "./state.js";
import { type ValidatedRouterRequest, validateRouterRequest } from "./validate-request.js";

export const DEFAULT_SLIPPAGE_BPS = 50;

export interface RouterDeps {
  registry: Registry;
  /** Slippage tolerance for destMinAmount / sourceMinAmount, basis points 0..10000. */
  slippageBps?: number;
  /**
   * Wrap the router in the quote memo (quote-memo.ts; default true): a request repeated within
   * one snapshot (a wallet refreshing its quote screen) is answered without validating and
   * pricing again, with the answer a fresh computation would give.
   */
  memoizeQuotes?: boolean;
  /**
   * The fields a quote carries beside the spec's (quote-extensions.ts): expiry rule and duration
   * lookup. Default `{ ttlSeconds: DEFAULT_QUOTE_TTL_SECONDS }` (no duration estimates). `false`
   * answers the spec's four fields only (the benchmark's comparison).
   */
  extensions?: QuoteExtensionOptions | false;
}

export type { QuoteFailure, QuoteOptions, QuoteResult, QuoteSuccess, Router } from "./router.js";

const FAILURE_KIND: Record<RouteFailure["reason"], ErrorKind> = {
  noRoute: "noRoute",
  amountOutOfRange: "amountOutOfRange",
  stateUnavailable: "serviceUnavailable",
};

export function routeFailureKind(failure: RouteFailure): ErrorKind {
  return FAILURE_KIND[failure.reason];
}

/** The ApiError the HTTP layer throws for a failed quote. */
export function quoteFailureToApiError(failure: QuoteFailure): ApiError {
  return new ApiError(failure.kind, failure.message);
}

/** The router, wrapped in the quote memo unless `memoizeQuotes` is false. */
export function createRouter(deps: RouterDeps): Router {
  const router = createPricingRouter(deps);
  return (deps.memoizeQuotes ?? true) ? withQuoteMemo(router) : router;
}

/** The router without the memo: every quote validated and priced. */
export function createPricingRouter(deps: RouterDeps): Router {
  const { registry } = deps;
  const slippageBps = deps.slippageBps ?? DEFAULT_SLIPPAGE_BPS;
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > 10000) {
    throw new RangeError(`slippageBps must be an integer from 0 to 10000, got ${slippageBps}`);
  }
  const extensions =
    deps.extensions === false
      ? undefined
      : createQuoteExtensionBuilder(deps.extensions ?? { ttlSeconds: DEFAULT_QUOTE_TTL_SECONDS });
  const slippage = BigInt(slippageBps);
  const index = createRouteIndex(registry);
  const prepared = new WeakMap<
    StateSnapshot,
    Map<readonly CandidateRoute[], readonly PrepareRouteResult[]>
  >();
  // A prepared route belongs to one snapshot, so its accepted range is computed once (the
  // out-of-range path searches the pricing function, ~100x the cost of one quote).
  const ranges = new WeakMap<PreparedRoute, AmountRange | null>();
  const rangeOf = (route: PreparedRoute): AmountRange | undefined => {
    let range = ranges.get(route);
    if (range === undefined) {
      range = routeAmountRange(route, slippage) ?? null;
      ranges.set(route, range);
    }
    return range ?? undefined;
  };

  function preparedRoutes(
    routes: readonly CandidateRoute[],
    snapshot: StateSnapshot,
  ): readonly PrepareRouteResult[] {
    let bySnapshot = prepared.get(snapshot);
    if (!bySnapshot) {
      bySnapshot = new Map();
      prepared.set(snapshot, bySnapshot);
    }
    let list = bySnapshot.get(routes);
    if (!list) {
      list = routes.map((route) => prepareRoute(route, snapshot));
      bySnapshot.set(routes, list);
    }
    return list;
  }

  function bestRoute(request: ValidatedRouterRequest, snapshot: StateSnapshot): RouteResult {
    const routes = index.routes(request.sourceToken, request.destToken);
    if (routes.length === 0) {
      const s = request.sourceToken;
      const d = request.destToken;
      return {
        ok: false,
        reason: "noRoute",
        message: `no route from ${s.symbol} on ${request.sourceChain.name} to ${d.symbol} on ${request.destChain.name}`,
      };
    }
    return findBestRoute(
      preparedRoutes(routes, snapshot),
      request.sourceToken,
      request.amount,
      slippage,
      rangeOf,
    );
  }

  function staleness(
    request: ValidatedRouterRequest,
    snapshot: StateSnapshot,
    options: QuoteOptions,
  ): QuoteFailure | undefined {
    if (options.maxStateAgeMs === undefined) return undefined;
    const now = options.nowMs ?? Date.now();
    for (const chain of [request.sourceChain, request.destChain]) {
      const state = snapshot.chains.get(chain.chainId);
      const age = state === undefined ? undefined : now - state.readAtMs;
      if (age === undefined || age > options.maxStateAgeMs) {
        const detail =
          age === undefined ? "has not been read yet" : `was read ${Math.round(age / 1000)} s ago`;
        return {
          ok: false,
          kind: "serviceUnavailable",
          message: `state of chain ${chain.name} (${chain.chainId}) ${detail}; retry shortly`,
        };
      }
    }
    return undefined;
  }

  function quoteValidated(
    request: ValidatedRouterRequest,
    snapshot: StateSnapshot,
    options: QuoteOptions = {},
  ): QuoteResult {
    const stale = staleness(request, snapshot, options);
    if (stale) return stale;
    const result = bestRoute(request, snapshot);
    if (!result.ok) {
      return { ok: false, kind: routeFailureKind(result), message: result.message, route: result };
    }
    const spec = buildQuoteData(request, result.best);
    if (extensions === undefined) return { ok: true, data: spec, request, priced: result.best };
    const added = extensions(request, result.best, spec.signData.amount, snapshot);
    // One object literal (one shape for every quote of a kind), the spec's fields first; the
    // messaging fee beside `fee` only where `fee` leaves it out (an OFT's native fee), so the
    // reference bridges' quotes keep the spec's shape exactly.
    const data: RouteQuoteData =
      spec.messagingFee === undefined
        ? {
            destMaxAmount: spec.destMaxAmount,
            destMinAmount: spec.destMinAmount,
            fee: spec.fee,
            signData: spec.signData,
            transactionRequest: added.transactionRequest,
            approval: added.approval,
            stateBlocks: added.stateBlocks,
            expiresAt: added.expiresAt,
            estimatedDuration: added.estimatedDuration,
          }
        : {
            destMaxAmount: spec.destMaxAmount,
            destMinAmount: spec.destMinAmount,
            fee: spec.fee,
            messagingFee: spec.messagingFee,
            signData: spec.signData,
            transactionRequest: added.transactionRequest,
            approval: added.approval,
            stateBlocks: added.stateBlocks,
            expiresAt: added.expiresAt,
            estimatedDuration: added.estimatedDuration,
          };
    return { ok: true, data, request, priced: result.best };
  }

  return {
    registry,
    slippageBps,
    extensions: extensions !== undefined,
    validate: (body) => validateRouterRequest(body, registry),
    bestRoute,
    staleness,
    quoteValidated,
    quote(body, snapshot, options = {}) {
      const validation = validateRouterRequest(body, registry);
      if (!validation.ok) return validation;
      return quoteValidated(validation.value, snapshot, options);
    },
  };
}
