/**
 * A devnet swap priced by the SwapAdapter's rule (contracts/dex/SwapAdapter.sol, docs/protocol.md
 * "DEX") from live chain state: the path rule over every venue (the V2 pair and the V3 pools of
 * the manifest), and hop by hop the venue that pays the most (the V2 pair by its formula, each V3
 * pool by QuoterV2 on chain; the V2 pair first, then the fee tiers ascending, on a tie). The
 * router prices the same rule offline (src/router/hop-quote.ts); the traffic generator and the
 * devnet tests use this one, so the minimums they send are the ones the adapter meets.
 */
import { type Address, type PublicClient, parseAbi } from "viem";
import { getAmountOut } from "../router/dex.js";
import { MAX_V2_RESERVE } from "../router/hop-quote.js";
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "../router/uniswap-v3/tick-math.js";
import type { ManifestChain } from "./manifest.js";

const pairAbi = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
]);

const quoterV2Abi = parseAbi([
  "struct QuoteExactInputSingleParams { address tokenIn; address tokenOut; uint256 amountIn; uint24 fee; uint160 sqrtPriceLimitX96; }",
  "function quoteExactInputSingle(QuoteExactInputSingleParams params) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32 initializedTicksCrossed, uint256 gasEstimate)",
]);

const same = (a: Address, b: Address): boolean => a.toLowerCase() === b.toLowerCase();

interface Couple {
  token0: Address;
  token1: Address;
}

const isCouple =
  (a: Address, b: Address) =>
  (venue: Couple): boolean =>
    (same(venue.token0, a) && same(venue.token1, b)) ||
    (same(venue.token0, b) && same(venue.token1, a));

/** Whether any venue (the V2 pair or a V3 pool) trades a/b: the adapter's `hasVenue`. */
export function hasVenue(chain: ManifestChain, a: Address, b: Address): boolean {
  return (
    chain.dex.pairs.some(isCouple(a, b)) || (chain.uniswapV3?.pools ?? []).some(isCouple(a, b))
  );
}

/**
 * Output of swapping `amountIn` along `path` (token addresses, WETH for the native coin) as the
 * adapter executes it on `client`'s chain now. 0 when some hop has no venue that pays.
 */
export async function adapterSwapOut(
  client: PublicClient,
  chain: ManifestChain,
  path: readonly Address[],
  amountIn: bigint,
): Promise<bigint> {
  let amount = amountIn;
  for (let i = 0; i + 1 < path.length; i++) {
    amount = await bestHopOut(client, chain, path[i] as Address, path[i + 1] as Address, amount);
  }
  return amount;
}

async function bestHopOut(
  client: PublicClient,
  chain: ManifestChain,
  tokenIn: Address,
  tokenOut: Address,
  amountIn: bigint,
): Promise<bigint> {
  let best = 0n;
  const pair = chain.dex.pairs.find(isCouple(tokenIn, tokenOut));
  if (pair !== undefined) {
    const [r0, r1] = await client.readContract({
      address: pair.address,
      abi: pairAbi,
      functionName: "getReserves",
    });
    const [reserveIn, reserveOut] = same(pair.token0, tokenIn) ? [r0, r1] : [r1, r0];
    // The pair's balances are uint112: the adapter skips a pair a larger input would overflow.
    if (reserveIn + amountIn <= MAX_V2_RESERVE)
      best = getAmountOut(amountIn, reserveIn, reserveOut);
  }
  const pools = (chain.uniswapV3?.pools ?? [])
    .filter(isCouple(tokenIn, tokenOut))
    .sort((a, b) => a.fee - b.fee);
  for (const pool of pools) {
    try {
      const { result } = await client.simulateContract({
        address: chain.uniswapV3?.quoterV2 as Address,
        abi: quoterV2Abi,
        functionName: "quoteExactInputSingle",
        args: [{ tokenIn, tokenOut, amountIn, fee: pool.fee, sqrtPriceLimitX96: 0n }],
      });
      const [out, priceAfter] = result;
      // A quote that ends at the price limit could not take the whole input: the adapter skips it.
      const partial = priceAfter === MIN_SQRT_RATIO + 1n || priceAfter === MAX_SQRT_RATIO - 1n;
      if (!partial && out > best) best = out;
    } catch {
      // A quote that reverts is no venue (the adapter skips it too).
    }
  }
  return best;
}
