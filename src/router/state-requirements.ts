/**
 * What the state providers must read, per chain, for the router to price every route of the
 * registry (docs/devnet-contracts.md, "Views (what the router reads)"). Derived from the registry
 * alone, so a provider computes it once at start and then reads exactly this each block to fill a
 * ChainState.
 */
import type { Address } from "viem";
import { BRIDGE_KINDS, type BridgeKind } from "../domain/bridge-kind.js";
import type { Registry, RegistryPair, RegistryToken, RegistryV3Pool } from "../domain/registry.js";

export interface BridgeStateRequirements {
  kind: BridgeKind;
  /** The kind's bridge contract on this chain. */
  bridge: Address;
  /** `tokenConfig(token)` for each: the bridge tokens this chain SENDS with this kind. */
  tokenConfigTokens: RegistryToken[];
  /**
   * Kinds 0 and 1: `availableLiquidity(token)` for each: the bridge tokens this chain RECEIVES
   * (kind 1: the pool; kind 0: the locked balance on the token's home chain, unlimited for a
   * token the bridge mints).
   */
  availableLiquidityTokens: RegistryToken[];
  /**
   * Kind 2: `xprotoFee(bridgeChainId)` for each destination; store it in
   * BridgeState.xprotoFees under the EVM `chainId`.
   */
  xprotoFeeDestinations: { chainId: number; bridgeChainId: string }[];
}

export interface ChainStateRequirements {
  chainId: number;
  /** The registry's pairs (what the factory is expected to have). */
  pairs: readonly RegistryPair[];
  /** The DEX factory: every couple of `swapTokens` is looked up there (`getPair`). */
  factory: Address;
  /** The chain's ERC-20 registry tokens (the native coin swaps as the hub token). */
  swapTokens: readonly RegistryToken[];
  /** Only kinds with at least one link from or into this chain. */
  bridges: BridgeStateRequirements[];
  /** The registry's Uniswap V3 pools and the TickLens that reads their ticks (none: absent). */
  uniswapV3?: { tickLens: Address; pools: readonly RegistryV3Pool[] };
}

function addOnce<T>(list: T[], item: T): void {
  if (!list.includes(item)) list.push(item);
}

export function stateRequirements(registry: Registry): ChainStateRequirements[] {
  return registry.chains.map((chain) => {
    const bridges: BridgeStateRequirements[] = [];
    for (const kind of BRIDGE_KINDS) {
      const bridge = chain.bridges[kind];
      if (bridge === undefined) continue;
      const entry: BridgeStateRequirements = {
        kind,
        bridge,
        tokenConfigTokens: [],
        availableLiquidityTokens: [],
        xprotoFeeDestinations: [],
      };
      for (const link of registry.links) {
        if (link.kind !== kind) continue;
        if (link.sourceChainId === chain.chainId) {
          addOnce(entry.tokenConfigTokens, link.sourceToken);
          const dest = registry.chain(link.destChainId)!;
          const bridgeChainId = dest.bridgeChainIds[kind]!;
          if (kind === 2 && !entry.xprotoFeeDestinations.some((d) => d.chainId === dest.chainId)) {
            entry.xprotoFeeDestinations.push({ chainId: dest.chainId, bridgeChainId });
          }
        }
        if (kind !== 2 && link.destChainId === chain.chainId) {
          addOnce(entry.availableLiquidityTokens, link.destToken);
        }
      }
      const used = entry.tokenConfigTokens.length > 0 || entry.availableLiquidityTokens.length > 0;
      if (used) bridges.push(entry);
    }
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
