/**
 * One swap hop priced exactly as the SwapAdapter executes it (docs/protocol.md "DEX"): the best of
 * the couple's venues for this input, the V2 pair first and then the V3 pools by fee ascending,
 * a later venue winning only when it pays strictly more. A V2-only hop is plain HopReserves (the
 * formula of dex.ts); a hop with V3 pools simulates each pool (uniswap-v3/pool-swap.ts).
 */
import { getAmountOut, type HopReserves, swapFee } from "./dex.js";
import { simulateExactInput, type V3PoolState } from "./uniswap-v3/pool-swap.js";
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "./uniswap-v3/tick-math.js";

export interface V3Venue {
  pool: V3PoolState;
  /** The hop sells token0 of the pool. */
  zeroForOne: boolean;
}

/** A hop with V3 pools (fee ascending), and the V2 pair's reserves when the couple has one. */
export interface VenueHop {
  v2?: HopReserves;
  v3: readonly V3Venue[];
}

export type PricedHop = HopReserves | VenueHop;

export function isVenueHop(hop: PricedHop): hop is VenueHop {
  return "v3" in hop;
}

/** What one hop pays and the LP fee it charges (input token units). */
export interface HopOutcome {
  amountOut: bigint;
  fee: bigint;
  /** The venue taken: "v2", or the V3 pool's fee tier. */
  venue: "v2" | number;
}

/** The largest reserve a V2 pair accepts (uint112 balances); the adapter skips a pair beyond. */
export const MAX_V2_RESERVE = (1n << 112n) - 1n;

/**
 * The hop's outcome for `amountIn`, or undefined when a V3 pool's swap would leave its loaded
 * tick window: then the best venue is unknown, and the hop is not priced rather than guessed.
 * amountOut 0 means no venue pays (the adapter reverts).
 */
export function quoteHop(amountIn: bigint, hop: PricedHop): HopOutcome | undefined {
  if (!isVenueHop(hop)) {
    return {
      amountOut: getAmountOut(amountIn, hop.reserveIn, hop.reserveOut),
      fee: swapFee(amountIn, 1),
      venue: "v2",
    };
  }
  let best: HopOutcome = { amountOut: 0n, fee: 0n, venue: "v2" };
  if (hop.v2 !== undefined && hop.v2.reserveIn + amountIn <= MAX_V2_RESERVE) {
    best.amountOut = getAmountOut(amountIn, hop.v2.reserveIn, hop.v2.reserveOut);
    best.fee = swapFee(amountIn, 1);
  }
  for (const venue of hop.v3) {
    const result = simulateExactInput(venue.pool, venue.zeroForOne, amountIn);
    if (!result.ok) {
      if (result.reason === "outsideWindow") return undefined;
      continue; // cannot take the whole input, or reverts: the adapter skips it
    }
    const atLimit =
      result.sqrtPriceX96After === MIN_SQRT_RATIO + 1n ||
      result.sqrtPriceX96After === MAX_SQRT_RATIO - 1n;
    if (!atLimit && result.amountOut > best.amountOut) {
      best = { amountOut: result.amountOut, fee: result.feeAmount, venue: Number(venue.pool.fee) };
    }
  }
  return best;
}

/** Final output along `hops`; undefined when some hop cannot be priced (quoteHop). */
export function quoteHops(amountIn: bigint, hops: readonly PricedHop[]): bigint | undefined {
  let amount = amountIn;
  for (const hop of hops) {
    if (!isVenueHop(hop)) {
      amount = getAmountOut(amount, hop.reserveIn, hop.reserveOut);
      continue;
    }
    const outcome = quoteHop(amount, hop);
    if (outcome === undefined) return undefined;
    amount = outcome.amountOut;
  }
  return amount;
}

/**
 * The LP fees of the swap in units of its INPUT token: each hop's fee as its venue charges it
 * (V2: floor(input * 3 / 1000); V3: the pool's fee amount), a later hop's fee valued at the rate
 * its input was bought at (the previous hop's input net of fee per unit of its output). Over V2
 * pairs only this is dex.ts swapFee. Undefined when some hop cannot be priced.
 */
export function hopsSwapFee(amountIn: bigint, hops: readonly PricedHop[]): bigint | undefined {
  if (hops.every((hop) => !isVenueHop(hop))) return swapFee(amountIn, hops.length);
  let total = 0n;
  // Value of one unit of the current hop's input, in the swap's input token: num / den.
  let num = 1n;
  let den = 1n;
  let amount = amountIn;
  for (const hop of hops) {
    const outcome = quoteHop(amount, hop);
    if (outcome === undefined) return undefined;
    total += (outcome.fee * num) / den;
    if (outcome.amountOut === 0n) break;
    num *= amount - outcome.fee;
    den *= outcome.amountOut;
    amount = outcome.amountOut;
  }
  return total;
}
