/**
 * The input amounts a route accepts, in base units of the request's SOURCE token: what the API
 * reports when an amount is out of range ("amount must be between X and Y USDC").
 *
 * The limits live on the bridge amount (minAmount / maxAmount) and on the destination (kind 1
 * liquidity, something must arrive), i.e. behind the source swap and the fees. Instead of
 * inverting each step (getAmountIn, fee inversion, decimal conversion) with their rounding, it
 * searches the exact pricing function: every step is non-decreasing in the input, so the valid
 * inputs form one interval and a doubling-then-bisecting search finds its exact ends. Only the
 * error path pays for it (a few hundred evaluations at most).
 */
import { ABOVE_MAX, amountLimitFlags, BELOW_MIN, type PreparedRoute } from "./price-route.js";

/** Largest amount a contract call can carry. */
export const MAX_UINT256 = (1n << 256n) - 1n;

export interface AmountRange {
  /** Smallest accepted input. */
  min: bigint;
  /** Largest accepted input; undefined when only uint256 bounds it. */
  max: bigint | undefined;
}

/** The interval of accepted inputs, or undefined when the route accepts none. */
export function routeAmountRange(
  prepared: PreparedRoute,
  slippageBps: bigint,
): AmountRange | undefined {
  const flags = (amount: bigint) => amountLimitFlags(prepared, amount, slippageBps);
  const below = (amount: bigint) => (flags(amount) & BELOW_MIN) !== 0;
  const above = (amount: bigint) => (flags(amount) & ABOVE_MAX) !== 0;

  // Smallest amount not below the minimum: lo is below, hi is not.
  let lo = 0n;
  let hi = 1n;
  while (below(hi)) {
    if (hi === MAX_UINT256) return undefined;
    lo = hi;
    hi = hi * 2n > MAX_UINT256 ? MAX_UINT256 : hi * 2n;
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (below(mid)) lo = mid;
    else hi = mid;
  }
  const min = hi;
  if (above(min)) return undefined;

  // Largest amount not above the maximum: lo is not above, hi is.
  lo = min;
  hi = min * 2n;
  while (true) {
    if (hi >= MAX_UINT256) {
      if (!above(MAX_UINT256)) return { min, max: undefined };
      hi = MAX_UINT256;
      break;
    }
    if (above(hi)) break;
    lo = hi;
    hi *= 2n;
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (above(mid)) hi = mid;
    else lo = mid;
  }
  return { min, max: lo };
}
