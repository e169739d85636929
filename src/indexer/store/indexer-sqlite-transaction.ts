/**
 * The indexer's SQLite connection and transactions, shared by the main thread's store
 * (src/indexer/store/open-indexer-store.ts) and the batch worker (src/indexer/store/indexer-batch-worker.ts): the
 * same pragmas, one BEGIN IMMEDIATE ... COMMIT per transaction with repositories bound to it,
 * and the grouped batch writes of either.
 */
import type Database from "better-sqlite3";
import { errorMessage } from "../../errors.js";
import type { TransferBackend } from "../../store/backend.js";
import { createIndexerRepository, type TokenMetadataRow } from "../../store/indexer-repository.js";
import {
  createSqliteBackend,
  createStatementCache,
  type StatementCache,
} from "../../store/sqlite/sqlite-backend.js";
import { openSqliteConnection } from "../../store/sqlite/sqlite-database.js";
import { createTransferWrites } from "../../store/transfer-writes.js";
import { createBridgeRegistry, type RegistrySource } from "../bridge-registry.js";
import type { DeriveContext, TokenMetadata } from "../derive-transfer.js";
import type { IndexerTransaction } from "../indexer-store.js";
import { type IndexedBatch, writeBatch } from "../write-batch.js";

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

/**
 * Writes batches that queued up together: ONE transaction, the batches in order, each seeing
 * the ones before it exactly as separate transactions in that order would; one commit instead
 * of several writes the shared index pages once. When a batch fails, the transaction is rolled
 * back whole and the batches are written again one transaction each, so the failing one fails
 * alone and the others commit. Returns, per batch, why it was rolled back (undefined:
 * committed).
 *
 * No savepoint per batch: inside an open savepoint, SQLite's cost of a statement such as
 * `UPDATE address_transfers SET ... WHERE transfer_id = ?` grows with what the savepoint has
 * already changed (dev, on a copy of a database 30 s into a 100,000-transfer backfill:
 * 0.03-0.04 ms each in a plain transaction; inside one savepoint 0.2-0.5 ms each over the
 * first 2,000 and 12 ms each from the 6,001st to the 8,000th), so a large batch's row-by-row
 * statements turned quadratic (a backfill made to write every delivery's update row by row
 * took 683 s with a savepoint per batch, 29 s without and timed statement by statement). A
 * failure is rare (the cursor moved under another writer, a full disk); writing the group
 * again then costs little by comparison.
 */
export async function writeBatchGroup(
  connection: IndexerSqliteConnection,
  batches: readonly IndexedBatch[],
  context: BatchContext,
): Promise<(string | undefined)[]> {
  try {
    await runSqliteTransaction(connection, async (tx) => {
      for (const batch of batches) {
        context.learn(batch.tokens);
        await writeBatch(tx, batch, context);
      }
    });
    return batches.map(() => undefined);
  } catch (error) {
    if (batches.length === 1) return [errorMessage(error)];
    const errors: (string | undefined)[] = [];
    for (const batch of batches)
      errors.push(...(await writeBatchGroup(connection, [batch], context)));
    return errors;
  }
}

/** Derivation context of batches written by the store: the registry and the tokens it saw. */
export interface BatchContext extends DeriveContext {
  /** Token metadata carried by a batch (and stored with it). */
  learn(tokens: readonly TokenMetadataRow[]): void;
}

/** The registry from its source; token metadata from the database, then from each batch. */
export async function createBatchContext(
  connection: IndexerSqliteConnection,
  source: RegistrySource,
): Promise<BatchContext> {
  const registry = createBridgeRegistry(source.chains, source.bridges);
  const tokens = new Map<string, TokenMetadata>();
  const key = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`;
  const learn = (rows: readonly TokenMetadataRow[]) => {
    for (const t of rows) tokens.set(key(t.chainId, t.address), t);
  };
  const repository = createIndexerRepository(createSqliteBackend(connection.prepare).sql, "sqlite");
  learn(await repository.loadTokenMetadata());
  return { registry, token: (chainId, address) => tokens.get(key(chainId, address)), learn };
}
