/**
 * What the indexer needs from the store: its own repository and the transfers repository, both
 * bound to one transaction per batch. `createIndexerStore` adapts a Store.
 */
import type { IndexerRepository } from "../store/indexer-repository.js";
import type { TransferMaintenanceRepository } from "../store/types.js";

export interface IndexerTransaction {
  indexer: IndexerRepository;
  transfers: TransferMaintenanceRepository;
}

export interface IndexerStore {
  /** Outside any transaction (reads, status updates). */
  readonly indexer: IndexerRepository;
  /** Runs `work` in one database transaction: all of it is committed, or none. */
  transaction<T>(work: (tx: IndexerTransaction) => Promise<T>): Promise<T>;
}
