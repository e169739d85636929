/**
 * Uniswap V3 pools for the router fixture (fixtures.ts, `uniswapV3: true`): on every chain
 * USDC/WETH at 0.05 % and 0.3 % and DAI/USDC at 0.01 %, priced like the fixture's V2 pairs, each
 * with a wide and a narrow position around the price (so quotes cross ticks) and the loaded
 * bitmap words the state reader would give. For tests and the router benchmark: pricing with
 * V3 hops in the mix, no chain needed.
 */
import type { Address } from "viem";
import type { RegistryChain } from "../domain/registry.js";
import { sqrtFloor } from "./uniswap-v3/full-math.js";
import type { V3PoolState } from "./uniswap-v3/pool-swap.js";
import { getTickAtSqrtRatio } from "./uniswap-v3/tick-math.js";

/** [token A, token B, fee, tick spacing]. */
const FIXTURE_V3_POOLS = [
  ["WETH", "USDC", 500, 10],
  ["WETH", "USDC", 3000, 60],
  ["DAI", "USDC", 100, 1],
] as const;

/** The registry JSON's `uniswapV3` of one chain; `address(label)` is the fixture's addressing. */
export function fixtureV3Section(address: (label: string) => Address) {
  return {
    factory: address("v3/factory"),
    tickLens: address("v3/tickLens"),
    pools: FIXTURE_V3_POOLS.map(([a, b, fee, tickSpacing]) => {
      const [token0, token1] = [address(`token/${a}`), address(`token/${b}`)].sort((x, y) =>
        x.toLowerCase() < y.toLowerCase() ? -1 : 1,
      ) as [Address, Address];
      return { address: address(`v3/pool/${a}/${b}/${fee}`), token0, token1, fee, tickSpacing };
    }),
  };
}

/** Each pool's state: price from the tokens' USD prices, about $2M of liquidity per side. */
export function fixtureV3States(
  chain: RegistryChain,
  spec: (symbol: string) => { decimals: number; priceMicroUsd: bigint },
): Map<string, V3PoolState> {
  const states = new Map<string, V3PoolState>();
  for (const pool of chain.uniswapV3?.pools ?? []) {
    const s0 = spec(pool.token0.symbol);
    const s1 = spec(pool.token1.symbol);
    // token1 per token0 in base units = (usd0 / usd1) * 10^dec1 / 10^dec0, as a Q192 ratio.
    const num = s0.priceMicroUsd * 10n ** BigInt(s1.decimals);
    const den = s1.priceMicroUsd * 10n ** BigInt(s0.decimals);
    const sqrtPriceX96 = sqrtFloor((num << 192n) / den);
    const tick = getTickAtSqrtRatio(sqrtPriceX96);
    const spacing = pool.tickSpacing;
    const center = Math.floor(tick / spacing) * spacing;
    // Virtual reserves of $2M a side: L = sqrt(reserve0 * reserve1).
    const reserve0 = (2_000_000n * 1_000000n * 10n ** BigInt(s0.decimals)) / s0.priceMicroUsd;
    const reserve1 = (2_000_000n * 1_000000n * 10n ** BigInt(s1.decimals)) / s1.priceMicroUsd;
    const wide = sqrtFloor(reserve0 * reserve1);
    const narrow = wide / 2n;
    const compressed = Math.floor(tick / spacing);
    states.set(pool.key, {
      token0: pool.token0.key,
      token1: pool.token1.key,
      fee: BigInt(pool.fee),
      tickSpacing: spacing,
      sqrtPriceX96,
      tick,
      liquidity: wide + narrow,
      ticks: [
        { tick: center - 60 * spacing, liquidityNet: wide },
        { tick: center - 2 * spacing, liquidityNet: narrow },
        { tick: center + 2 * spacing, liquidityNet: -narrow },
        { tick: center + 60 * spacing, liquidityNet: -wide },
      ],
      minWord: (compressed >> 8) - 2,
      maxWord: (compressed >> 8) + 2,
    });
  }
  return states;
}
