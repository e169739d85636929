/**
 * What openDatabase (database.ts) returns and both backends (sqlite/, postgres/) build: apart
 * from database.ts, which imports the backends, so that they do not import it back.
 */
import type { ListIndexes } from "./address-list-indexes.js";
import type { HistoryBlocks } from "./change-log-horizon.js";
import type { TransferDerivation } from "./derive-transfers.js";
import type { PostgresTimeouts } from "./postgres/connections.js";
import type { Repositories } from "./repositories.js";
import type { createTransferWrites } from "./transfer-writes.js";
import type { Store, StoreLogger } from "./types.js";

/** The transfer write path without a savepoint of its own (src/store/transfer-writes.ts). */
export type TransferWrites = ReturnType<typeof createTransferWrites>;

/** The repositories bound to one open transaction (the argument of `transaction(fn)`). */
export interface DatabaseTransaction extends Store, Repositories {
  readonly transfers: Repositories["transfers"];
  /**
   * The transfer writes straight on the transaction, no savepoint per call (`import`'s batches:
   * inside a savepoint, each SQLite statement that fires the change log's triggers walks the
   * savepoint's in-memory sub-journal when it ends, so each costs more than the one before;
   * docs/push.md, "Not guaranteed").
   * `transfers.upsertTransfers` runs in a savepoint, so a caller may catch its failure.
   */
  readonly transferWrites: TransferWrites;
  /**
   * The indexer's records derived set-based from the stored raw events and written in this
   * transaction (derive-transfers.ts); its temporary tables live only inside a transaction.
   */
  readonly transferDerivation: TransferDerivation;
  /**
   * Runs `work` (this transaction's writes of history: `import`'s, an indexer batch's
   * derivation) with no change-log rows when they are history nobody subscribed to
   * (change-log-horizon.ts; docs/push.md): nobody has subscribed yet, or, for `blocks` (the
   * indexer batches whose events these are), all of them were final before the first
   * subscription.
   */
  withHistoryUnlogged<T>(
    work: () => Promise<T>,
    blocks?: HistoryBlocks | readonly HistoryBlocks[],
  ): Promise<T>;
  /**
   * The address lists' indexes on this transaction's connection: the bulk path's steps
   * (address-list-indexes.ts; bulk-load.ts runs them).
   */
  readonly listIndexes: ListIndexes;
  /** A savepoint: `work` is undone alone when it rejects. */
  transaction<T>(work: (tx: DatabaseTransaction) => Promise<T>): Promise<T>;
}

/** Hearing about commits of other connections and processes, for caches. */
export interface ChangeNotifications {
  /**
   * PostgreSQL: subscribes `onChange` to API-key changes anywhere (the NOTIFY of migration
   * 0006, on a listening connection opened by the first subscription); also called after every
   * reconnection of that connection. Absent on SQLite, where the key cache's poll suffices.
   */
  readonly subscribeApiKeys?: (onChange: () => void) => void;
}

export interface Database extends Store, Repositories {
  readonly transfers: Repositories["transfers"];
  /**
   * Runs `fn` in one database transaction with the repositories bound to it; commits when it
   * resolves, rolls back when it rejects (nothing of it is visible afterwards).
   */
  transaction<T>(fn: (tx: DatabaseTransaction) => Promise<T>): Promise<T>;
  readonly changes: ChangeNotifications;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL only: replica for list/get queries (DATABASE_READ_URL). */
  readDatabaseUrl?: string | undefined;
  logger?: StoreLogger | undefined;
  /**
   * PostgreSQL: bounds of the connections serving requests: reads outside transactions, API
   * keys, the indexer status (postgres/connections.ts). Default BACKGROUND_POSTGRES_TIMEOUTS (no
   * query bound); `serve`, `start` and `keys` pass API_POSTGRES_TIMEOUTS.
   */
  timeouts?: PostgresTimeouts | undefined;
  /**
   * PostgreSQL: bounds of `transaction()` and of the indexer's statements. Default `timeouts`
   * (one pool); `start`, which runs the indexer beside the API, passes
   * BACKGROUND_POSTGRES_TIMEOUTS, and gets a second pool for them.
   */
  backgroundTimeouts?: PostgresTimeouts | undefined;
  /** PostgreSQL: the listening connections' heartbeat; default LISTENER_HEARTBEAT (tests). */
  listenerHeartbeat?: { readonly intervalMs: number; readonly timeoutMs: number } | undefined;
  /** SQLite: how long to wait for another process's write lock, ms. Default 5000. */
  busyTimeoutMs?: number | undefined;
  /**
   * false: apply no migration, and refuse a database that lacks one (a command that only reads,
   * `index --status`, must not change the schema). Default true.
   */
  migrate?: boolean | undefined;
}
