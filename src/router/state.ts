/**
 * Chain state the router prices against: one StateSnapshot, filled by the state providers once
 * per block (never per request) and read by the pure pricing functions. All amounts are bigint
 * base units. Every map is keyed by LOWERCASE address (RegistryToken.key / RegistryPair.key) so a
 * lookup never depends on the checksum case of its input.
 */

import type { ReferenceChainState } from "../protocols/reference/bridge-state.js";
import { REFERENCE_PROTOCOL } from "../protocols/reference/decode-log.js";
import type { V3PoolState } from "./uniswap-v3/pool-swap.js";

export type { BridgeState, TokenConfig } from "../protocols/reference/bridge-state.js";

/** A DEX pair's `getReserves()`, with its tokens so the reader can orient them. */
export interface PairReserves {
  /** Lowercase addresses of the pair's token0 / token1 (Uniswap order: token0 < token1). */
  token0: string;
  token1: string;
  reserve0: bigint;
  reserve1: bigint;
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
  /**
   * The reference protocol's state (protocols/reference/bridge-state.ts), by bridge kind; a kind
   * absent here has no readable state on this chain. Kept in this field of its own (the
   * fixtures and benchmarks build it), where other protocols' states are in `protocols`.
   */
  bridges: ReferenceChainState;
  /**
   * Other protocols' states (their ProtocolRouting.stateReader's result), by protocol name;
   * absent: none read.
   */
  protocols?: ReadonlyMap<string, unknown>;
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

/** The state `protocol` read on a chain (the reference protocol's: `bridges`). */
export function protocolState(state: ChainState, protocol: string): unknown {
  return protocol === REFERENCE_PROTOCOL ? state.bridges : state.protocols?.get(protocol);
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
