/**
 * Uniswap V3's SwapMath.computeSwapStep and LiquidityMath.addDelta on bigint: one step of a swap
 * within a single liquidity value, towards a target price.
 */
import { MAX_UINT128, mulDiv, mulDivRoundingUp, V3MathError } from "./full-math.js";
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from "./sqrt-price-math.js";

export interface SwapStep {
  sqrtRatioNextX96: bigint;
  amountIn: bigint;
  amountOut: bigint;
  feeAmount: bigint;
}

const PIPS = 1_000_000n;

/**
 * `amountRemaining` > = 0: exact input (fee included); < 0: exact output. `feePips` in
 * hundredths of a basis point (3000 = 0.3 %).
 */
export function computeSwapStep(
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint,
): SwapStep {
  const zeroForOne = sqrtRatioCurrentX96 >= sqrtRatioTargetX96;
  const exactIn = amountRemaining >= 0n;
  let sqrtRatioNextX96: bigint;
  let amountIn = 0n;
  let amountOut = 0n;
  if (exactIn) {
    const remainingLessFee = mulDiv(amountRemaining, PIPS - feePips, PIPS);
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, true);
    sqrtRatioNextX96 =
      remainingLessFee >= amountIn
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromInput(sqrtRatioCurrentX96, liquidity, remainingLessFee, zeroForOne);
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, false);
    sqrtRatioNextX96 =
      -amountRemaining >= amountOut
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromOutput(sqrtRatioCurrentX96, liquidity, -amountRemaining, zeroForOne);
  }
  const max = sqrtRatioTargetX96 === sqrtRatioNextX96;
  if (zeroForOne) {
    if (!(max && exactIn))
      amountIn = getAmount0Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, true);
    if (!(max && !exactIn))
      amountOut = getAmount1Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, false);
  } else {
    if (!(max && exactIn))
      amountIn = getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, true);
    if (!(max && !exactIn))
      amountOut = getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, false);
  }
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining;
  const feeAmount =
    exactIn && sqrtRatioNextX96 !== sqrtRatioTargetX96
      ? amountRemaining - amountIn // the target was not reached: the rest of the input is fee
      : mulDivRoundingUp(amountIn, feePips, PIPS - feePips);
  return { sqrtRatioNextX96, amountIn, amountOut, feeAmount };
}

/** LiquidityMath.addDelta: uint128 x plus int128 y, reverting on under- or overflow. */
export function addDelta(x: bigint, y: bigint): bigint {
  const z = x + y;
  if (z < 0n) throw new V3MathError("LiquidityMath: LS (liquidity underflow)");
  if (z > MAX_UINT128) throw new V3MathError("LiquidityMath: LA (liquidity overflow)");
  return z;
}
