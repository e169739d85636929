/**
 * What the shared transfer repository needs from a database backend. Most SQL is shared text
 * with `?` placeholders (the PostgreSQL executor numbers them); the bulk operations differ per
 * backend because the fast path differs: SQLite runs cached prepared statements row by row
 * in-process, PostgreSQL sends one `unnest(...)` statement per batch to save round trips.
 */
import type { BridgeTransaction } from "../domain/bridge-transaction.js";

export interface SqlExecutor {
  /** Runs a query and returns its rows. Statements are prepared once per SQL text. */
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a statement and returns the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

export interface StoredTransfer {
  id: number;
  record: BridgeTransaction;
}

export interface TransferBulkOps {
  findByMessageKeys(messageKeys: readonly string[]): Promise<StoredTransfer[]>;
  /**
   * Inserts new transfers; returns message_key -> id of the inserted rows. A row whose
   * message_key already exists (a concurrent writer won) is skipped and absent from the map.
   */
  insertTransfers(
    records: readonly BridgeTransaction[],
    /** The id of the record's row in transfer_routes (transfer-routes.ts). */
    routeIdOf: (record: BridgeTransaction) => number,
  ): Promise<Map<string, number>>;
  /**
   * Runs `work`, whose statements join a few rows (at most a few hundred VALUES rows, or an
   * address's renumbered tail) to a large table on an indexed key (transfer-writes' bulk
   * updates, address-lists.ts), with the planner held to index lookups, inside the caller's
   * transaction. On PostgreSQL: hash joins, merge joins and sequential scans off, then back to
   * what they were. PostgreSQL plans such a join from the table's statistics; a table that grew
   * without any (a backfill outruns autovacuum's first ANALYZE) is taken to hold 200 distinct
   * keys, so each statement became a hash join over a sequential scan of the whole table, and a
   * backfill's delivery updates grew with the table: quadratic (15.5 s of a 100,000-transfer
   * backfill's 46 s went to one such UPDATE). SQLite's planner probes the index already.
   */
  withIndexedJoins<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work`, statements that join only the rows of one batch held in temporary tables (the
   * set-based derivation's SELECT), with the planner held to hash (or merge) joins. On
   * PostgreSQL: nested loops off, then back to what they were. A temporary table has no
   * statistics and the derivation's CTEs filter by window functions, so the planner takes them
   * for a row or two and joins them by nested loops: quadratic in the batch (a backfill's batch of
   * 5,000 messages took 8 s). SQLite builds automatic indexes for such joins.
   */
  withBatchJoins<T>(work: () => Promise<T>): Promise<T>;
}

export interface TransferBackend {
  /** Which database: the dialect of the SQL shared by both (derive-dialect.ts). */
  kind: "sqlite" | "postgres";
  sql: SqlExecutor;
  bulk: TransferBulkOps;
}
