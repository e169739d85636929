/**
 * What the indexer needs from the store: its own repository and the transfers repository, both
 * bound to one transaction per batch. `openIndexerStore` (src/indexer/store/open-indexer-store.ts) provides it
 * on a connection of its own.
 */
import type { StoredTransfer } from "../store/backend.js";
import type { TransferDerivation } from "../store/derive-transfers.js";
import type { IndexerRepository } from "../store/indexer-repository.js";
import type { BridgeTransaction, UpsertResult } from "../store/types.js";

/** The transfer write path inside the batch's transaction (src/store/transfer-writes.ts). */
export interface IndexerTransferWrites {
  /** `known`: stored rows of these message ids read in this transaction (absent: not stored). */
  upsertTransfers(
    records: readonly BridgeTransaction[],
    known?: ReadonlyMap<string, StoredTransfer>,
  ): Promise<UpsertResult>;
  deleteTransfers(messageIds: readonly string[]): Promise<number>;
}

export interface IndexerTransaction {
  indexer: IndexerRepository;
  transfers: IndexerTransferWrites;
  /** The records derived from the stored raw events, set-based (src/store/derive-transfers.ts). */
  records: TransferDerivation;
}

export interface IndexerStore {
  /** Outside any transaction (reads, status updates). */
  readonly indexer: IndexerRepository;
  /** Runs `work` in one database transaction: all of it is committed, or none. */
  transaction<T>(work: (tx: IndexerTransaction) => Promise<T>): Promise<T>;
}
