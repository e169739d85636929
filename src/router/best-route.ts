/**
 * Best-route selection over every enumerated route. "No route", "amount out of range" and
 * "state unavailable" are results, not exceptions; the API maps them to 42201 / 42202 / 50301.
 */
import { formatAmount } from "../amount.js";
import type { RegistryToken } from "../domain/registry.js";
import {
  type PreparedRoute,
  type PrepareRouteResult,
  type PricedRoute,
  priceRoute,
} from "./price-route.js";
import { type AmountRange, routeAmountRange } from "./route-limits.js";

export type RouteFailure =
  | { ok: false; reason: "noRoute"; message: string }
  | {
      ok: false;
      reason: "amountOutOfRange";
      /** Smallest accepted amount over all routes, source token human units (canonical). */
      min: string;
      /** Largest accepted amount over all routes; absent when unbounded. */
      max?: string;
      minBaseUnits: bigint;
      maxBaseUnits?: bigint;
      message: string;
    }
  | { ok: false; reason: "stateUnavailable"; chainIds: number[]; message: string };

export type RouteResult = { ok: true; best: PricedRoute } | RouteFailure;

/** The token amount normalized to 36 decimals, so fees in different tokens compare. */
function normalizedFee(priced: PricedRoute): bigint {
  return priced.fee * 10n ** BigInt(36 - Math.min(36, priced.route.sourceBridgeToken.decimals));
}

/**
 * True when `a` beats `b`: higher destMaxAmount; tie -> lower fee (compared in human units, the
 * fee tokens may differ); tie -> lower bridgeType. Full ties keep the earlier route (registry
 * link order), so the choice is deterministic.
 */
export function isBetterRoute(a: PricedRoute, b: PricedRoute): boolean {
  if (a.destMaxAmount !== b.destMaxAmount) return a.destMaxAmount > b.destMaxAmount;
  const feeA = normalizedFee(a);
  const feeB = normalizedFee(b);
  if (feeA !== feeB) return feeA < feeB;
  return a.route.kind < b.route.kind;
}

/**
 * Prices `amount` (base units of `sourceToken`) on every route and returns the best, or why none
 * qualifies. `routes` are the prepared routes of one snapshot, in enumeration order.
 * Precedence of failures: a route that accepts some amount -> amountOutOfRange (the caller can
 * act on it); else a route whose state is missing -> stateUnavailable; else noRoute.
 * `rangeOf` computes a route's accepted inputs; a route's range depends on the snapshot only, so
 * the router passes a per-snapshot memo of routeAmountRange.
 */
export function findBestRoute(
  routes: readonly PrepareRouteResult[],
  sourceToken: RegistryToken,
  amount: bigint,
  slippageBps: bigint,
  rangeOf: (prepared: PreparedRoute) => AmountRange | undefined = (prepared) =>
    routeAmountRange(prepared, slippageBps),
): RouteResult {
  let best: PricedRoute | undefined;
  // Failure bookkeeping, only read when no route prices.
  const rejected: PreparedRoute[] = [];
  const unavailable: Extract<PrepareRouteResult, { ok: false }>[] = [];
  for (const entry of routes) {
    if (!entry.ok) {
      unavailable.push(entry);
      continue;
    }
    const result = priceRoute(entry.prepared, amount, slippageBps);
    if (result.ok) {
      if (best === undefined || isBetterRoute(result.priced, best)) best = result.priced;
    } else {
      rejected.push(entry.prepared);
    }
  }
  if (best) return { ok: true, best };

  if (rejected.length > 0) {
    let min: bigint | undefined;
    let max: bigint | undefined;
    let unbounded = false;
    const ranges: AmountRange[] = [];
    for (const prepared of rejected) {
      const range = rangeOf(prepared);
      if (!range) continue;
      ranges.push(range);
      if (min === undefined || range.min < min) min = range.min;
      if (range.max === undefined) unbounded = true;
      else if (max === undefined || range.max > max) max = range.max;
    }
    if (min !== undefined) {
      return outOfRange(sourceToken, amount, min, unbounded ? undefined : max, ranges);
    }
  }
  if (unavailable.length > 0) {
    const chainIds = [...new Set(unavailable.map((u) => u.chainId))].sort((a, b) => a - b);
    const what = unavailable.map((u) => `${u.missing} on chain ${u.chainId}`).join("; ");
    return {
      ok: false,
      reason: "stateUnavailable",
      chainIds,
      message: `chain state needed for the quote is unavailable: ${what}`,
    };
  }
  return {
    ok: false,
    reason: "noRoute",
    message:
      rejected.length === 0
        ? "no route connects these tokens"
        : "no route can carry any amount with the current limits and liquidity",
  };
}

function outOfRange(
  token: RegistryToken,
  amount: bigint,
  min: bigint,
  max: bigint | undefined,
  ranges: readonly AmountRange[],
): RouteFailure {
  const human = (value: bigint) => formatAmount(value, token.decimals);
  const span = (low: bigint, high: bigint | undefined) =>
    high === undefined
      ? `at least ${human(low)} ${token.symbol}`
      : `between ${human(low)} and ${human(high)} ${token.symbol}`;
  // Inside [min, max] yet rejected: the amount falls in a gap between routes' ranges.
  const inGap = amount >= min && (max === undefined || amount <= max);
  const accepted = inGap ? ranges.map((r) => span(r.min, r.max)).join(", or ") : span(min, max);
  return {
    ok: false,
    reason: "amountOutOfRange",
    min: human(min),
    minBaseUnits: min,
    ...(max === undefined ? {} : { max: human(max), maxBaseUnits: max }),
    message: `amount ${human(amount)} ${token.symbol} is outside the route's limits: amount must be ${accepted}`,
  };
}
