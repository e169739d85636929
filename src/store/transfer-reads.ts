/**
 * Read path of the transfer repository: shared SQL for both backends. Column and direction
 * names come only from the fixed maps below; every input value is a bound parameter.
 *
 * Address queries (the big lists) read address_transfers:
 *   - total and address_id: one primary-key lookup in address_stats, O(1);
 *   - default sort (created_at): a range scan on (address_id, seq), O(log n + limit) at any
 *     depth: asc seq in (offset, offset + limit], desc seq in (total - offset - limit,
 *     total - offset] with total read in the same statement (one snapshot on PostgreSQL);
 *   - other sorts: LIMIT/OFFSET over the covering index (address_id, <sort col>, transfer_id)
 *     in a subquery, so skipped rows never touch the transfers table.
 * Hash queries match few rows: indexed key lookups, ORDER BY in memory; total from the page
 * itself when the page is not full (the usual case), else by a count.
 *
 * LIMIT is written into the SQL text as an integer literal (1..MAX_SQL_LIMIT, so at most that
 * many texts per query shape), OFFSET stays a bound parameter: SQLite plans `ORDER BY ... LIMIT
 * <literal>` as a bounded top-N sort, while a bound `LIMIT ?` costs 4-6x more per query
 * (measured: one-row hash lookup 13-20 us vs 70-115 us on the 1M-record bench database).
 */

import { type BridgeTransaction, TRANSFER_FIELDS } from "../domain/bridge-transaction.js";
import type { TransferBackend } from "./backend.js";
import { addressKey, hashKey, isEvmAddressShaped } from "./transfer-keys.js";
import { isNumberField } from "./transfer-row.js";
import type { ListTransfersQuery, ListTransfersResult, SortField } from "./types.js";

/** Column holding the sort value, in both transfers and address_transfers. */
const SORT_COLUMNS: Record<SortField, string> = {
  created_at: "created_at",
  updated_at: "updated_at",
  start_time: "start_time",
  end_time: "end_time",
  send_amount: "send_amount_key",
  receive_amount: "receive_amount_key",
};
const DIRECTIONS = { asc: "ASC", desc: "DESC" } as const;

const T_COLUMNS = TRANSFER_FIELDS.map((field) => `t.${field}`).join(", ");

/** Page sizes above this are refused: the API allows 1..100 (list-transfers-query.ts). */
const MAX_SQL_LIMIT = 1000;

/** `LIMIT n` for a page size, as SQL text; only a safe integer in 1..MAX_SQL_LIMIT gets in. */
function limitClause(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SQL_LIMIT) {
    throw new RangeError(`page size must be an integer from 1 to ${MAX_SQL_LIMIT}, got ${limit}`);
  }
  return `LIMIT ${limit}`;
}

/**
 * Builds an API record from a row holding the TRANSFER_FIELDS columns: transferFromRow's rule
 * (decimals as numbers, everything else as strings), compiled once into one object literal so
 * every record has the same shape and no per-field lookups run per row.
 */
const recordFromRow = new Function(
  "row",
  `return { ${TRANSFER_FIELDS.map(
    (field) => `${field}: ${isNumberField(field) ? "Number" : "String"}(row.${field})`,
  ).join(", ")} };`,
) as (row: Record<string, unknown>) => BridgeTransaction;

const EVM_HASH_WHERE = "t.source_tx_key = ? OR t.dest_tx_key = ? OR t.message_key = ?";
const EXACT_HASH_WHERE =
  "(t.source_tx_key = ? AND t.source_tx_hash = ?) OR (t.dest_tx_key = ? AND t.dest_tx_hash = ?)" +
  " OR (t.message_key = ? AND t.message_id = ?)";
const EXACT_ADDRESS_WHERE =
  "(t.id IN (SELECT a.transfer_id FROM address_stats s" +
  " JOIN address_transfers a ON a.address_id = s.address_id WHERE s.address_key = ?)" +
  " AND (t.from_address = ? OR t.to_address = ?))";

const STATS_SQL = "SELECT address_id, total FROM address_stats WHERE address_key = ?";
const ADDRESS_ASC_PAGE_SQL =
  `SELECT ${T_COLUMNS} FROM address_transfers a JOIN transfer_records t ON t.id = a.transfer_id` +
  " WHERE a.address_id = ? AND a.seq > ? AND a.seq <= ? ORDER BY a.seq ASC";
const ADDRESS_DESC_PAGE_SQL =
  `SELECT ${T_COLUMNS} FROM address_stats s` +
  " JOIN address_transfers a ON a.address_id = s.address_id" +
  " JOIN transfer_records t ON t.id = a.transfer_id" +
  " WHERE s.address_id = ? AND a.seq > s.total - ? AND a.seq <= s.total - ?" +
  " ORDER BY a.seq DESC";
const GET_SQL = `SELECT ${T_COLUMNS} FROM transfer_records t WHERE t.message_key = ?`;

/**
 * The SQL texts that vary (by WHERE, sort, direction, page size), each built once and then
 * reused as the same string: the backends' statement caches hash and compare the text on every
 * call, which costs next to nothing for a string seen before and a pass over ~900 characters
 * for a freshly concatenated one. Bounded by the few WHERE constants x 6 sorts x 2 directions
 * x the page sizes 1..MAX_SQL_LIMIT.
 */
function createSqlTexts() {
  const byWhere = new Map<string, Map<string, string>>();
  return (where: string, variant: string, build: () => string): string => {
    let texts = byWhere.get(where);
    if (texts === undefined) {
      texts = new Map();
      byWhere.set(where, texts);
    }
    let text = texts.get(variant);
    if (text === undefined) {
      text = build();
      texts.set(variant, text);
    }
    return text;
  };
}

export function createTransferReads(backend: TransferBackend) {
  const { sql } = backend;
  const sqlText = createSqlTexts();

  async function count(where: string, params: unknown[]): Promise<number> {
    const rows = await sql.all<{ total: unknown }>(
      sqlText(where, "count", () => `SELECT count(*) AS total FROM transfers t WHERE ${where}`),
      params,
    );
    return Number(rows[0]?.total ?? 0);
  }

  /**
   * Few-row matches (hashes, `other`): one statement returns the page. A page that is not full
   * and not empty ends the matches, so total = offset + its length; only a full page, or an
   * empty one past the start, needs a count (rare: a hash matches one to three transfers).
   */
  async function listWhere(
    where: string,
    params: unknown[],
    query: ListTransfersQuery,
  ): Promise<ListTransfersResult> {
    const { sortField, sortOrder, limit } = query;
    const text = sqlText(where, `${sortField} ${sortOrder} ${limit}`, () => {
      const column = SORT_COLUMNS[sortField];
      const dir = DIRECTIONS[sortOrder];
      return (
        `SELECT ${T_COLUMNS} FROM transfer_records t WHERE ${where}` +
        ` ORDER BY t.${column} ${dir}, t.id ${dir} ${limitClause(limit)} OFFSET ?`
      );
    });
    const rows = await sql.all<Record<string, unknown>>(text, [...params, query.offset]);
    const items = rows.map(recordFromRow);
    if (items.length > 0 && items.length < query.limit) {
      return { total: query.offset + items.length, items };
    }
    if (items.length === 0 && query.offset === 0) return { total: 0, items };
    return { total: await count(where, params), items };
  }

  async function listByAddress(key: string, query: ListTransfersQuery) {
    const stats = await sql.all<{ address_id: unknown; total: unknown }>(STATS_SQL, [key]);
    const total = Number(stats[0]?.total ?? 0);
    const id = Number(stats[0]?.address_id ?? 0);
    if (query.offset >= total) return { total, items: [] };
    const { offset, limit } = query;
    let rows: Record<string, unknown>[];
    if (query.sortField === "created_at" && query.sortOrder === "asc") {
      rows = await sql.all(ADDRESS_ASC_PAGE_SQL, [id, offset, offset + limit]);
    } else if (query.sortField === "created_at") {
      rows = await sql.all(ADDRESS_DESC_PAGE_SQL, [id, offset + limit, offset]);
    } else {
      const { sortField, sortOrder } = query;
      const text = sqlText("address", `${sortField} ${sortOrder} ${limit}`, () => {
        const column = SORT_COLUMNS[sortField];
        const dir = DIRECTIONS[sortOrder];
        return (
          `SELECT ${T_COLUMNS} FROM (SELECT a.transfer_id, a.${column} AS sort_value` +
          " FROM address_transfers a WHERE a.address_id = ?" +
          ` ORDER BY a.${column} ${dir}, a.transfer_id ${dir} ${limitClause(limit)} OFFSET ?) p` +
          ` JOIN transfer_records t ON t.id = p.transfer_id ORDER BY p.sort_value ${dir}, p.transfer_id ${dir}`
        );
      });
      rows = await sql.all(text, [id, offset]);
    }
    return { total, items: rows.map(recordFromRow) };
  }

  async function listTransfers(query: ListTransfersQuery): Promise<ListTransfersResult> {
    const { match } = query;
    if (match.kind === "evmAddress") return listByAddress(addressKey(match.value), query);
    if (match.kind === "evmHash") {
      const key = hashKey(match.value);
      return listWhere(EVM_HASH_WHERE, [key, key, key], query);
    }
    // `other`: exact match on the two addresses and three hashes. The usual case (a non-EVM
    // address that is no hash of any record) takes the indexed address path, whose keys are
    // exact for non-EVM values; anything else takes the general exact query.
    const value = match.value;
    const hashKeyOfValue = hashKey(value);
    const hashParams = [hashKeyOfValue, value, hashKeyOfValue, value, hashKeyOfValue, value];
    if (!isEvmAddressShaped(value) && (await count(EXACT_HASH_WHERE, hashParams)) === 0) {
      return listByAddress(value, query);
    }
    return listWhere(
      `${EXACT_ADDRESS_WHERE} OR ${EXACT_HASH_WHERE}`,
      [addressKey(value), value, value, ...hashParams],
      query,
    );
  }

  async function getTransfer(messageId: string): Promise<BridgeTransaction | undefined> {
    const rows = await sql.all(GET_SQL, [hashKey(messageId)]);
    return rows[0] === undefined ? undefined : recordFromRow(rows[0]);
  }

  return { listTransfers, getTransfer };
}
