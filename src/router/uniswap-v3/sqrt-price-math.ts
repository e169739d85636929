/**
 * Uniswap V3's SqrtPriceMath on bigint, including the contract's uint256 overflow checks (a
 * product that would wrap takes the same fallback or revert as on chain).
 */
import {
  divRoundingUp,
  MAX_UINT160,
  MAX_UINT256,
  mulDiv,
  mulDivRoundingUp,
  V3MathError,
} from "./full-math.js";

const Q96 = 1n << 96n;

function toUint160(x: bigint): bigint {
  if (x > MAX_UINT160) throw new V3MathError("SafeCast: uint160 overflow");
  return x;
}

/** Price after adding (or removing) `amount` of token0: rounds up. */
export function getNextSqrtPriceFromAmount0RoundingUp(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  if (amount === 0n) return sqrtPX96;
  const numerator1 = liquidity << 96n;
  const product = amount * sqrtPX96;
  if (add) {
    if (product <= MAX_UINT256) {
      const denominator = numerator1 + product;
      if (denominator <= MAX_UINT256) {
        // uint160(...) of a value <= sqrtPX96: never truncates.
        return mulDivRoundingUp(numerator1, sqrtPX96, denominator);
      }
    }
    const sum = numerator1 / sqrtPX96 + amount;
    if (sum > MAX_UINT256) throw new V3MathError("LowGasSafeMath: add overflow");
    return divRoundingUp(numerator1, sum) & MAX_UINT160;
  }
  if (product > MAX_UINT256 || numerator1 <= product) {
    throw new V3MathError("SqrtPriceMath: token0 output exceeds the liquidity");
  }
  return toUint160(mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - product));
}

/** Price after adding (or removing) `amount` of token1: rounds down. */
export function getNextSqrtPriceFromAmount1RoundingDown(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  if (add) {
    const quotient =
      amount <= MAX_UINT160 ? (amount << 96n) / liquidity : mulDiv(amount, Q96, liquidity);
    const sum = sqrtPX96 + quotient;
    if (sum > MAX_UINT256) throw new V3MathError("LowGasSafeMath: add overflow");
    return toUint160(sum);
  }
  const quotient =
    amount <= MAX_UINT160
      ? divRoundingUp(amount << 96n, liquidity)
      : mulDivRoundingUp(amount, Q96, liquidity);
  if (sqrtPX96 <= quotient) throw new V3MathError("SqrtPriceMath: token1 output exceeds the price");
  return sqrtPX96 - quotient;
}

/**
 * The price after `amount` of input (`isInput`: token0 when zeroForOne) or output (token1 when
 * zeroForOne) at `liquidity`: getNextSqrtPriceFromInput / getNextSqrtPriceFromOutput.
 */
function nextSqrtPrice(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  zeroForOne: boolean,
  isInput: boolean,
): bigint {
  if (sqrtPX96 <= 0n || liquidity <= 0n) {
    throw new V3MathError("SqrtPriceMath: no price or liquidity");
  }
  // The amount is token0 when zeroForOne === isInput: its curve rounds the price up, token1 down.
  return zeroForOne === isInput
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amount, isInput)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amount, isInput);
}

export function getNextSqrtPriceFromInput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountIn: bigint,
  zeroForOne: boolean,
): bigint {
  return nextSqrtPrice(sqrtPX96, liquidity, amountIn, zeroForOne, true);
}

export function getNextSqrtPriceFromOutput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountOut: bigint,
  zeroForOne: boolean,
): bigint {
  return nextSqrtPrice(sqrtPX96, liquidity, amountOut, zeroForOne, false);
}

/** token0 between two prices for `liquidity`: liquidity * (sqrtB - sqrtA) / (sqrtA * sqrtB). */
export function getAmount0Delta(
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  const [a, b] =
    sqrtRatioAX96 > sqrtRatioBX96 ? [sqrtRatioBX96, sqrtRatioAX96] : [sqrtRatioAX96, sqrtRatioBX96];
  const numerator1 = liquidity << 96n;
  const numerator2 = b - a;
  if (a <= 0n) throw new V3MathError("SqrtPriceMath: zero price");
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, b), a)
    : mulDiv(numerator1, numerator2, b) / a;
}

/** token1 between two prices for `liquidity`: liquidity * (sqrtB - sqrtA). */
export function getAmount1Delta(
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint {
  const [a, b] =
    sqrtRatioAX96 > sqrtRatioBX96 ? [sqrtRatioBX96, sqrtRatioAX96] : [sqrtRatioAX96, sqrtRatioBX96];
  return roundUp ? mulDivRoundingUp(liquidity, b - a, Q96) : mulDiv(liquidity, b - a, Q96);
}
