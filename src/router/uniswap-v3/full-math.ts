/**
 * Uniswap V3's FullMath and UnsafeMath on bigint: 512-bit-exact multiply-then-divide with the
 * contracts' reverts (a zero denominator, a result that does not fit 256 bits) as V3MathError.
 */

export const MAX_UINT256 = (1n << 256n) - 1n;
export const MAX_UINT160 = (1n << 160n) - 1n;
export const MAX_UINT128 = (1n << 128n) - 1n;

/** A `require` of the Uniswap V3 libraries that failed: the contract would revert here. */
export class V3MathError extends Error {
  override name = "V3MathError";
}

/** floor(a * b / denominator); reverts when denominator is 0 or the result exceeds 2^256 - 1. */
export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new V3MathError("FullMath: division by zero");
  const result = (a * b) / denominator;
  if (result > MAX_UINT256) throw new V3MathError("FullMath: result overflows uint256");
  return result;
}

/** ceil(a * b / denominator), with mulDiv's reverts and one more when rounding up overflows. */
export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  const result = mulDiv(a, b, denominator);
  if ((a * b) % denominator === 0n) return result;
  if (result === MAX_UINT256) throw new V3MathError("FullMath: rounding up overflows uint256");
  return result + 1n;
}

/** UnsafeMath.divRoundingUp: ceil(x / y) for uint256 x and y > 0. */
export function divRoundingUp(x: bigint, y: bigint): bigint {
  if (y === 0n) throw new V3MathError("UnsafeMath: division by zero");
  return x / y + (x % y > 0n ? 1n : 0n);
}

/** floor(sqrt(n)) for n >= 0 (Newton's method from above; exact far beyond float precision). */
export function sqrtFloor(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
  for (;;) {
    const next = (x + n / x) >> 1n;
    if (next >= x) return x;
    x = next;
  }
}
