/**
 * An exact-input swap through one Uniswap V3 pool, simulated from a snapshot the way
 * UniswapV3Pool.swap runs it: step by step to the next initialized tick within one bitmap word
 * (or that word's edge), crossing ticks with their liquidityNet. The word-by-word stepping is
 * kept on purpose: every step rounds, so stepping differently would differ in the last wei.
 *
 * The snapshot holds the initialized ticks of a window of bitmap words only. A swap that needs a
 * word outside it is not simulated ("outsideWindow"): the ticks there are unknown, and guessing
 * them could promise what the pool will not pay.
 */
import { V3MathError } from "./full-math.js";
import { addDelta, computeSwapStep } from "./swap-math.js";
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from "./tick-math.js";

/** An initialized tick and its liquidityNet (int128). */
export interface V3Tick {
  tick: number;
  liquidityNet: bigint;
}

/** One pool's state at one block. */
export interface V3PoolState {
  /** Lowercase token addresses, token0 < token1. */
  token0: string;
  token1: string;
  /** Fee in hundredths of a basis point (500 = 0.05 %). */
  fee: bigint;
  tickSpacing: number;
  sqrtPriceX96: bigint;
  tick: number;
  liquidity: bigint;
  /** Every initialized tick in the loaded words, ascending. */
  ticks: readonly V3Tick[];
  /** The loaded bitmap words (word = floor(tick / tickSpacing) >> 8), inclusive. */
  minWord: number;
  maxWord: number;
}

export type V3SwapResult =
  | {
      ok: true;
      amountOut: bigint;
      /** The LP fee the pool takes, in the input token (the sum of its steps' fees). */
      feeAmount: bigint;
      sqrtPriceX96After: bigint;
      tickAfter: number;
      /** Initialized ticks crossed. */
      ticksCrossed: number;
    }
  /** The swap would need ticks outside the loaded words. */
  | { ok: false; reason: "outsideWindow" }
  /** The price limit was reached before the whole input was used (the pool ran dry). */
  | { ok: false; reason: "partialFill" }
  /** The pool would revert (no price yet, a math overflow). */
  | { ok: false; reason: "reverts" };

/** The word of a compressed tick (TickBitmap.position: int16(tick >> 8)). */
function wordOf(compressed: number): number {
  return compressed >> 8;
}

/** Index of the first tick in `ticks` with tick >= t (binary search). */
function lowerBound(ticks: readonly V3Tick[], t: number): number {
  let lo = 0;
  let hi = ticks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ticks[mid]!.tick < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * TickBitmap.nextInitializedTickWithinOneWord over the snapshot's ticks; undefined when the word
 * it looks in was not loaded.
 */
export function nextInitializedTickWithinOneWord(
  pool: V3PoolState,
  tick: number,
  lte: boolean,
): { next: number; initialized: boolean; index: number } | undefined {
  const spacing = pool.tickSpacing;
  const compressed = Math.floor(tick / spacing);
  const start = lte ? compressed : compressed + 1;
  const word = wordOf(start);
  if (word < pool.minWord || word > pool.maxWord) return undefined;
  const wordStart = word * 256;
  if (lte) {
    // The greatest initialized tick at or below `start` within the word, else the word's start.
    const i = lowerBound(pool.ticks, start * spacing + 1) - 1;
    const found = pool.ticks[i];
    if (found !== undefined && found.tick >= wordStart * spacing) {
      return { next: found.tick, initialized: true, index: i };
    }
    return { next: wordStart * spacing, initialized: false, index: -1 };
  }
  // The least initialized tick at or above `start` within the word, else the word's end.
  const i = lowerBound(pool.ticks, start * spacing);
  const found = pool.ticks[i];
  if (found !== undefined && found.tick <= (wordStart + 255) * spacing) {
    return { next: found.tick, initialized: true, index: i };
  }
  return { next: (wordStart + 255) * spacing, initialized: false, index: -1 };
}

/**
 * Exact input `amountIn` of token0 (zeroForOne) or token1 with no price limit other than the
 * pool's own (MIN_SQRT_RATIO + 1 / MAX_SQRT_RATIO - 1, as QuoterV2 and SwapRouter use for 0).
 */
export function simulateExactInput(
  pool: V3PoolState,
  zeroForOne: boolean,
  amountIn: bigint,
): V3SwapResult {
  if (amountIn <= 0n || pool.sqrtPriceX96 === 0n) return { ok: false, reason: "reverts" };
  const limit = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
  if (zeroForOne ? limit >= pool.sqrtPriceX96 : limit <= pool.sqrtPriceX96) {
    return { ok: false, reason: "reverts" }; // 'SPL'
  }
  try {
    let remaining = amountIn;
    let amountOut = 0n;
    let feeAmount = 0n;
    let sqrtPrice = pool.sqrtPriceX96;
    let tick = pool.tick;
    let liquidity = pool.liquidity;
    let ticksCrossed = 0;
    while (remaining !== 0n && sqrtPrice !== limit) {
      const start = sqrtPrice;
      const found = nextInitializedTickWithinOneWord(pool, tick, zeroForOne);
      if (found === undefined) return { ok: false, reason: "outsideWindow" };
      const tickNext = Math.min(Math.max(found.next, MIN_TICK), MAX_TICK);
      const sqrtPriceNext = getSqrtRatioAtTick(tickNext);
      const target = (zeroForOne ? sqrtPriceNext < limit : sqrtPriceNext > limit)
        ? limit
        : sqrtPriceNext;
      const step = computeSwapStep(sqrtPrice, target, liquidity, remaining, pool.fee);
      sqrtPrice = step.sqrtRatioNextX96;
      remaining -= step.amountIn + step.feeAmount;
      amountOut += step.amountOut;
      feeAmount += step.feeAmount;
      if (sqrtPrice === sqrtPriceNext) {
        if (found.initialized) {
          const net = pool.ticks[found.index]!.liquidityNet;
          liquidity = addDelta(liquidity, zeroForOne ? -net : net);
          ticksCrossed++;
        }
        tick = zeroForOne ? tickNext - 1 : tickNext;
      } else if (sqrtPrice !== start) {
        tick = getTickAtSqrtRatio(sqrtPrice);
      }
    }
    if (remaining !== 0n) return { ok: false, reason: "partialFill" };
    return {
      ok: true,
      amountOut,
      feeAmount,
      sqrtPriceX96After: sqrtPrice,
      tickAfter: tick,
      ticksCrossed,
    };
  } catch (error) {
    if (error instanceof V3MathError) return { ok: false, reason: "reverts" };
    throw error;
  }
}
