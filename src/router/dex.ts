/**
 * Uniswap-V2 constant-product math, exactly as the devnet pair and router compute it
 * (docs/protocol.md "DEX"): integers, floor division, 0.3 % fee on each hop's input.
 */

/** Reserves of one hop, oriented along the swap: in -> out. */
export interface HopReserves {
  reserveIn: bigint;
  reserveOut: bigint;
}

/**
 * Output of one hop. Returns 0n where the pair would revert (no input, an empty pool); the
 * pricing treats a zero output as "amount too small".
 */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const amountInWithFee = amountIn * 997n;
  return (amountInWithFee * reserveOut) / (reserveIn * 1000n + amountInWithFee);
}

/**
 * Smallest-by-Uniswap input of one hop for `amountOut`:
 * floor(reserveIn * amountOut * 1000 / ((reserveOut - amountOut) * 997)) + 1.
 * Invariant: getAmountOut(getAmountIn(x)) >= x. Undefined when no input can buy `amountOut`
 * (amountOut >= reserveOut, or an empty pool).
 */
export function getAmountIn(
  amountOut: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
): bigint | undefined {
  if (amountOut <= 0n) return 0n;
  if (reserveIn <= 0n || reserveOut <= 0n || amountOut >= reserveOut) return undefined;
  return (reserveIn * amountOut * 1000n) / ((reserveOut - amountOut) * 997n) + 1n;
}

/** Like the router's getAmountsOut: [amountIn, out of hop 1, ..., final out]. */
export function getAmountsOut(amountIn: bigint, hops: readonly HopReserves[]): bigint[] {
  const amounts = [amountIn];
  let amount = amountIn;
  for (const hop of hops) {
    amount = getAmountOut(amount, hop.reserveIn, hop.reserveOut);
    amounts.push(amount);
  }
  return amounts;
}

/** Final output of a multi-hop swap without building the amounts array (the hot path). */
export function getFinalAmountOut(amountIn: bigint, hops: readonly HopReserves[]): bigint {
  let amount = amountIn;
  for (const hop of hops) amount = getAmountOut(amount, hop.reserveIn, hop.reserveOut);
  return amount;
}

/**
 * Like the router's getAmountsIn: [input, ..., amountOut], each hop inverted with getAmountIn
 * from the last. Undefined when some hop cannot deliver what the next one needs.
 */
export function getAmountsIn(
  amountOut: bigint,
  hops: readonly HopReserves[],
): bigint[] | undefined {
  const amounts = new Array<bigint>(hops.length + 1);
  amounts[hops.length] = amountOut;
  let amount = amountOut;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    const input = getAmountIn(amount, hop.reserveIn, hop.reserveOut);
    if (input === undefined) return undefined;
    amount = input;
    amounts[i] = amount;
  }
  return amounts;
}

const FEE_DENOMINATOR = [1n, 1000n, 1000000n, 1000000000n];
const FEE_KEPT = [1n, 997n, 994009n, 991026973n];

/**
 * The DEX fee of a swap, in units of the swap's INPUT token: the part of `amountIn` the 0.3 % LP
 * fee consumes over `hopCount` hops, each later hop's fee valued at the rate of the hop that
 * produced its input, i.e. amountIn * (1 - 0.997^hops), floor. One hop: floor(amountIn * 3 / 1000),
 * exactly what the pair keeps. Price impact is not a fee and is not included.
 */
export function swapFee(amountIn: bigint, hopCount: number): bigint {
  if (hopCount <= 0 || amountIn <= 0n) return 0n;
  const denominator = FEE_DENOMINATOR[hopCount] ?? 1000n ** BigInt(hopCount);
  const kept = FEE_KEPT[hopCount] ?? 997n ** BigInt(hopCount);
  return (amountIn * (denominator - kept)) / denominator;
}
