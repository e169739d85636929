/**
 * A bridge event normalised by its protocol (src/protocols/<name>/), as the indexer stores it
 * (table raw_events) and the derivation pairs it: where it happened, which protocol and contract
 * emitted it, its `role` in a transfer, the pairing key (`messageId`) that joins a send with its
 * outcome, and its arguments as JSON-safe values (uint256 as decimal strings, addresses EIP-55,
 * bytes32 lowercase). Keyed by (chainId, txHash, logIndex).
 *
 * The derivation (src/store/derive-transfers-sql.ts) reads only `role`, `messageId`, the
 * emitting chain and contract and the argument names below (SentArgs, DeliveredArgs, ...), never
 * an event name: a protocol puts those names into `args` (its own extra arguments may sit beside
 * them, and the explorer's timeline shows them all).
 */
import type { Address, Hex } from "viem";
import type { BridgeKind } from "./bridge-kind.js";

export type EventArgs = Record<string, string | boolean>;

/**
 * What an event means for its transfer: `sent` opens it (no send, no record); `delivered` makes
 * it Success; `failed` or `refunded` Failed; `retrying` (a delivery that reverted but may be
 * retried: LayerZero's LzReceiveAlert) leaves it Processing, so it is stored for the timeline and
 * changes no status. `expired` is no log: the indexer records it (src/indexer/expire-sends.ts) on
 * the destination chain, at an indexed block whose time is past the send's `deadline`, when no
 * delivery is stored; it makes the transfer Failed unless a delivery is stored too, and a reorg
 * below its block removes it like any event (back to Processing).
 */
export const BRIDGE_EVENT_ROLES = [
  "sent",
  "delivered",
  "failed",
  "refunded",
  "retrying",
  "expired",
] as const;
export type BridgeEventRole = (typeof BRIDGE_EVENT_ROLES)[number];

/**
 * The arguments of a `sent` event the derivation reads. Amounts are base units (decimal
 * strings), tokens addresses (0x0 = the chain's native coin).
 */
export interface SentArgs {
  sender: string;
  recipient: string;
  /**
   * The destination in the protocol's own chain naming (a chain id, a LayerZero endpoint id, a
   * CCTP domain) as a decimal; the registry maps it to our chain (RegistryBridge.bridgeChainId
   * of the same protocol and kind).
   */
  destChainId: string;
  /**
   * The contract the delivery happens at, when the protocol names it (LayerZero: the packet's
   * receiver, the peer OFT); it must be one of the protocol's registry contracts on the
   * destination chain. Absent: the registry's contract of the send's protocol and kind there.
   */
  destContract?: string;
  sourceToken: string;
  sendAmount: string;
  /** The token the bridge fee is paid in (the record's fee_address). */
  sourceBridgeToken: string;
  bridgeAmount: string;
  destBridgeToken: string;
  destBridgeAmount: string;
  destToken: string;
  minReceiveAmount: string;
  bridgeFee: string;
  /** The messaging fee, in `xprotoFeeToken`'s base units. */
  xprotoFee: string;
  /**
   * The token the messaging fee is paid in when it is not the fee token (LayerZero: 0x0, the
   * native coin); absent: `sourceBridgeToken`.
   */
  xprotoFeeToken?: string;
  subsidy: string;
  /**
   * Unix seconds after which a send not delivered can no longer be (Across' fillDeadline: a
   * fill at a later block time reverts). Once the destination chain's indexed head is past it
   * with no delivery stored, the indexer records an `expired` event (the transfer is Failed).
   * Only protocols whose indexing says `sendsHaveDeadlines` are checked.
   */
  deadline?: string;
}

/** The arguments of a `delivered` event the derivation reads. */
export interface DeliveredArgs {
  recipient: string;
  destToken: string;
  /** What the recipient received, in `destToken`'s base units. */
  receiveAmount: string;
}

/** The arguments of a `failed` event shown on the timeline. */
export interface FailedArgs {
  reason: string;
}

/** The arguments of a `refunded` event shown on the timeline. */
export interface RefundedArgs {
  token: string;
  amount: string;
}

export interface BridgeEvent {
  chainId: number;
  blockNumber: number;
  blockHash: Hex;
  /** Unix seconds of the block. */
  blockTime: number;
  txHash: Hex;
  logIndex: number;
  /** The emitting contract, EIP-55. */
  address: Address;
  /** The protocol that decoded it (src/protocols/index.ts), e.g. "reference". */
  protocol: string;
  kind: BridgeKind;
  /** The event's name in its protocol's ABI (e.g. "TransferSent"): shown, never interpreted. */
  name: string;
  role: BridgeEventRole;
  /**
   * The pairing key, lowercase: equal on a send and its outcomes (the reference bridge's message
   * id, LayerZero's guid, a hash of CCTP's (source domain, nonce)); the record's message_id.
   */
  messageId: Hex;
  args: EventArgs;
}

/** Total order of events: chain, block, log index (for picking "the first" deterministically). */
export function compareEvents(a: BridgeEvent, b: BridgeEvent): number {
  return a.chainId - b.chainId || a.blockNumber - b.blockNumber || a.logIndex - b.logIndex;
}
