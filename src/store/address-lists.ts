/**
 * The per-address lists (address_transfers, address_stats; docs/store.md, "Deep pages: seq"):
 * their one owner. Both writers of records call it: the record-at-a-time write path
 * (transfer-writes.ts: import, upserts, deletes) through createAddressLists, the set-based
 * derivation (derive-transfers.ts) through addressListStatements.
 *
 * Invariant per address key k (checked by the test suites against a plain ORDER BY):
 *   the address_transfers rows of k have seq 1..total, in (created_at, transfer_id) order, and
 *   address_stats(k) holds total and the greatest (created_at, transfer_id).
 * Maintained per batch: new rows of k that all sort after the stored last one append
 * (seq = total + 1, ...: the live case, O(1) per row); otherwise the rows of k are renumbered
 * with ROW_NUMBER() (record at a time: from the smallest new row onwards; set-based: the whole
 * address, marked dirty) and its stats recomputed. Updates keep created_at, so they never move
 * a row.
 */
import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import type { AddressRow, AddressStats, TransferBackend } from "./backend.js";
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

const PREDECESSOR_SEQ_SQL =
  "SELECT seq FROM address_transfers WHERE address_id = ? AND (created_at, transfer_id) < (?, ?)" +
  " ORDER BY created_at DESC, transfer_id DESC LIMIT 1";

// `+address_id` (a no-op on both backends) keeps SQLite's planner from scanning the address's
// whole (address_id, ...) index instead of using the index on transfer_id: without statistics
// it cannot tell that one transfer_id matches at most two rows, while one address may hold
// 100,000 (that mistake made one renumber O(n^2)).
const RENUMBER_SQL =
  "UPDATE address_transfers SET seq = ? + r.rn FROM (" +
  "SELECT transfer_id, ROW_NUMBER() OVER (ORDER BY created_at, transfer_id) AS rn" +
  " FROM address_transfers WHERE address_id = ? AND (created_at, transfer_id) >= (?, ?)) r" +
  " WHERE +address_transfers.address_id = ? AND address_transfers.transfer_id = r.transfer_id";

const LAST_ROW_SQL =
  "SELECT created_at, transfer_id FROM address_transfers WHERE address_id = ?" +
  " ORDER BY created_at DESC, transfer_id DESC LIMIT 1";

function compareRows(aCreated: string, aId: number, bCreated: string, bId: number): number {
  if (aCreated !== bCreated) return aCreated < bCreated ? -1 : 1;
  return aId - bId;
}

export function addressRow(key: string, transferId: number, record: BridgeTransaction): AddressRow {
  return {
    addressKey: key,
    addressId: 0,
    transferId,
    seq: 0,
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    startTime: record.start_time,
    endTime: record.end_time,
    sendAmountKey: amountSortKey(record.send_amount),
    receiveAmountKey: amountSortKey(record.receive_amount),
  };
}

/** The record-at-a-time maintenance: rows placed and removed keeping the invariant. */
export function createAddressLists(backend: TransferBackend) {
  const { sql, bulk } = backend;

  /** Adds rows for addresses, keeping the seq invariant (see top of file). */
  async function placeAddressRows(rows: AddressRow[]): Promise<void> {
    if (rows.length === 0) return;
    const byKey = new Map<string, AddressRow[]>();
    for (const row of rows) {
      const list = byKey.get(row.addressKey);
      if (list) list.push(row);
      else byKey.set(row.addressKey, [row]);
    }
    const keys = [...byKey.keys()].sort();
    const stats = await bulk.lockAddressStats(keys);
    const renumberFrom: AddressRow[] = [];
    const newStats: AddressStats[] = [];
    for (const key of keys) {
      const list = byKey.get(key)!;
      list.sort((a, b) => compareRows(a.createdAt, a.transferId, b.createdAt, b.transferId));
      const current = stats.get(key)!;
      for (const row of list) row.addressId = current.addressId;
      const first = list[0]!;
      const last = list[list.length - 1]!;
      const appends =
        current.total === 0 ||
        compareRows(first.createdAt, first.transferId, current.lastCreatedAt, current.lastId) > 0;
      if (appends) {
        list.forEach((row, i) => {
          row.seq = current.total + i + 1;
        });
      } else {
        renumberFrom.push(first);
      }
      const lastIsNew =
        current.total === 0 ||
        compareRows(last.createdAt, last.transferId, current.lastCreatedAt, current.lastId) > 0;
      newStats.push({
        addressId: current.addressId,
        addressKey: key,
        total: current.total + list.length,
        lastCreatedAt: lastIsNew ? last.createdAt : current.lastCreatedAt,
        lastId: lastIsNew ? last.transferId : current.lastId,
      });
    }
    await bulk.insertAddressRows(rows);
    if (renumberFrom.length > 0) {
      // RENUMBER_SQL joins the address's tail to address_transfers on transfer_id, as the bulk
      // updates do: index probes, not a scan of the table (TransferBulkOps.withIndexedJoins).
      await bulk.withIndexedJoins(async () => {
        for (const first of renumberFrom) {
          const predecessor = await sql.all<{ seq: unknown }>(PREDECESSOR_SEQ_SQL, [
            first.addressId,
            first.createdAt,
            first.transferId,
          ]);
          const base = Number(predecessor[0]?.seq ?? 0);
          await sql.run(RENUMBER_SQL, [
            base,
            first.addressId,
            first.createdAt,
            first.transferId,
            first.addressId,
          ]);
        }
      });
    }
    await bulk.writeAddressStats(newStats);
  }

  /** Removes a transfer from an address's list, closing the gap in seq. */
  async function removeAddressRow(key: string, transferId: number): Promise<void> {
    const stats = (await bulk.lockAddressStats([key])).get(key)!;
    const id = stats.addressId;
    const rows = await sql.all<{ seq: unknown }>(
      "SELECT seq FROM address_transfers WHERE transfer_id = ? AND +address_id = ?",
      [transferId, id],
    );
    if (rows[0] === undefined) return;
    await sql.run("DELETE FROM address_transfers WHERE transfer_id = ? AND +address_id = ?", [
      transferId,
      id,
    ]);
    await sql.run("UPDATE address_transfers SET seq = seq - 1 WHERE address_id = ? AND seq > ?", [
      id,
      Number(rows[0].seq),
    ]);
    const last = await sql.all<{ created_at: string; transfer_id: unknown }>(LAST_ROW_SQL, [id]);
    await bulk.writeAddressStats([
      {
        addressId: id,
        addressKey: key,
        total: stats.total - 1,
        lastCreatedAt: last[0]?.created_at ?? "",
        lastId: Number(last[0]?.transfer_id ?? 0),
      },
    ]);
  }

  return { placeRows: placeAddressRows, removeRow: removeAddressRow };
}

const DIRTY = "(SELECT address_id FROM indexer_dirty)";

/**
 * The set-based maintenance, statements run in this order by the derivation after its records
 * are written (the derivation itself first drops the rows of records whose send-side fields
 * changed, marking their addresses dirty, and syncs the sort columns of existing rows): its new records' rows (from and to address; from the temporary table
 * indexer_derived) are appended where they sort last, an address where one does not (or one
 * marked in indexer_dirty) is renumbered and its stats recomputed.
 */
export function addressListStatements(d: Dialect) {
  const SORT_COLUMNS = ADDRESS_SORT_COLUMNS;
  const rowsOfNewRecords = (addressColumn: string) =>
    `SELECT lower(t.${addressColumn}) AS address_key, t.id, ${["created_at", ...SORT_COLUMNS]
      .map((c) => `t.${c}`)
      .join(
        ", ",
      )} FROM indexer_derived d ${d.batchJoin} transfers t ON t.message_key = d.message_key` +
    " WHERE NOT EXISTS (SELECT 1 FROM address_transfers a WHERE a.transfer_id = t.id)";
  const rowColumns = ["created_at", ...SORT_COLUMNS].join(", ");
  return {
    // UNION: one row when from and to are the same address.
    newRows:
      `INSERT INTO indexer_address_rows (address_key, transfer_id, ${rowColumns})` +
      ` ${rowsOfNewRecords("from_address")} UNION ${rowsOfNewRecords("to_address")}`,
    lockStats:
      "INSERT INTO address_stats (address_key, total, last_created_at, last_id)" +
      " SELECT k, 0, '', 0 FROM (SELECT address_key AS k FROM indexer_address_rows UNION" +
      ` SELECT address_key FROM address_stats WHERE address_id IN ${DIRTY}) keys` +
      ` WHERE true ORDER BY k ${d.statsUpsertTail}`,
    dirtyBehind:
      "INSERT INTO indexer_dirty (address_id) SELECT DISTINCT s.address_id FROM indexer_address_rows r" +
      " JOIN address_stats s ON s.address_key = r.address_key WHERE s.total > 0" +
      ` AND (r.created_at, r.transfer_id) < (s.last_created_at, s.last_id) AND s.address_id NOT IN ${DIRTY}`,
    insertRows:
      `INSERT INTO address_transfers (address_id, transfer_id, seq, ${rowColumns})` +
      " SELECT s.address_id, r.transfer_id, s.total + ROW_NUMBER() OVER (PARTITION BY s.address_id" +
      ` ORDER BY r.created_at, r.transfer_id), ${["created_at", ...SORT_COLUMNS].map((c) => `r.${c}`).join(", ")}` +
      " FROM indexer_address_rows r JOIN address_stats s ON s.address_key = r.address_key",
    statsAppended:
      "UPDATE address_stats SET total = address_stats.total + n.added, last_created_at = n.created_at," +
      " last_id = n.transfer_id FROM (SELECT address_key, created_at, transfer_id," +
      " COUNT(*) OVER (PARTITION BY address_key) AS added, ROW_NUMBER() OVER (PARTITION BY" +
      " address_key ORDER BY created_at DESC, transfer_id DESC) AS rn FROM indexer_address_rows) n" +
      ` WHERE n.rn = 1 AND address_stats.address_key = n.address_key AND address_stats.address_id NOT IN ${DIRTY}`,
    // `+address_id` steers SQLite to the transfer_id index (as RENUMBER_SQL above).
    renumber:
      "UPDATE address_transfers SET seq = r.rn FROM (SELECT address_id, transfer_id, ROW_NUMBER()" +
      " OVER (PARTITION BY address_id ORDER BY created_at, transfer_id) AS rn FROM address_transfers" +
      ` WHERE ${d.inList("address_id", "SELECT address_id FROM indexer_dirty")}) r WHERE +address_transfers.address_id = r.address_id` +
      " AND address_transfers.transfer_id = r.transfer_id AND address_transfers.seq <> r.rn",
    statsDirty: `UPDATE address_stats SET total = (SELECT COUNT(*) FROM address_transfers a WHERE a.address_id = address_stats.address_id), last_created_at = COALESCE((SELECT a.created_at FROM address_transfers a WHERE a.address_id = address_stats.address_id ORDER BY a.created_at DESC, a.transfer_id DESC LIMIT 1), ''), last_id = COALESCE((SELECT a.transfer_id FROM address_transfers a WHERE a.address_id = address_stats.address_id ORDER BY a.created_at DESC, a.transfer_id DESC LIMIT 1), 0) WHERE address_id IN ${DIRTY}`,
  };
}
