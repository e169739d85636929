/**
 * The quote memo (docs/router.md, "Quote memo"), a wrapper around a Router: per state snapshot
 * it remembers each successful quote by the request's six strings, so a request repeated while
 * the snapshot is unchanged (a wallet refreshing its quote screen) gets the same frozen answer,
 * and the HTTP route serialises it once. Same strings and same state give the same quote, so the
 * answer is exactly what pricing again would give; staleness is still checked every time.
 *
 * Across snapshots it keeps the latest success per key (bounded): a key seen before skips
 * validation (a pure function of the six strings and the registry), and when the new snapshot
 * gives the same answer (same route and figures, same state blocks, expiry and estimate), the
 * previous frozen `data` is answered again, so its serialised text is reused too.
 */

import { quoteDataInputsEqual, type RouteQuoteData } from "./quote-response.js";
import type { QuoteOptions, QuoteResult, QuoteSuccess, Router } from "./router.js";
import type { StateSnapshot } from "./state.js";

/** Successful quotes remembered per snapshot at most (a snapshot lives one block or so). */
export const QUOTES_MEMOIZED_PER_SNAPSHOT = 10_000;

export function withQuoteMemo(router: Router): Router {
  const memo = new WeakMap<StateSnapshot, Map<string, QuoteSuccess>>();
  const latest = new Map<string, QuoteSuccess>();

  function quote(body: unknown, snapshot: StateSnapshot, options: QuoteOptions = {}): QuoteResult {
    const key = memoKey(body);
    if (key === undefined) return router.quote(body, snapshot, options);
    let remembered = memo.get(snapshot);
    const hit = remembered?.get(key);
    if (hit !== undefined) return router.staleness(hit.request, snapshot, options) ?? hit;
    const previous = latest.get(key);
    const result =
      previous === undefined
        ? router.quote(body, snapshot, options)
        : router.quoteValidated(previous.request, snapshot, options);
    if (!result.ok) return result;
    const success: QuoteSuccess =
      previous !== undefined && sameAnswer(previous, result)
        ? { ...result, data: previous.data }
        : { ...result, data: freezeQuoteData(result.data) };
    Object.freeze(success);
    if (remembered === undefined) {
      remembered = new Map();
      memo.set(snapshot, remembered);
    }
    if (remembered.size < QUOTES_MEMOIZED_PER_SNAPSHOT) remembered.set(key, success);
    if (latest.size >= QUOTES_MEMOIZED_PER_SNAPSHOT) latest.clear();
    latest.set(key, success);
    return success;
  }

  return { ...router, quote };
}

/** Whether a new quote of the same request answers exactly what `previous` answered. */
function sameAnswer(previous: QuoteSuccess, next: QuoteSuccess): boolean {
  const a = previous.data;
  const b = next.data;
  return (
    quoteDataInputsEqual(previous.priced, next.priced) &&
    a.expiresAt === b.expiresAt &&
    sameStateBlocks(a.stateBlocks, b.stateBlocks) &&
    sameDuration(a, b)
  );
}

function sameStateBlocks(
  a: Readonly<Record<string, number>> | undefined,
  b: Readonly<Record<string, number>> | undefined,
): boolean {
  if (a === undefined || b === undefined) return a === b;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function sameDuration(a: RouteQuoteData, b: RouteQuoteData): boolean {
  const x = a.estimatedDuration;
  const y = b.estimatedDuration;
  if (x === undefined || x === null || y === undefined || y === null) return x === y;
  return x.p50Seconds === y.p50Seconds && x.p90Seconds === y.p90Seconds && x.samples === y.samples;
}

/** Freezes a quote's data and every object in it (it is shared between answers). */
function freezeQuoteData(data: RouteQuoteData): RouteQuoteData {
  Object.freeze(data.signData);
  if (data.transactionRequest !== undefined) Object.freeze(data.transactionRequest);
  if (data.approval) {
    Object.freeze(data.approval.transactionRequest);
    Object.freeze(data.approval);
  }
  if (data.stateBlocks !== undefined) Object.freeze(data.stateBlocks);
  if (data.estimatedDuration) Object.freeze(data.estimatedDuration);
  return Object.freeze(data);
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
