/**
 * The reference bridges' state the router prices against (read per block by state-reader.ts):
 * per bridge kind on one chain, the token configurations, the liquidity a destination can pay
 * out and the messaging fees. All amounts are bigint base units; maps are keyed by LOWERCASE
 * address (RegistryToken.key).
 */
import type { BridgeKind } from "../../domain/bridge-kind.js";

/** `tokenConfig(token)` of a bridge, in base units of that (source bridge) token. */
export interface TokenConfig {
  /** Proportional fee in basis points (1/10000). */
  feeBps: bigint;
  flatFee: bigint;
  /** Smallest bridgeAmount accepted. */
  minAmount: bigint;
  /** Largest bridgeAmount accepted; 0n means no cap. */
  maxAmount: bigint;
}

/** One bridge kind's contract on one chain. */
export interface BridgeState {
  /** By lowercase bridge token address; a token absent here is not carried by this bridge. */
  tokenConfigs: ReadonlyMap<string, TokenConfig>;
  /**
   * Kinds 0 and 1: `availableLiquidity(token)` of this chain's bridge, by lowercase token
   * address: kind 1's pool; kind 0's locked balance on the token's home chain (2^256 - 1 for a
   * token it mints). It caps what a transfer INTO this chain can deliver.
   */
  availableLiquidity?: ReadonlyMap<string, bigint>;
  /**
   * Kind 2 only: the messaging fee (`xprotoFee(destChainId)`) for a transfer FROM this chain, by
   * destination EVM chain id (the provider translates from the endpoint-id scheme), in base
   * units of the bridge token.
   */
  xprotoFees?: ReadonlyMap<number, bigint>;
}

/** The reference protocol's state on one chain: by bridge kind (absent: no readable state). */
export type ReferenceChainState = Partial<Record<BridgeKind, BridgeState>>;
