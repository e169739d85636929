/**
 * Store factory: `DATABASE_URL` picks the backend. postgres:// or postgresql:// -> PostgreSQL;
 * anything else is a SQLite file path (the embedded default). Migrations run before the store
 * is returned.
 */
import { databaseKind, redactDatabaseUrl, sqlitePath } from "./database-url.js";
import type { PostgresTimeouts } from "./postgres/connections.js";
import { createPostgresStore } from "./postgres/postgres-store.js";
import { createSqliteStore } from "./sqlite/sqlite-store.js";
import type { Store, StoreLogger } from "./types.js";

export { databaseKind, redactDatabaseUrl } from "./database-url.js";
export { MIGRATIONS, type Migration } from "./migrations/index.js";
export {
  API_POSTGRES_TIMEOUTS,
  BACKGROUND_POSTGRES_TIMEOUTS,
  type PostgresTimeouts,
} from "./postgres/connections.js";
export { createPostgresStore, type PostgresStoreOptions } from "./postgres/postgres-store.js";
export {
  createSqliteStore,
  openSqliteConnection,
  type SqliteStoreOptions,
} from "./sqlite/sqlite-store.js";
export {
  type ChangesSinceOptions,
  createTransferChangeRepository,
  TRANSFER_CHANGE_TYPES,
  type TransferChange,
  type TransferChangePage,
  type TransferChangeRepository,
  type TransferChangeType,
} from "./transfer-change-repository.js";
export { addressKey, amountSortKey, hashKey } from "./transfer-keys.js";
export { transferMatches } from "./transfer-match.js";
export * from "./types.js";

export interface CreateStoreOptions {
  /** postgres://... or a SQLite file path (":memory:" for a throwaway database). */
  databaseUrl: string;
  /** PostgreSQL only: replica for list/get queries (DATABASE_READ_URL). */
  readDatabaseUrl?: string;
  logger?: StoreLogger;
  /**
   * PostgreSQL only: bounds of the store's connections (postgres/connections.ts). Default
   * BACKGROUND_POSTGRES_TIMEOUTS (no query bound); the API passes API_POSTGRES_TIMEOUTS.
   */
  timeouts?: PostgresTimeouts;
}

export async function createStore(options: CreateStoreOptions): Promise<Store> {
  const { databaseUrl, logger } = options;
  if (databaseKind(databaseUrl) === "postgres") {
    const readDatabaseUrl = options.readDatabaseUrl || undefined;
    return createPostgresStore({
      databaseUrl,
      readDatabaseUrl,
      logger,
      ...(options.timeouts !== undefined ? { timeouts: options.timeouts } : {}),
    });
  }
  if (options.readDatabaseUrl) {
    logger?.warn(
      { readDatabaseUrl: redactDatabaseUrl(options.readDatabaseUrl) },
      "read database URL ignored: it applies to PostgreSQL only",
    );
  }
  const path = sqlitePath(databaseUrl);
  return createSqliteStore({ path, logger });
}
