/**
 * The store's public face: `openDatabase` (database.ts) and what its callers need beside it.
 */
import { type Database, type OpenDatabaseOptions, openDatabase } from "./database.js";
import type { PostgresTimeouts } from "./postgres/connections.js";
import type { StoreLogger } from "./types.js";

export {
  type ChangeNotifications,
  type Database,
  type DatabaseTransaction,
  type OpenDatabaseOptions,
  openDatabase,
  type TransferWrites,
} from "./database.js";
export { databaseKind } from "./database-url.js";
export { MIGRATIONS, type Migration } from "./migrations/index.js";
export {
  API_POSTGRES_TIMEOUTS,
  BACKGROUND_POSTGRES_TIMEOUTS,
  type PostgresTimeouts,
} from "./postgres/connections.js";
export { createRepositories, type Repositories } from "./repositories.js";
export { openSqliteConnection, openSqliteWriter } from "./sqlite/sqlite-database.js";
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
  /** PostgreSQL only: bounds of the pools (OpenDatabaseOptions.timeouts). */
  timeouts?: PostgresTimeouts;
}

/** `openDatabase` with the URL among the options (the older spelling). */
export function createStore(options: CreateStoreOptions): Promise<Database> {
  const { databaseUrl, ...rest } = options;
  const opened: OpenDatabaseOptions = rest;
  return openDatabase(databaseUrl, opened);
}
