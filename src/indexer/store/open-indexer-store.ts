/**
 * The indexer's transactional access to the database: its own connection (SQLite) or pool
 * (PostgreSQL) on which a batch writes raw events, block hashes, the cursor AND the derived
 * transfers in one transaction. Built from the store's own pieces (migrations via createStore,
 * createSqliteBackend / createPostgresBackend, createTransferRepository), because the Store
 * interface does not expose its SQL executor inside transaction(); once it does, this module
 * becomes a thin adapter over Store.transaction. It lives in indexer/ as the indexer's adapter
 * onto store/: store/ never imports
 * indexer/ (it holds the tables and their SQL; what a batch means is the indexer's).
 */
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
import {
  openIndexerSqlite,
  runSqliteTransaction,
  transactionOn,
} from "./indexer-sqlite-transaction.js";

export interface OpenIndexerStoreOptions {
  /** Same as DATABASE_URL: postgres://... or a SQLite file path. */
  databaseUrl: string;
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
    : openSqlite(options.databaseUrl);
}

function openSqlite(databaseUrl: string): ClosableIndexerStore {
  const path = sqlitePath(databaseUrl);
  if (path === ":memory:" || path === "") {
    throw new Error("the indexer needs a database file (or PostgreSQL), not :memory:");
  }
  const connection = openIndexerSqlite(path);
  const root = createSqliteBackend(connection.prepare);
  // Every indexer transaction of the process runs in turn: one SQLite writer at a time.
  const queue = createSerialQueue();
  return {
    kind: "sqlite",
    indexer: createIndexerRepository(root.sql, "sqlite"),
    transaction: (work) => queue(() => runSqliteTransaction(connection, work)),
    async close() {
      await queue(async () => undefined);
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
