/**
 * The indexer's transactional access to the database: its own connection (SQLite) or pool
 * (PostgreSQL) on which a batch writes raw events, block hashes, the cursor AND the derived
 * transfers in one transaction. Built from the store's own pieces (migrations via createStore,
 * createSqliteBackend / createPostgresBackend, createTransferRepository), because the Store
 * interface does not expose its SQL executor inside transaction(); once it does, this module
 * becomes a thin adapter over Store.transaction. It lives in indexer/ with the batch writer and
 * worker that run writeBatch, as the indexer's adapter onto store/: store/ never imports
 * indexer/ (it holds the tables and their SQL; what a batch means is the indexer's).
 */
import { availableParallelism } from "node:os";
import { databaseKind, sqlitePath } from "../../store/database-url.js";
import { createStore } from "../../store/index.js";
import { createIndexerRepository } from "../../store/indexer-repository.js";
import {
  BACKGROUND_POSTGRES_TIMEOUTS,
  createPostgresPool,
  type PostgresTimeouts,
  runPostgresTransaction,
} from "../../store/postgres/connections.js";
import { createPostgresBackend } from "../../store/postgres/postgres-backend.js";
import { createSerialQueue } from "../../store/scoped-store.js";
import { createSqliteBackend } from "../../store/sqlite/sqlite-backend.js";
import type { StoreLogger } from "../../store/types.js";
import type { IndexerStore } from "../indexer-store.js";
import { type BatchWriter, createBatchWriter } from "./indexer-batch-writer.js";
import {
  openIndexerSqlite,
  runSqliteTransaction,
  transactionOn,
} from "./indexer-sqlite-transaction.js";

export interface OpenIndexerStoreOptions {
  /** Same as DATABASE_URL: postgres://... or a SQLite file path. */
  databaseUrl: string;
  /**
   * SQLite: write batches on a worker thread (src/indexer/store/indexer-batch-worker.ts) instead of the
   * main thread. Default: only with more than 2 cores. On the 2-core bench machine, where the
   * node and other processes already take the second core, the thread's overhead (its own
   * start-up, copying each batch to it) made backfills slower (docs/indexer.md).
   */
  batchWorker?: boolean;
  /**
   * PostgreSQL: bounds of the pool (postgres/connections.ts). Default
   * BACKGROUND_POSTGRES_TIMEOUTS: an indexer batch may run long statements, so no query bound.
   * `serve` reads the indexer status through this store and passes the API's.
   */
  timeouts?: PostgresTimeouts;
  /** Where the migrations' start-up lines go (as `serve`'s store writes them); none if unset. */
  logger?: StoreLogger;
}

export interface ClosableIndexerStore extends IndexerStore {
  readonly kind: "sqlite" | "postgres";
  close(): Promise<void>;
}

export async function openIndexerStore(
  options: OpenIndexerStoreOptions,
): Promise<ClosableIndexerStore> {
  // Runs the migrations (the store's and ours) exactly as `serve` would.
  const timeouts = options.timeouts ?? BACKGROUND_POSTGRES_TIMEOUTS;
  const migrated = await createStore({
    databaseUrl: options.databaseUrl,
    timeouts,
    ...(options.logger !== undefined ? { logger: options.logger } : {}),
  });
  await migrated.close();
  return databaseKind(options.databaseUrl) === "postgres"
    ? openPostgres(options.databaseUrl, timeouts)
    : openSqlite(options.databaseUrl, options.batchWorker ?? availableParallelism() > 2);
}

function openSqlite(databaseUrl: string, worker: boolean): ClosableIndexerStore {
  const path = sqlitePath(databaseUrl);
  if (path === ":memory:" || path === "") {
    throw new Error("the indexer needs a database file (or PostgreSQL), not :memory:");
  }
  const connection = openIndexerSqlite(path);
  const root = createSqliteBackend(connection.prepare);
  // Every indexer transaction of the process, on this connection or the batch worker's, runs
  // in turn: one SQLite writer at a time, and no thread ever waits on the other's lock.
  const queue = createSerialQueue();
  let batches: BatchWriter | undefined;
  return {
    kind: "sqlite",
    indexer: createIndexerRepository(root.sql, "sqlite"),
    transaction: (work) => queue(() => runSqliteTransaction(connection, work)),
    commitBatch(batch, registry) {
      batches ??= createBatchWriter({ path, connection, registry, serialise: queue, worker });
      return batches.write(batch);
    },
    async close() {
      await queue(async () => undefined);
      await batches?.close();
      connection.db.close();
    },
  };
}

function openPostgres(databaseUrl: string, timeouts: PostgresTimeouts): ClosableIndexerStore {
  // An idle client dropping is ignored: the next query reconnects.
  const pooled = createPostgresPool({ url: databaseUrl, max: 4, timeouts });
  const pool = pooled.pool;
  return {
    kind: "postgres",
    indexer: createIndexerRepository(createPostgresBackend(pool).sql, "postgres"),
    transaction: (work) =>
      runPostgresTransaction(pool, async (client) => {
        let open = true;
        const backend = createPostgresBackend(client, () => {
          if (!open) throw new Error("indexer transaction has ended");
        });
        try {
          return await work(transactionOn(backend, "postgres"));
        } finally {
          open = false;
        }
      }),
    close: () => pooled.end(),
  };
}
