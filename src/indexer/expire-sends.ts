/**
 * Time-based failure, for protocols whose sends carry a deadline (ProtocolIndexing.
 * sendsHaveDeadlines; Across' fillDeadline): a deadline passing emits no log, so the indexer of
 * the destination chain records it. After each batch it looks at the Processing transfers bound
 * for its chain; for each whose send's `deadline` is before the time of the batch's last block,
 * it stores an `expired` event at that block, on the destination contract. The derivation makes
 * such a transfer Failed (no destination transaction, receive_amount "0", end_time that block's
 * time) unless a delivery is stored too. A reorg below that block deletes the event like any
 * other (the transfer is Processing again until the new chain's time passes the deadline).
 *
 * The key of the stored event: tx_hash = keccak256("expired:" + message id), log index 0; it is
 * no transaction (the explorer's timeline shows it by its name, DeadlinePassed).
 */
import { type Hex, keccak256, toHex } from "viem";
import type { BridgeEvent } from "../domain/bridge-event.js";
import type { RegistrySource } from "../domain/bridge-registry.js";

export const EXPIRED_EVENT_NAME = "DeadlinePassed";

const DIGITS = /^[0-9]{1,15}$/;

/** Where the destination chain's indexer stands: its batch's last block. */
export interface IndexedHead {
  chainId: number;
  blockNumber: number;
  blockHash: Hex;
  /** Unix seconds of that block. */
  blockTime: number;
}

/** The `expired` events of the sends (bound for `head`'s chain) whose deadline it has passed. */
export function expiredEvents(
  sends: readonly BridgeEvent[],
  head: IndexedHead,
  registry: RegistrySource,
): BridgeEvent[] {
  const out: BridgeEvent[] = [];
  for (const send of sends) {
    const deadline = send.args.deadline;
    if (typeof deadline !== "string" || !DIGITS.test(deadline)) continue;
    // A fill at the deadline itself still succeeds (Across: reverts only when the block time is
    // later), so only a later block time proves it can no longer be delivered.
    if (head.blockTime <= Number(deadline)) continue;
    const protocol = send.protocol;
    const destination = registry.bridges.find(
      (b) =>
        b.chainId === head.chainId &&
        (b.protocol ?? "reference") === protocol &&
        b.kind === send.kind,
    );
    if (destination === undefined) continue;
    out.push({
      chainId: head.chainId,
      blockNumber: head.blockNumber,
      blockHash: head.blockHash.toLowerCase() as Hex,
      blockTime: head.blockTime,
      txHash: keccak256(toHex(`expired:${send.messageId.toLowerCase()}`)),
      logIndex: 0,
      address: destination.address,
      protocol,
      kind: send.kind,
      name: EXPIRED_EVENT_NAME,
      role: "expired",
      messageId: send.messageId.toLowerCase() as Hex,
      args: { deadline },
    });
  }
  return out;
}
