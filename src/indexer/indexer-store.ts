/**
 * What the indexer needs from the database object (src/store/database.ts): its repository, and
 * one transaction per batch whose bound repositories include the transfer write path. A
 * Database is one; tests may pass a narrower double.
 */
import type { Database, DatabaseTransaction } from "../store/database.js";

/**
 * The batch's transaction: the indexer's tables and the set-based derivation of its records
 * (src/store/derive-transfers.ts), bound to it.
 */
export type IndexerTransaction = Pick<
  DatabaseTransaction,
  "indexer" | "transferDerivation" | "withHistoryUnlogged"
>;

export interface IndexerStore {
  /** Outside any transaction (reads, status updates). */
  readonly indexer: Database["indexer"];
  /** Runs `work` in one database transaction: all of it is committed, or none. */
  transaction<T>(work: (tx: IndexerTransaction) => Promise<T>): Promise<T>;
}
