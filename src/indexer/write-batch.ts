/**
 * What one committed batch writes, in the caller's transaction (which holds the indexer write
 * lock: create-indexer.ts): its token metadata, raw events and block hashes, the pruning of
 * old block hashes, the cursor move (only from the cursor the batch was fetched from) and the
 * re-derived records of its message ids; then the sends bound here whose deadline the batch's
 * last block has passed (expire-sends.ts).
 */

import type { Hex } from "viem";
import type { BridgeEvent } from "../domain/bridge-event.js";
import type { RegistrySource } from "../domain/bridge-registry.js";
import type { HistoryBlocks } from "../store/change-log-horizon.js";
import type {
  IndexerChainRow,
  StoredBlock,
  TokenMetadataRow,
} from "../store/indexer-repository.js";
import { expiredEvents } from "./expire-sends.js";
import type { IndexerTransaction } from "./indexer-store.js";

export interface IndexedBatch {
  chainId: number;
  chainName: string;
  /** The stored cursor the batch was fetched from; its first block is this + 1. */
  fromCursor: number;
  /** The chain row after the batch. */
  next: Pick<
    IndexerChainRow,
    "cursorBlock" | "cursorHash" | "headBlock" | "targetBlock" | "state" | "updatedAt"
  >;
  /** Decoded events of blocks fromCursor + 1 .. next.cursorBlock, all of them. */
  events: BridgeEvent[];
  /** Hashes of the batch's fetched blocks (at least its last one). */
  blocks: StoredBlock[];
  /** Stored block hashes below this block are dropped (cursor - finalityDepth). */
  pruneBelow: number;
  /** Metadata of every token the batch's sends name (stored when not yet stored). */
  tokens: TokenMetadataRow[];
  /** created_at / updated_at of records the batch creates or changes. */
  now: string;
  /** Unix seconds of the batch's last block (next.cursorBlock). */
  cursorTime: number;
  /** Protocols with bridges on this chain whose sends carry deadlines (expire-sends.ts). */
  deadlineProtocols: readonly string[];
}

export async function writeBatch(
  tx: IndexerTransaction,
  batch: IndexedBatch,
  registry: RegistrySource,
): Promise<void> {
  await tx.indexer.saveTokenMetadata(batch.tokens);
  await tx.indexer.insertEvents(batch.events);
  await tx.indexer.saveBlocks(batch.chainId, batch.blocks);
  await tx.indexer.deleteBlocksBelow(batch.chainId, batch.pruneBelow);
  const moved = await tx.indexer.moveCursor(batch.chainId, batch.fromCursor, batch.next);
  if (!moved) throw new Error(`chain ${batch.chainName}: cursor moved by another writer`);
  // The batch's blocks for the change log's horizon: its last block and how far below it a
  // reorg can still reach (history nobody subscribed to gets no log rows).
  const reach = batch.next.cursorBlock + Math.max(0, batch.next.cursorBlock - batch.pruneBelow);
  const blocks = { chainId: batch.chainId, throughBlock: reach, finalityDepth: 0 };
  const ids = batch.events.map((e) => e.messageId);
  // Far behind the head, the records wait (docs/indexer.md, "Deferred derivation"): a send and
  // its delivery on another chain are then usually derived together, one write instead of an
  // insert and an update of the record and its address rows.
  if (batch.next.state === "backfill") {
    const pending = await tx.indexer.deferDerivation(ids, batch.chainId, reach);
    if (pending < MAX_PENDING_DERIVATION) return;
  }
  await derivePending(tx, registry, batch.now, ids, [blocks]);
  if (batch.deadlineProtocols.length === 0) return;
  // After the derivation: the batch's own sends and deliveries are in the records it reads.
  const expired = expiredEvents(
    await tx.indexer.processingSends(batch.chainName, batch.deadlineProtocols),
    {
      chainId: batch.chainId,
      blockNumber: batch.next.cursorBlock,
      blockHash: batch.next.cursorHash as Hex,
      blockTime: batch.cursorTime,
    },
    registry,
  );
  if (expired.length === 0) return;
  await tx.indexer.insertEvents(expired);
  await tx.withHistoryUnlogged(
    () =>
      tx.transferDerivation.derive(
        expired.map((e) => e.messageId),
        registry,
        batch.now,
      ),
    blocks,
  );
}

/**
 * Pending ids past which a backfill batch derives them all (and its own): bounds how far the
 * records trail the raw events and the size of one derivation.
 */
export const MAX_PENDING_DERIVATION = 25_000;

/**
 * Derives the deferred records (and `messageIds`) in the caller's transaction: a batch that
 * caught its chain up, one that filled the pending set, or an idle step (after a restart the
 * set may hold a crashed run's ids).
 */
export async function derivePending(
  tx: IndexerTransaction,
  registry: RegistrySource,
  now: string,
  messageIds: readonly string[] = [],
  blocks: readonly HistoryBlocks[] = [],
): Promise<void> {
  const pending = await tx.indexer.takePendingDerivation();
  const ids = [...messageIds, ...pending.messageIds];
  if (ids.length === 0) return;
  const reaches = pending.reaches.map((r) => ({
    chainId: r.chainId,
    throughBlock: r.reach,
    finalityDepth: 0,
  }));
  await tx.withHistoryUnlogged(
    () => tx.transferDerivation.derive(ids, registry, now),
    [...blocks, ...reaches],
  );
}
