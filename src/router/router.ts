/**
 * What a router is and answers (create-router.ts builds one, quote-memo.ts wraps one): apart from
 * both, so the wrapper and the builder do not import each other.
 */
import type { Registry } from "../domain/registry.js";
import type { ErrorKind } from "../errors.js";
import type { RouteFailure, RouteResult } from "./best-route.js";
import type { PricedRoute } from "./price-route.js";
import type { RouteQuoteData } from "./quote-response.js";
import type { StateSnapshot } from "./state.js";
import type { RequestValidation, ValidatedRouterRequest } from "./validate-request.js";

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
  /** Whether quotes carry the fields beside the spec's (RouterDeps.extensions). */
  readonly extensions: boolean;
  validate(body: unknown): RequestValidation;
  /** Best route of a validated request against a snapshot. */
  bestRoute(request: ValidatedRouterRequest, snapshot: StateSnapshot): RouteResult;
  /** The 50301 failure when a chain of the request has no state or too old a state. */
  staleness(
    request: ValidatedRouterRequest,
    snapshot: StateSnapshot,
    options: QuoteOptions,
  ): QuoteFailure | undefined;
  /** staleness + bestRoute + the response, for a validated request. */
  quoteValidated(
    request: ValidatedRouterRequest,
    snapshot: StateSnapshot,
    options?: QuoteOptions,
  ): QuoteResult;
  /** validate + quoteValidated. */
  quote(body: unknown, snapshot: StateSnapshot, options?: QuoteOptions): QuoteResult;
}
