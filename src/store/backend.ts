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

/** One row of address_transfers. */
export interface AddressRow {
  addressKey: string;
  /** address_stats.address_id of addressKey; 0 until the stats row is known. */
  addressId: number;
  transferId: number;
  seq: number;
  createdAt: string;
  updatedAt: string;
  startTime: string;
  endTime: string;
  sendAmountKey: string;
  receiveAmountKey: string;
}

/** One row of address_stats. (lastCreatedAt, lastId) is the greatest of the address's rows. */
export interface AddressStats {
  addressId: number;
  addressKey: string;
  total: number;
  lastCreatedAt: string;
  lastId: number;
}

/** address_stats rows (either backend) keyed by address_key. */
export function addressStatsByKey(
  rows: readonly Record<string, unknown>[],
): Map<string, AddressStats> {
  return new Map(
    rows.map((row): [string, AddressStats] => [
      String(row.address_key),
      {
        addressId: Number(row.address_id),
        addressKey: String(row.address_key),
        total: Number(row.total),
        lastCreatedAt: String(row.last_created_at),
        lastId: Number(row.last_id),
      },
    ]),
  );
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
  insertTransfers(records: readonly BridgeTransaction[]): Promise<Map<string, number>>;
  insertAddressRows(rows: readonly AddressRow[]): Promise<void>;
  /**
   * Returns the stats of each key (with its address_id), creating missing rows (total 0). On PostgreSQL the rows stay
   * locked until the transaction ends, which serialises seq maintenance per address; keys are
   * locked in the given (sorted) order so two writers cannot deadlock.
   */
  lockAddressStats(addressKeys: readonly string[]): Promise<Map<string, AddressStats>>;
  writeAddressStats(stats: readonly AddressStats[]): Promise<void>;
  /**
   * Runs `work`, whose statements join a few rows (at most a few hundred VALUES rows, or an
   * address's renumbered tail) to a large table on an indexed key (transfer-writes' bulk
   * updates and renumbering), with the planner held to index lookups, inside the caller's
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
  sql: SqlExecutor;
  bulk: TransferBulkOps;
}
