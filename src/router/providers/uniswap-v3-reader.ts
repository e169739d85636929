/**
 * Reads one Uniswap V3 pool's state at one block for the pure swap simulation
 * (uniswap-v3/pool-swap.ts): slot0, liquidity, fee, tick spacing, and every initialized tick's
 * liquidityNet in a window of bitmap words around the current tick, through TickLens
 * (`getPopulatedTicksInWord`). Two round trips: the window depends on the tick slot0 gives.
 */
import { type Address, parseAbi } from "viem";
import type { V3PoolState, V3Tick } from "../uniswap-v3/pool-swap.js";
import type { StateReaderClient } from "./chain-state-provider.js";

export const uniswapV3PoolAbi = parseAbi([
  "function slot0() view returns (uint160 sqrtPriceX96, int24 tick, uint16 observationIndex, uint16 observationCardinality, uint16 observationCardinalityNext, uint8 feeProtocol, bool unlocked)",
  "function liquidity() view returns (uint128)",
  "function fee() view returns (uint24)",
  "function tickSpacing() view returns (int24)",
  "function token0() view returns (address)",
  "function token1() view returns (address)",
]);

export const tickLensAbi = parseAbi([
  "struct PopulatedTick { int24 tick; int128 liquidityNet; uint128 liquidityGross; }",
  "function getPopulatedTicksInWord(address pool, int16 tickBitmapIndex) view returns (PopulatedTick[] populatedTicks)",
]);

/**
 * Bitmap words loaded on each side of the current tick's word. A word covers 256 tick spacings:
 * for the 0.05 % tier (spacing 10) 2,560 ticks, a factor of about 1.29 in price, so two words
 * each side cover swaps that move the price by well over half.
 */
export const DEFAULT_V3_WINDOW_WORDS = 2;

export interface ReadV3PoolParameters {
  pool: Address;
  tickLens: Address;
  blockNumber: bigint;
  windowWords?: number;
}

export async function readV3Pool(
  client: Pick<StateReaderClient, "readContract">,
  p: ReadV3PoolParameters,
): Promise<V3PoolState> {
  const at = { address: p.pool, abi: uniswapV3PoolAbi, blockNumber: p.blockNumber } as const;
  const [slot0, liquidity, fee, tickSpacing, token0, token1] = await Promise.all([
    client.readContract({ ...at, functionName: "slot0" }),
    client.readContract({ ...at, functionName: "liquidity" }),
    client.readContract({ ...at, functionName: "fee" }),
    client.readContract({ ...at, functionName: "tickSpacing" }),
    client.readContract({ ...at, functionName: "token0" }),
    client.readContract({ ...at, functionName: "token1" }),
  ]);
  const [sqrtPriceX96, tick] = slot0;
  const window = p.windowWords ?? DEFAULT_V3_WINDOW_WORDS;
  const word = Math.floor(tick / tickSpacing) >> 8;
  const minWord = Math.max(word - window, -32768);
  const maxWord = Math.min(word + window, 32767);
  const words = Array.from({ length: maxWord - minWord + 1 }, (_, i) => minWord + i);
  const populated = await Promise.all(
    words.map((w) =>
      client.readContract({
        address: p.tickLens,
        abi: tickLensAbi,
        functionName: "getPopulatedTicksInWord",
        args: [p.pool, w],
        blockNumber: p.blockNumber,
      }),
    ),
  );
  const ticks: V3Tick[] = populated
    .flat()
    .map((t) => ({ tick: t.tick, liquidityNet: t.liquidityNet }))
    .sort((a, b) => a.tick - b.tick);
  return {
    token0: token0.toLowerCase(),
    token1: token1.toLowerCase(),
    fee: BigInt(fee),
    tickSpacing,
    sqrtPriceX96,
    tick,
    liquidity,
    ticks,
    minWord,
    maxWord,
  };
}
