/**
 * The indexer's records, derived set-based: for the message ids of a batch (or of a reorg's
 * orphaned events), a fixed sequence of statements over the stored raw events writes every
 * record and address list, whatever the number of transfers; no statement per transfer.
 *
 * 1. The ids go into the temporary table `indexer_ids`, their raw events (an index probe per
 *    id) into `indexer_events`, and the rows derived from those (derive-transfers-sql.ts) into
 *    `indexer_derived`.
 * 2. Records whose send is gone are deleted; records whose send-side fields changed (another
 *    send now comes first) lose their address rows, and those addresses are marked dirty
 *    (address-lists.ts, step 1).
 * 3. The batch's routes go into `transfer_routes` (new ones only) and each derived row gets its
 *    route_id. Changed records are updated (send-side fields and route_id, then outcome fields: a
 *    delivery writes only its five columns and `updated_at`), new ones inserted with created_at
 *    = updated_at = now. A record equal to the stored one is not written at all, so a replay
 *    changes nothing, not even updated_at; a send and its delivery in one batch are one insert.
 * 4. Address lists (docs/store.md, "Deep pages: seq"; address-lists.ts, their one owner, whose
 *    statements the record-at-a-time path runs too): the sort columns of existing rows follow
 *    their record; rows of new records are staged and added with seq = total + their rank (the
 *    live case: they sort after every stored row); an address where that is not so (a row
 *    sorting before its last one, or one marked dirty in 2) is renumbered with ROW_NUMBER() and
 *    its stats recomputed.
 *
 * Every statement runs in the caller's transaction (the batch's). Those that join the batch's
 * keys to large tables run inside withIndexedJoins (on PostgreSQL: index probes, docs/store.md,
 * "PostgreSQL plans"), written so that the batch's rows drive the join (Dialect.planFence, inList,
 * batchJoin, batchKey): planned freely, both databases read the large tables whole in every
 * batch and probed the batch, which grew with the tables. The derivation's SELECT joins only
 * the batch's rows (and token_metadata) and runs inside withBatchJoins (hash joins). The
 * `transfers` rows are written once per batch, so row triggers on them see one change per
 * record and batch.
 */
import {
  ADDRESS_SORT_COLUMNS,
  addressListStatements,
  createAddressLists,
} from "./address-lists.js";
import type { TransferBackend } from "./backend.js";
import { type Dialect, dialectOf } from "./derive-dialect.js";
import {
  DERIVED_COLUMNS,
  type DerivationRegistry,
  derivedTableColumns,
  deriveSelectSql,
  EVENT_COLUMNS,
  eventTableColumns,
  OUTCOME_COLUMNS,
  registryJson,
  SEND_COLUMNS,
} from "./derive-transfers-sql.js";
import { isRouteField, ROUTE_FIELDS } from "./transfer-row.js";

export interface DeriveResult {
  /** Records inserted or changed. */
  upserted: number;
  /** Records removed (their send was orphaned). */
  deleted: number;
}

export interface TransferDerivation {
  /** Derives (inserts, updates, deletes) the records of these message ids from raw_events. */
  derive(
    messageIds: readonly string[],
    registry: DerivationRegistry,
    now: string,
  ): Promise<DeriveResult>;
}

const SORT_COLUMNS = ADDRESS_SORT_COLUMNS;

/** Generated from the hashes in `transfers` (migration 15): never written. */
const GENERATED = new Set(["source_tx_key", "dest_tx_key"]);

/**
 * Of derived columns, those `transfers` stores: its own, and route_id for the route's fields
 * (transfer_routes, migration 15). Equal route ids mean equal route fields (a unique row each).
 */
function storedColumns(columns: readonly string[]): string[] {
  const own = columns.filter((c) => !isRouteField(c) && !GENERATED.has(c));
  return columns.some(isRouteField) ? [...own, "route_id"] : own;
}
const STORED_DERIVED = storedColumns(DERIVED_COLUMNS);
const STORED_SEND = storedColumns(SEND_COLUMNS);
const STORED_OUTCOME = storedColumns(OUTCOME_COLUMNS);

const equal = (columns: readonly string[], a: string, b: string) =>
  columns.map((c) => `${a}.${c} = ${b}.${c}`).join(" AND ");

/**
 * The ids of stored records (t) of the batch that no derived row with the same send-side fields
 * replaces. Fenced on PostgreSQL (Dialect.planFence) so the batch's keys drive the probes of
 * `transfers`; SQLite's planner does so for this form by itself (and would scan `transfers`
 * for a join of the two written the other way round).
 */
const replacedIds = (d: Dialect) =>
  `SELECT t.id FROM transfers t WHERE t.message_key IN (SELECT message_key FROM indexer_ids${d.planFence})` +
  ` AND NOT EXISTS (SELECT 1 FROM indexer_derived d WHERE d.message_key = t.message_key AND ${equal(STORED_SEND, "d", "t")})${d.planFence}`;

function statements(d: Dialect) {
  const { tables: listTables, empty: listEmpty, ...lists } = addressListStatements(d);
  const rowsOfNewRecords = (addressColumn: string) =>
    `SELECT lower(t.${addressColumn}) AS address_key, t.id, ${["created_at", ...SORT_COLUMNS]
      .map((c) => `t.${c}`)
      .join(
        ", ",
      )} FROM indexer_derived d ${d.batchJoin} transfers t ON t.message_key = d.message_key` +
    " WHERE NOT EXISTS (SELECT 1 FROM address_transfers a WHERE a.transfer_id = t.id)";
  const sets = (columns: readonly string[]) => columns.map((c) => `${c} = d.${c}`).join(", ");
  const recordSortColumns = `SELECT ${SORT_COLUMNS.map((c) => `t.${c}`).join(", ")} FROM transfers t WHERE t.id = address_transfers.transfer_id`;
  return {
    tables: [
      d.tempTable("indexer_ids", `message_key ${d.text} PRIMARY KEY`),
      d.tempTable("indexer_events", eventTableColumns(d)),
      d.tempTable("indexer_derived", `${derivedTableColumns(d)}, route_id BIGINT`),
      ...listTables,
    ],
    empty: [
      ...["indexer_ids", "indexer_events", "indexer_derived"].map((t) => `DELETE FROM ${t}`),
      ...listEmpty,
    ],
    ids: `INSERT INTO indexer_ids (message_key) ${d.listRows("?")}`,
    events:
      `INSERT INTO indexer_events (${EVENT_COLUMNS.join(", ")}) SELECT ${EVENT_COLUMNS.map((c) => `r.${c}`).join(", ")}` +
      ` FROM raw_events r WHERE r.message_id IN (SELECT ${d.rawEventsCollation("message_key")} FROM indexer_ids)`,
    derive: `INSERT INTO indexer_derived (message_key, ${DERIVED_COLUMNS.join(", ")}) ${deriveSelectSql(d)}`,
    // The batch's routes (a NULL field, a token without metadata, fails here: NOT NULL), then
    // their ids. WHERE true: SQLite's parser needs it before an upsert clause of INSERT … SELECT.
    routes:
      `INSERT INTO transfer_routes (${ROUTE_FIELDS.join(", ")}) SELECT DISTINCT ${ROUTE_FIELDS.join(", ")}` +
      " FROM indexer_derived WHERE true ON CONFLICT DO NOTHING",
    routeIds:
      "UPDATE indexer_derived SET route_id = (SELECT r.id FROM transfer_routes r WHERE" +
      ` ${ROUTE_FIELDS.map((f) => `r.${f} = indexer_derived.${f}`).join(" AND ")})`,
    stageReplaced: `INSERT INTO address_list_dropped (transfer_id) ${replacedIds(d)}`,
    deleteOrphaned:
      "DELETE FROM transfers WHERE message_key IN (SELECT i.message_key FROM indexer_ids i WHERE" +
      ` NOT EXISTS (SELECT 1 FROM indexer_derived d WHERE d.message_key = i.message_key)${d.planFence})`,
    updateSend:
      `UPDATE transfers SET ${sets(STORED_DERIVED)}, updated_at = ? FROM indexer_derived d` +
      ` WHERE transfers.message_key = ${d.batchKey("d.message_key")} AND NOT (${equal(STORED_SEND, "d", "transfers")})`,
    updateOutcome:
      `UPDATE transfers SET ${sets(STORED_OUTCOME)}, updated_at = ? FROM indexer_derived d` +
      ` WHERE transfers.message_key = ${d.batchKey("d.message_key")} AND NOT (${equal(STORED_OUTCOME, "d", "transfers")})`,
    insert:
      `INSERT INTO transfers (${STORED_DERIVED.join(", ")}, created_at, updated_at)` +
      ` SELECT ${STORED_DERIVED.map((c) => `d.${c}`).join(", ")}, ?, ? FROM indexer_derived d` +
      " WHERE NOT EXISTS (SELECT 1 FROM transfers t WHERE t.message_key = d.message_key)" +
      " ORDER BY d.message_key",
    // The rows to change found from the batch's records through the transfer_id index. SQLite
    // plans an UPDATE … FROM here as a scan of address_transfers whatever the join's order, so
    // there the values are row values read from the record; on PostgreSQL those two subqueries
    // per row cost about 40 % more than the join (bench:index, 50,000 transfers).
    syncSortColumns:
      d.kind === "postgres"
        ? `UPDATE address_transfers SET ${SORT_COLUMNS.map((c) => `${c} = x.${c}`).join(", ")}` +
          ` FROM (SELECT t.id, ${SORT_COLUMNS.map((c) => `t.${c}`).join(", ")} FROM indexer_derived d` +
          ` JOIN transfers t ON t.message_key = d.message_key${d.planFence}) x` +
          ` WHERE address_transfers.transfer_id = x.id AND NOT (${equal(SORT_COLUMNS, "address_transfers", "x")})`
        : `UPDATE address_transfers SET (${SORT_COLUMNS.join(", ")}) = (${recordSortColumns})` +
          ` WHERE transfer_id IN (SELECT t.id FROM indexer_derived d ${d.batchJoin} transfers t` +
          ` ON t.message_key = d.message_key) AND (${SORT_COLUMNS.join(", ")}) <> (${recordSortColumns})`,
    // UNION: one row when from and to are the same address.
    newRows:
      `INSERT INTO address_list_rows (address_key, transfer_id, created_at, ${SORT_COLUMNS.join(", ")})` +
      ` ${rowsOfNewRecords("from_address")} UNION ${rowsOfNewRecords("to_address")}`,
    ...lists,
  };
}

const cache = new Map<string, ReturnType<typeof statements>>();

/** The derivation's statements for a backend (the plan tests read them). */
export function derivationStatements(kind: "sqlite" | "postgres"): ReturnType<typeof statements> {
  let sql = cache.get(kind);
  if (sql === undefined) {
    sql = statements(dialectOf(kind));
    cache.set(kind, sql);
  }
  return sql;
}

export function createTransferDerivation(
  backend: TransferBackend,
  kind: "sqlite" | "postgres",
): TransferDerivation {
  const d = dialectOf(kind);
  const q = derivationStatements(kind);
  const lists = createAddressLists(backend, d);
  const run = (text: string, params: readonly unknown[] = []) => backend.sql.run(text, params);
  return {
    async derive(messageIds, registry, now) {
      const ids = [...new Set(messageIds.map((id) => id.toLowerCase()))].sort();
      if (ids.length === 0) return { upserted: 0, deleted: 0 };
      for (const text of q.tables) await run(text);
      for (const text of q.empty) await run(text);
      await run(q.ids, [d.listParam(ids)]);
      await backend.bulk.withIndexedJoins(() => run(q.events));
      await backend.bulk.withBatchJoins(() => run(q.derive, registryJson(registry)));
      return backend.bulk.withIndexedJoins(async () => {
        await run(q.routes);
        await run(q.routeIds);
        await run(q.stageReplaced);
        await lists.drop();
        const deleted = await run(q.deleteOrphaned);
        let upserted = await run(q.updateSend, [now]);
        upserted += await run(q.updateOutcome, [now]);
        upserted += await run(q.insert, [now, now]);
        await run(q.syncSortColumns);
        await run(q.newRows);
        await lists.place();
        return { upserted, deleted };
      });
    },
  };
}
