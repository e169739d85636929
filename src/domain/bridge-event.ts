/**
 * A decoded bridge event as the indexer stores it (table raw_events): where it happened, which
 * bridge emitted it and its arguments as JSON-safe values (uint256 as decimal strings, addresses
 * EIP-55, bytes32 lowercase). Keyed by (chainId, txHash, logIndex).
 */
import type { Address, Hex } from "viem";
import type { BridgeKind } from "../domain/bridge-kind.js";

export type EventArgs = Record<string, string | boolean>;

export interface BridgeEvent {
  chainId: number;
  blockNumber: number;
  blockHash: Hex;
  /** Unix seconds of the block. */
  blockTime: number;
  txHash: Hex;
  logIndex: number;
  /** The emitting bridge contract, EIP-55. */
  address: Address;
  kind: BridgeKind;
  /** The event's name in its protocol's ABI (e.g. "TransferSent"). */
  name: string;
  /** Lowercase bytes32 hex. */
  messageId: Hex;
  args: EventArgs;
}

/** Total order of events: chain, block, log index (for picking "the first" deterministically). */
export function compareEvents(a: BridgeEvent, b: BridgeEvent): number {
  return a.chainId - b.chainId || a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;
}
