/**
 * The router's pure entry point: request body + state snapshot -> quote data or a typed failure.
 * The HTTP route owns transport and auth, the state providers own the snapshot; this owns the
 * decision. Per snapshot it resolves each route's state once (WeakMap, dropped with the
 * snapshot), so a request does route lookup + arithmetic only.
 */
import type { Registry } from "../domain/registry.js";
import { ApiError, type ErrorKind } from "../errors.js";
import { findBestRoute, type RouteFailure, type RouteResult } from "./best-route.js";
import {
  type PreparedRoute,
  type PrepareRouteResult,
  type PricedRoute,
  prepareRoute,
} from "./price-route.js";
import { buildQuoteData, quoteDataInputsEqual, type RouteQuoteData } from "./quote-response.js";
import { type AmountRange, routeAmountRange } from "./route-limits.js";
import { type CandidateRoute, createRouteIndex } from "./routes.js";
import type { StateSnapshot } from "./state.js";
import {
  type RequestValidation,
  type ValidatedRouterRequest,
  validateRouterRequest,
} from "./validate-request.js";

export const DEFAULT_SLIPPAGE_BPS = 50;

export interface RouterDeps {
  registry: Registry;
  /** Slippage tolerance for destMinAmount / sourceMinAmount, basis points 0..10000. */
  slippageBps?: number;
  /**
   * Remember each snapshot's successful quotes by their six request strings (default true), so
   * a request repeated within one snapshot (a wallet refreshing its quote screen) is answered
   * without validating and pricing again. The answer is the one a fresh computation would give:
   * same strings, same snapshot, same result; staleness is still checked on every request. In a
   * later snapshot the request is priced again but not re-validated, and its answer reuses the
   * earlier response object when the figures came out the same.
   */
  memoizeQuotes?: boolean;
}

/** Successful quotes remembered per snapshot at most (a snapshot lives one block or so). */
export const QUOTES_MEMOIZED_PER_SNAPSHOT = 10_000;

export interface QuoteOptions {
  /** With maxStateAgeMs: chain state read longer ago than that is stale (50301). */
  nowMs?: number;
  maxStateAgeMs?: number;
}

export type QuoteFailure = {
  ok: false;
  kind: ErrorKind;
  message: string;
  /** Present when route search (not validation) failed. */
  route?: RouteFailure;
};

/**
 * A successful quote. When memoized, the same object answers repeated requests: it and its `data`
 * (the response) are frozen then, and `data` may also answer the same request in later snapshots
 * that price it the same; `request` and `priced` are shared router state, read only.
 */
export interface QuoteSuccess {
  ok: true;
  data: RouteQuoteData;
  request: ValidatedRouterRequest;
  priced: PricedRoute;
}

export type QuoteResult = QuoteSuccess | QuoteFailure;

export interface Router {
  readonly registry: Registry;
  readonly slippageBps: number;
  validate(body: unknown): RequestValidation;
  /** Best route of a validated request against a snapshot. */
  bestRoute(request: ValidatedRouterRequest, snapshot: StateSnapshot): RouteResult;
  /** validate + staleness + bestRoute + buildQuoteData. */
  quote(body: unknown, snapshot: StateSnapshot, options?: QuoteOptions): QuoteResult;
}

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

export function createRouter(deps: RouterDeps): Router {
  const { registry } = deps;
  const slippageBps = deps.slippageBps ?? DEFAULT_SLIPPAGE_BPS;
  if (!Number.isInteger(slippageBps) || slippageBps < 0 || slippageBps > 10000) {
    throw new RangeError(`slippageBps must be an integer from 0 to 10000, got ${slippageBps}`);
  }
  const slippage = BigInt(slippageBps);
  const index = createRouteIndex(registry);
  const memoize = deps.memoizeQuotes ?? true;
  const memo = new WeakMap<StateSnapshot, Map<string, QuoteSuccess>>();
  // The latest success per memo key, across snapshots (bounded, emptied when full). A key seen
  // before skips validation (a pure function of the six strings and the registry), and when a
  // new snapshot prices its route to the same figures, the previous answer's frozen `data` is
  // answered again, so the HTTP layer's serialised text of it is reused too. Staleness and
  // pricing still run against every snapshot.
  const latest = new Map<string, QuoteSuccess>();
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

  return {
    registry,
    slippageBps,
    validate: (body) => validateRouterRequest(body, registry),
    bestRoute,
    quote(body, snapshot, options = {}) {
      const key = memoize ? memoKey(body) : undefined;
      let remembered: Map<string, QuoteSuccess> | undefined;
      let previous: QuoteSuccess | undefined;
      if (key !== undefined) {
        remembered = memo.get(snapshot);
        const hit = remembered?.get(key);
        if (hit !== undefined) return staleness(hit.request, snapshot, options) ?? hit;
        previous = latest.get(key);
      }
      let request: ValidatedRouterRequest;
      if (previous !== undefined) request = previous.request;
      else {
        const validation = validateRouterRequest(body, registry);
        if (!validation.ok) return validation;
        request = validation.value;
      }
      const stale = staleness(request, snapshot, options);
      if (stale) return stale;
      const result = bestRoute(request, snapshot);
      if (!result.ok) {
        return {
          ok: false,
          kind: routeFailureKind(result),
          message: result.message,
          route: result,
        };
      }
      const data =
        previous !== undefined && quoteDataInputsEqual(previous.priced, result.best)
          ? previous.data
          : buildQuoteData(request, result.best);
      const success: QuoteSuccess = { ok: true, data, request, priced: result.best };
      if (key !== undefined) {
        Object.freeze(data.signData);
        Object.freeze(data);
        Object.freeze(success);
        if (remembered === undefined) {
          remembered = new Map();
          memo.set(snapshot, remembered);
        }
        if (remembered.size < QUOTES_MEMOIZED_PER_SNAPSHOT) remembered.set(key, success);
        if (latest.size >= QUOTES_MEMOIZED_PER_SNAPSHOT) latest.clear();
        latest.set(key, success);
      }
      return success;
    },
  };
}

/**
 * The memo key of a request body: its six fields joined by NUL, or undefined unless all six are
 * strings. Only successful (hence valid) requests are remembered, and a valid field contains no
 * NUL, so a remembered key has exactly five separators: a body whose fields carry NULs of their
 * own can never match one, and always goes through validation.
 */
function memoKey(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const b = body as Record<string, unknown>;
  const { sourceChain, sourceToken, destChain, destToken, amount, to } = b;
  if (
    typeof sourceChain !== "string" ||
    typeof sourceToken !== "string" ||
    typeof destChain !== "string" ||
    typeof destToken !== "string" ||
    typeof amount !== "string" ||
    typeof to !== "string"
  ) {
    return undefined;
  }
  return `${sourceChain}\0${sourceToken}\0${destChain}\0${destToken}\0${amount}\0${to}`;
}
