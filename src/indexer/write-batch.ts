/**
 * What one committed batch writes, in the caller's transaction (which holds the indexer write
 * lock: create-indexer.ts): its token metadata, raw events and block hashes, the pruning of
 * old block hashes, the cursor move (only from the cursor the batch was fetched from) and the
 * re-derived records of its message ids.
 */

import type { BridgeEvent } from "../domain/bridge-event.js";
import type { RegistrySource } from "../domain/bridge-registry.js";
import type {
  IndexerChainRow,
  StoredBlock,
  TokenMetadataRow,
} from "../store/indexer-repository.js";
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
  await tx.transferDerivation.derive(
    batch.events.map((e) => e.messageId),
    registry,
    batch.now,
  );
}
