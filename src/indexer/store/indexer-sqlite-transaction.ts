/**
 * The indexer's SQLite connection and transactions (src/indexer/store/open-indexer-store.ts):
 * the store's pragmas, one BEGIN IMMEDIATE ... COMMIT per transaction with repositories bound
 * to it.
 */
import type Database from "better-sqlite3";
import type { TransferBackend } from "../../store/backend.js";
import { createTransferDerivation } from "../../store/derive-transfers.js";
import { createIndexerRepository } from "../../store/indexer-repository.js";
import {
  createSqliteBackend,
  createStatementCache,
  type StatementCache,
} from "../../store/sqlite/sqlite-backend.js";
import { openSqliteConnection } from "../../store/sqlite/sqlite-store.js";
import { createTransferWrites } from "../../store/transfer-writes.js";
import type { IndexerTransaction } from "../indexer-store.js";

export interface IndexerSqliteConnection {
  db: Database.Database;
  prepare: StatementCache;
}

export function openIndexerSqlite(path: string): IndexerSqliteConnection {
  // The store's own pragmas, 512 MB page-cache ceiling included: with the default 2 MB, a
  // backfill's random-key inserts into the transfer and address indexes thrash the cache.
  const db = openSqliteConnection(path, 10_000);
  // A backfill batch dirties thousands of pages; checkpointing every 1,000 (the default) copies
  // the same index pages back to the file over and over. 10,000 pages (~40 MB of WAL) between
  // checkpoints coalesces those writes; readers are unaffected.
  db.pragma("wal_autocheckpoint = 10000");
  return { db, prepare: createStatementCache(db) };
}

export function transactionOn(
  backend: TransferBackend,
  kind: "sqlite" | "postgres",
): IndexerTransaction {
  return {
    indexer: createIndexerRepository(backend.sql, kind),
    // Already inside the batch's transaction: the writes are atomic with everything else.
    transfers: createTransferWrites(backend),
    records: createTransferDerivation(backend, kind),
  };
}

/** Runs `work` in one transaction on the connection (the caller serialises calls). */
export async function runSqliteTransaction<T>(
  { db, prepare }: IndexerSqliteConnection,
  work: (tx: IndexerTransaction) => Promise<T>,
): Promise<T> {
  let open = true;
  const backend = createSqliteBackend(prepare, () => {
    if (!open) throw new Error("indexer transaction has ended");
  });
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = await work(transactionOn(backend, "sqlite"));
    db.exec("COMMIT");
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw error;
  } finally {
    open = false;
  }
}
