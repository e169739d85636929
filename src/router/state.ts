/**
 * Chain state the router prices against: one StateSnapshot, filled by the state providers once
 * per block (never per request) and read by the pure pricing functions. All amounts are bigint
 * base units. Every map is keyed by LOWERCASE address (RegistryToken.key / RegistryPair.key) so a
 * lookup never depends on the checksum case of its input.
 */
import type { BridgeKind } from "../domain/bridge-kind.js";
import type { V3PoolState } from "./uniswap-v3/pool-swap.js";

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

/** A DEX pair's `getReserves()`, with its tokens so the reader can orient them. */
export interface PairReserves {
  /** Lowercase addresses of the pair's token0 / token1 (Uniswap order: token0 < token1). */
  token0: string;
  token1: string;
  reserve0: bigint;
  reserve1: bigint;
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

export interface ChainState {
  chainId: number;
  /** The block the state below was read at. */
  blockNumber: bigint;
  /** That block's timestamp, Unix seconds. */
  blockTimestamp: bigint;
  /**
   * Wall-clock time of the read, milliseconds since the epoch. Staleness is judged on this, not
   * on blockTimestamp: an idle chain (anvil without traffic) keeps an old head block while its
   * state is perfectly current.
   */
  readAtMs: number;
  /** By bridge kind; a kind absent here has no readable state on this chain. */
  bridges: Partial<Record<BridgeKind, BridgeState>>;
  /** By lowercase pair address (RegistryPair.key). */
  pairs: ReadonlyMap<string, PairReserves>;
  /**
   * Every pair the chain's DEX factory has between two of the registry's tokens, by
   * `coupleKey(a, b)` -> pair key (its reserves are in `pairs`), pairs made after the registry
   * was written included. The contracts swap through a direct pair whenever the factory has
   * one, so pricing follows this map rather than the registry's list. Absent: the registry's
   * pairs are taken as the factory's (fixed snapshots in tests).
   */
  directPairs?: ReadonlyMap<string, string>;
  /**
   * Uniswap V3 pools by lowercase address (RegistryV3Pool.key): slot0, liquidity and the
   * initialized ticks of a window of bitmap words (uniswap-v3/pool-swap.ts). Absent: none read.
   */
  v3Pools?: ReadonlyMap<string, V3PoolState>;
}

/** The key of an unordered couple of lowercase token addresses. */
export function coupleKey(a: string, b: string): string {
  return a < b ? `${a}:${b}` : `${b}:${a}`;
}

/**
 * Immutable once handed to the router: the router caches per-snapshot work keyed by the object,
 * so a provider publishes a NEW snapshot object for new state (unchanged ChainState objects can
 * be shared between snapshots) and never mutates a published one.
 */
export interface StateSnapshot {
  /** By EVM chain id. A chain absent here makes every route through it unpriceable. */
  chains: ReadonlyMap<number, ChainState>;
}
