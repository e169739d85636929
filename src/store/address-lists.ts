/**
 * The per-address lists (address_transfers, address_stats; docs/store.md, "Deep pages: seq"):
 * their one owner. Both writers of records maintain them through the same statements: the
 * set-based derivation (derive-transfers.ts) and the record-at-a-time write path
 * (transfer-writes.ts: import, upserts, deletes). A writer only says which rows go and which
 * come:
 *   1. drop: the rows of the transfers staged in address_list_dropped (a deleted record, one
 *      whose addresses changed, the derivation's replaced records) are deleted and their
 *      addresses marked dirty (address_list_dirty);
 *   2. the rows to add are staged in address_list_rows (the derivation selects them from its
 *      batch, the record path sends them as JSON);
 *   3. place: the staged rows are appended where they sort after their address's last row
 *      (seq = total + rank: the live case); an address where one does not, or one marked dirty,
 *      is renumbered with ROW_NUMBER() from its first changed row on, and its stats recomputed.
 *
 * Invariant per address key k (checked by the test suites against a plain ORDER BY):
 *   the address_transfers rows of k have seq 1..total, in (created_at, transfer_id) order, and
 *   address_stats(k) holds total and the greatest (created_at, transfer_id).
 * Updates keep created_at, so they never move a row; the writers copy changed sort columns to
 * the rows themselves.
 *
 * The staging tables are temporary tables, emptied at commit on PostgreSQL: the statements run
 * in the caller's transaction, and those joining address_transfers inside withIndexedJoins.
 */
import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import type { TransferBackend } from "./backend.js";
import type { Dialect } from "./derive-dialect.js";
import { amountSortKey } from "./transfer-keys.js";

/** The record's sort columns each address row copies (besides created_at). */
export const ADDRESS_SORT_COLUMNS = [
  "updated_at",
  "start_time",
  "end_time",
  "send_amount_key",
  "receive_amount_key",
] as const;

const ROW_COLUMNS = ["created_at", ...ADDRESS_SORT_COLUMNS] as const;
const STAGED_COLUMNS = ["address_key", "transfer_id", ...ROW_COLUMNS] as const;

/** A row to add to an address's list (the record path's staging). */
export type StagedAddressRow = { address_key: string; transfer_id: string } & Record<
  (typeof ROW_COLUMNS)[number],
  string
>;

export function addressRow(
  key: string,
  transferId: number,
  record: BridgeTransaction,
): StagedAddressRow {
  return {
    address_key: key,
    transfer_id: String(transferId),
    created_at: record.created_at,
    updated_at: record.updated_at,
    start_time: record.start_time,
    end_time: record.end_time,
    send_amount_key: amountSortKey(record.send_amount),
    receive_amount_key: amountSortKey(record.receive_amount),
  };
}

const DIRTY = "(SELECT address_id FROM address_list_dirty)";

/**
 * PostgreSQL: `address_stats`' row of each staged row's key, probed by its key index from the
 * staged row (`LATERAL`, fenced): the planner may not put address_stats outside. During one
 * long transaction (an import) autovacuum's ANALYZE sees none of its rows and records the
 * table as empty; planned on that, the join scanned all of address_stats and ran the batch's
 * window query once per stats row (one batch of an import ran for over ten minutes).
 */
function statsOf(d: Dialect, outer: string, columns: string): string {
  return d.kind === "postgres"
    ? ` CROSS JOIN LATERAL (SELECT ${columns} FROM address_stats s0 WHERE s0.address_key = ${outer}.address_key${d.planFence}) s`
    : ` JOIN address_stats s ON s.address_key = ${outer}.address_key`;
}

/** The statements of every writer (the derivation's plan tests read them too). */
export function addressListStatements(d: Dialect) {
  const rowColumns = ROW_COLUMNS.join(", ");
  return {
    tables: [
      d.tempTable(
        "address_list_rows",
        `address_key ${d.text} NOT NULL, transfer_id BIGINT NOT NULL, ${ROW_COLUMNS.map(
          (c) => `${c} ${d.text} NOT NULL`,
        ).join(", ")}, PRIMARY KEY (address_key, transfer_id)`,
      ),
      d.tempTable("address_list_dropped", "transfer_id BIGINT PRIMARY KEY"),
      // from: the first row whose seq may be wrong; base: the seq of the row before it.
      d.tempTable(
        "address_list_dirty",
        `address_id BIGINT PRIMARY KEY, from_created_at ${d.text} NOT NULL, from_id BIGINT NOT NULL, base BIGINT`,
      ),
      // The new seq of each row of the dirty lists whose seq changes.
      d.tempTable(
        "address_list_seq",
        "address_id BIGINT NOT NULL, transfer_id BIGINT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (address_id, transfer_id)",
      ),
    ],
    // PostgreSQL: TRUNCATE, not DELETE. Within one transaction (an import's thousands of
    // batches) deleted rows stay in the table until it ends, and every later batch's scans and
    // index probes of it walked all of them: the import was quadratic (backend CPU per 6,000
    // records 1.1, 3.9, 6.0 s). SQLite's DELETE without WHERE empties the table's pages.
    empty: [
      "address_list_rows",
      "address_list_dropped",
      "address_list_dirty",
      "address_list_seq",
    ].map((t) => (d.kind === "postgres" ? `TRUNCATE ${t}` : `DELETE FROM ${t}`)),
    /** The record path's staging: distinct transfer ids, then rows (see addressRow). */
    stageDropped:
      "INSERT INTO address_list_dropped (transfer_id) SELECT CAST(value AS BIGINT)" +
      ` FROM (${d.listRows("?")}) ids`,
    stageRow: `INSERT INTO address_list_rows (${STAGED_COLUMNS.join(", ")}) VALUES (${STAGED_COLUMNS.map(() => "?").join(", ")})`,
    stageRows:
      `INSERT INTO address_list_rows (address_key, transfer_id, ${rowColumns})` +
      ` SELECT address_key, CAST(transfer_id AS BIGINT), ${rowColumns}` +
      ` FROM (${d.rowsFromJson("?", STAGED_COLUMNS)}) r`,
    // Step 1, first of all (address_list_dirty is empty): dirty from the first dropped row.
    dirtyDropped:
      "INSERT INTO address_list_dirty (address_id, from_created_at, from_id)" +
      " SELECT address_id, created_at, transfer_id FROM (SELECT a.address_id, a.created_at, a.transfer_id," +
      " ROW_NUMBER() OVER (PARTITION BY a.address_id ORDER BY a.created_at, a.transfer_id) AS rn" +
      ` FROM address_transfers a WHERE ${d.inList("a.transfer_id", "SELECT transfer_id FROM address_list_dropped")}) f` +
      " WHERE rn = 1",
    deleteDropped: `DELETE FROM address_transfers WHERE ${d.inList("transfer_id", "SELECT transfer_id FROM address_list_dropped")}`,
    // Step 3. Stats rows are created (total 0) and locked in key order.
    lockStats:
      "INSERT INTO address_stats (address_key, total, last_created_at, last_id)" +
      " SELECT k, 0, '', 0 FROM (SELECT address_key AS k FROM address_list_rows UNION" +
      ` SELECT address_key FROM address_stats WHERE ${d.inList("address_id", "SELECT address_id FROM address_list_dirty")}) keys` +
      ` WHERE true ORDER BY k ${d.statsUpsertTail}`,
    // Dirty from its first staged row: an address whose staged rows do not all sort after its
    // last row, or one already dirty (then from the earlier of the two).
    dirtyBehind:
      "INSERT INTO address_list_dirty (address_id, from_created_at, from_id)" +
      " SELECT s.address_id, f.created_at, f.transfer_id FROM (SELECT address_key, created_at, transfer_id," +
      " ROW_NUMBER() OVER (PARTITION BY address_key ORDER BY created_at, transfer_id) AS rn" +
      ` FROM address_list_rows) f${statsOf(d, "f", "s0.address_id, s0.total, s0.last_created_at, s0.last_id")}` +
      ` WHERE f.rn = 1 AND (s.address_id IN ${DIRTY} OR (s.total > 0` +
      " AND (f.created_at, f.transfer_id) < (s.last_created_at, s.last_id)))" +
      ` ON CONFLICT (address_id) DO UPDATE SET ${["from_created_at", "from_id"]
        .map(
          (c) =>
            `${c} = CASE WHEN (excluded.from_created_at, excluded.from_id) <` +
            ` (address_list_dirty.from_created_at, address_list_dirty.from_id)` +
            ` THEN excluded.${c} ELSE address_list_dirty.${c} END`,
        )
        .join(", ")}`,
    insertRows:
      `INSERT INTO address_transfers (address_id, transfer_id, seq, ${rowColumns})` +
      " SELECT s.address_id, r.transfer_id, s.total + ROW_NUMBER() OVER (PARTITION BY s.address_id" +
      ` ORDER BY r.created_at, r.transfer_id), ${ROW_COLUMNS.map((c) => `r.${c}`).join(", ")}` +
      ` FROM address_list_rows r${statsOf(d, "r", "s0.address_id, s0.total")}`,
    // PostgreSQL: the rows to update found by their key index from the batch's keys, and each
    // one's values by correlated subqueries on the staged rows' key, so no plan can scan all of
    // address_stats (statsOf says why).
    statsAppended:
      d.kind === "postgres"
        ? "UPDATE address_stats SET total = address_stats.total + (SELECT COUNT(*) FROM address_list_rows r" +
          " WHERE r.address_key = address_stats.address_key), (last_created_at, last_id) = (SELECT" +
          " r.created_at, r.transfer_id FROM address_list_rows r WHERE r.address_key = address_stats.address_key" +
          " ORDER BY r.created_at DESC, r.transfer_id DESC LIMIT 1)" +
          ` WHERE ${d.inList("address_key", "SELECT address_key FROM address_list_rows")}` +
          ` AND address_id NOT IN ${DIRTY}`
        : "UPDATE address_stats SET total = address_stats.total + n.added, last_created_at = n.created_at," +
          " last_id = n.transfer_id FROM (SELECT address_key, created_at, transfer_id," +
          " COUNT(*) OVER (PARTITION BY address_key) AS added, ROW_NUMBER() OVER (PARTITION BY" +
          " address_key ORDER BY created_at DESC, transfer_id DESC) AS rn FROM address_list_rows) n" +
          ` WHERE n.rn = 1 AND address_stats.address_key = n.address_key AND address_stats.address_id NOT IN ${DIRTY}`,
    // The rows before `from` kept their seq (drops and staged rows are at or after it).
    dirtyBase:
      "UPDATE address_list_dirty SET base = COALESCE((SELECT p.seq FROM address_transfers p" +
      " WHERE p.address_id = address_list_dirty.address_id AND (p.created_at, p.transfer_id) <" +
      " (address_list_dirty.from_created_at, address_list_dirty.from_id)" +
      " ORDER BY p.created_at DESC, p.transfer_id DESC LIMIT 1), 0)",
    // Only the rows from `from` on, base + 1, ...: the cost is the rows after the first
    // change, usually few (records arrive roughly in created_at order). The dirty lists drive
    // the index range scans (PostgreSQL: LATERAL; SQLite: CROSS JOIN keeps them outer).
    newSeq:
      "INSERT INTO address_list_seq (address_id, transfer_id, seq) SELECT address_id, transfer_id, seq" +
      " FROM (SELECT a.address_id, a.transfer_id, a.seq AS stored, x.base + ROW_NUMBER() OVER" +
      " (PARTITION BY a.address_id ORDER BY a.created_at, a.transfer_id) AS seq FROM address_list_dirty x" +
      (d.kind === "postgres"
        ? " CROSS JOIN LATERAL (SELECT b.address_id, b.transfer_id, b.created_at, b.seq FROM address_transfers b" +
          ` WHERE b.address_id = x.address_id AND (b.created_at, b.transfer_id) >= (x.from_created_at, x.from_id)${d.planFence}) a`
        : " CROSS JOIN address_transfers a ON a.address_id = x.address_id" +
          " AND (a.created_at, a.transfer_id) >= (x.from_created_at, x.from_id)") +
      ") r WHERE seq <> stored",
    // Through the transfer_id index; `+address_id` (a no-op on both backends) keeps SQLite's
    // planner from scanning the address's whole (address_id, ...) index instead: without
    // statistics it cannot tell that one transfer_id matches at most two rows, while one address
    // may hold 100,000 (that mistake made one renumber O(n^2)).
    renumber:
      "UPDATE address_transfers SET seq = (SELECT r.seq FROM address_list_seq r" +
      " WHERE r.address_id = address_transfers.address_id AND r.transfer_id = address_transfers.transfer_id)" +
      ` WHERE ${d.inList("transfer_id", "SELECT transfer_id FROM address_list_seq")}` +
      " AND (+address_id, transfer_id) IN (SELECT address_id, transfer_id FROM address_list_seq)",
    // After the renumbering the greatest seq is the count.
    statsDirty: `UPDATE address_stats SET total = COALESCE((SELECT a.seq FROM address_transfers a WHERE a.address_id = address_stats.address_id ORDER BY a.seq DESC LIMIT 1), 0), last_created_at = COALESCE((SELECT a.created_at FROM address_transfers a WHERE a.address_id = address_stats.address_id ORDER BY a.created_at DESC, a.transfer_id DESC LIMIT 1), ''), last_id = COALESCE((SELECT a.transfer_id FROM address_transfers a WHERE a.address_id = address_stats.address_id ORDER BY a.created_at DESC, a.transfer_id DESC LIMIT 1), 0) WHERE ${d.inList("address_id", "SELECT address_id FROM address_list_dirty")}`,
  };
}

export type AddressListStatements = ReturnType<typeof addressListStatements>;

/** Runs the statements of the steps above for one writer, in the caller's transaction. */
export function createAddressLists(backend: TransferBackend, d: Dialect) {
  const q = addressListStatements(d);
  const run = (text: string, params: readonly unknown[] = []) => backend.sql.run(text, params);

  /** Creates (once per connection) and empties the staging tables. */
  async function begin(): Promise<void> {
    for (const text of q.tables) await run(text);
    for (const text of q.empty) await run(text);
  }

  /** Step 1: the staged dropped transfers leave every list. Inside withIndexedJoins. */
  async function drop(): Promise<void> {
    await run(q.dirtyDropped);
    await run(q.deleteDropped);
  }

  /** Step 3: the staged rows join their lists, dirty lists are renumbered. Inside withIndexedJoins. */
  async function place(): Promise<void> {
    await run(q.lockStats);
    await run(q.dirtyBehind);
    await run(q.insertRows);
    await run(q.statsAppended);
    await run(q.dirtyBase);
    await run(q.newSeq);
    await run(q.renumber);
    await run(q.statsDirty);
  }

  /**
   * The record path's one call per batch: the transfers `dropped` leave their lists (a delete,
   * or a record whose addresses changed: it comes back through `rows`), `rows` are added.
   */
  async function update(
    dropped: readonly number[],
    rows: readonly StagedAddressRow[],
  ): Promise<void> {
    if (dropped.length === 0 && rows.length === 0) return;
    await begin();
    await backend.bulk.withIndexedJoins(async () => {
      if (dropped.length > 0) {
        await run(q.stageDropped, [d.listParam([...new Set(dropped)].map(String))]);
        await drop();
      }
      if (d.kind === "postgres") {
        if (rows.length > 0) await run(q.stageRows, [JSON.stringify(rows)]);
      } else {
        // In-process: a prepared statement per row costs less than parsing them from JSON.
        for (const row of rows) {
          await run(
            q.stageRow,
            STAGED_COLUMNS.map((c) => row[c]),
          );
        }
      }
      await place();
    });
  }

  return { drop, place, update };
}
