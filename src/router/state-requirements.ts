/**
 * What the state providers must read, per chain, for the router to price every route of the
 * registry (docs/devnet-contracts.md, "Views (what the router reads)"). Derived from the registry
 * alone, so a provider computes it once at start and then reads exactly this each block to fill a
 * ChainState.
 */
import type { Address } from "viem";
import type { Registry, RegistryPair, RegistryToken, RegistryV3Pool } from "../domain/registry.js";
import {
  type BridgeStateRequirements,
  referenceStateRequirements,
} from "../protocols/reference/state-reader.js";

export type { BridgeStateRequirements } from "../protocols/reference/state-reader.js";

export interface ChainStateRequirements {
  chainId: number;
  /** The registry's pairs (what the factory is expected to have). */
  pairs: readonly RegistryPair[];
  /** The DEX factory: every couple of `swapTokens` is looked up there (`getPair`). */
  factory: Address;
  /** The chain's ERC-20 registry tokens (the native coin swaps as the hub token). */
  swapTokens: readonly RegistryToken[];
  /** The reference bridges' views (protocols/reference/state-reader.ts). */
  bridges: BridgeStateRequirements[];
  /** The registry's Uniswap V3 pools and the TickLens that reads their ticks (none: absent). */
  uniswapV3?: { tickLens: Address; pools: readonly RegistryV3Pool[] };
}

export function stateRequirements(registry: Registry): ChainStateRequirements[] {
  return registry.chains.map((chain) => {
    const bridges = referenceStateRequirements(registry, chain);
    return {
      chainId: chain.chainId,
      pairs: chain.dex.pairs,
      factory: chain.dex.factory,
      swapTokens: chain.tokens.filter((t) => !t.native),
      bridges,
      ...(chain.uniswapV3 === undefined
        ? {}
        : { uniswapV3: { tickLens: chain.uniswapV3.tickLens, pools: chain.uniswapV3.pools } }),
    };
  });
}
