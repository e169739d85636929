/**
 * Write path of the transfer repository, shared by both backends. Runs inside a transaction
 * the caller provides (TransferRepository.upsertTransfers wraps it). It tells address-lists.ts,
 * the lists' one owner, which transfers leave them and which rows join them; it copies changed
 * sort columns to the rows of a transfer itself.
 */

import { type BridgeTransaction, TRANSFER_FIELDS } from "../domain/bridge-transaction.js";
import { addressRow, createAddressLists, type StagedAddressRow } from "./address-lists.js";
import type { StoredTransfer, TransferBackend } from "./backend.js";
import { dialectOf } from "./derive-dialect.js";
import { amountSortKey, hashKey } from "./transfer-keys.js";
import { routeIds } from "./transfer-routes.js";
import {
  isNumberField,
  isRouteField,
  routeKey,
  sameTransferContent,
  transferAddressKeys,
} from "./transfer-row.js";
import type { UpsertResult } from "./types.js";

/**
 * Records per batch. Statements take whole batches as JSON (SQLite) or arrays (PostgreSQL), so
 * no parameter limit applies; larger batches mean fewer round trips and stats updates (100k
 * records into PostgreSQL: 42 s at 500, 25 s at 2000).
 */
export const UPSERT_BATCH_SIZE = 2000;

/** Rows per multi-row UPDATE (the largest: 200 x (changed columns + 1) parameters, far below limits). */
const UPDATE_SIZES = [8, 32, 200];

interface UpdatePlan {
  id: number;
  stored: BridgeTransaction;
  /** The new record with the stored created_at. */
  record: BridgeTransaction;
  /** Changed transfers columns and their values. */
  columns: string[];
  values: unknown[];
  /** Changed address_transfers sort columns and their values. */
  sortColumns: string[];
  sortValues: unknown[];
  /** No numeric column changes (PostgreSQL types CASE results from untyped parameters as text). */
  textOnly: boolean;
}

/**
 * Key column derived from each field whose change must rewrite it (the hash keys are generated
 * columns, migration 15).
 */
const KEY_OF_FIELD: Partial<Record<keyof BridgeTransaction, [string, (v: string) => string]>> = {
  send_amount: ["send_amount_key", amountSortKey],
  receive_amount: ["receive_amount_key", amountSortKey],
};

/** The address-row copies of a transfer's sort values, by the transfer field they come from. */
const ADDRESS_SORT_COLUMNS: [keyof BridgeTransaction, string, (v: string) => string][] = [
  ["updated_at", "updated_at", (v) => v],
  ["start_time", "start_time", (v) => v],
  ["end_time", "end_time", (v) => v],
  ["send_amount", "send_amount_key", amountSortKey],
  ["receive_amount", "receive_amount_key", amountSortKey],
];

/** What a batch changes in the address lists (address-lists.ts): transfers to drop, rows to add. */
interface ListChanges {
  dropped: number[];
  rows: StagedAddressRow[];
}

/** Splits records into batches with no message id twice in one batch (later one wins after). */
function batches(records: readonly BridgeTransaction[]): BridgeTransaction[][] {
  const out: BridgeTransaction[][] = [];
  let current: BridgeTransaction[] = [];
  let keys = new Set<string>();
  for (const record of records) {
    const key = hashKey(record.message_id);
    if (current.length >= UPSERT_BATCH_SIZE || keys.has(key)) {
      out.push(current);
      current = [];
      keys = new Set();
    }
    current.push(record);
    keys.add(key);
  }
  if (current.length > 0) out.push(current);
  return out;
}

export function createTransferWrites(backend: TransferBackend) {
  const { sql, bulk } = backend;
  const addressLists = createAddressLists(backend, dialectOf(backend.kind));

  // Statement text per set of changed columns (a handful of shapes: a delivery, a failure, a
  // reorg...), so the backend's statement cache prepares each once.
  const updateSqlCache = new Map<string, string>();
  function updateSql(table: string, columns: readonly string[], where: string): string {
    const key = `${table}|${columns.join(",")}`;
    let text = updateSqlCache.get(key);
    if (text === undefined) {
      text = `UPDATE ${table} SET ${columns.map((c) => `${c} = ?`).join(", ")} WHERE ${where}`;
      updateSqlCache.set(key, text);
    }
    return text;
  }

  /** What an update of `stored` to `next` writes: the changed columns only. */
  function planUpdate(
    stored: StoredTransfer,
    next: BridgeTransaction,
    routes: ReadonlyMap<string, number>,
  ): UpdatePlan {
    // created_at is when the service first stored the record: it never changes, so the
    // record keeps its place (and seq) in every address list.
    const record: BridgeTransaction = { ...next, created_at: stored.record.created_at };
    // Only the changed columns are written: an index whose columns are not in the SET list is
    // not touched at all (a delivery changes 5 of 36 fields; the full SET rewrote 3 + 10
    // index entries per transfer).
    const plan: UpdatePlan = {
      id: stored.id,
      stored: stored.record,
      record,
      columns: [],
      values: [],
      sortColumns: [],
      sortValues: [],
      textOnly: true,
    };
    let routeChanged = false;
    for (const field of TRANSFER_FIELDS) {
      if (field === "created_at" || record[field] === stored.record[field]) continue;
      if (isRouteField(field)) {
        routeChanged = true;
        continue;
      }
      plan.columns.push(field);
      plan.values.push(record[field]);
      if (isNumberField(field)) plan.textOnly = false;
      const key = KEY_OF_FIELD[field];
      if (key !== undefined) {
        plan.columns.push(key[0]);
        plan.values.push(key[1](String(record[field])));
      }
    }
    if (routeChanged) {
      plan.columns.push("route_id");
      plan.values.push(routes.get(routeKey(record))!);
      plan.textOnly = false;
    }
    // Every address row of a transfer carries the same sort values.
    for (const [field, column, toValue] of ADDRESS_SORT_COLUMNS) {
      if (record[field] === stored.record[field]) continue;
      plan.sortColumns.push(column);
      plan.sortValues.push(toValue(String(record[field])));
    }
    return plan;
  }

  /** One row's update, statement by statement; a change of addresses goes to `lists`. */
  async function updateOne(plan: UpdatePlan, lists: ListChanges): Promise<void> {
    if (plan.columns.length > 0) {
      await sql.run(updateSql("transfers", plan.columns, "id = ?"), [...plan.values, plan.id]);
    }
    if (plan.sortColumns.length > 0) {
      await sql.run(updateSql("address_transfers", plan.sortColumns, "transfer_id = ?"), [
        ...plan.sortValues,
        plan.id,
      ]);
    }
    const oldKeys = transferAddressKeys(plan.stored);
    const newKeys = transferAddressKeys(plan.record);
    if (oldKeys.length !== newKeys.length || oldKeys.some((key) => !newKeys.includes(key))) {
      // Its rows leave every list and come back under its present addresses.
      lists.dropped.push(plan.id);
      for (const key of newKeys) lists.rows.push(addressRow(key, plan.id, plan.record));
    }
  }

  /**
   * Many rows that change the same text columns, in one statement per table and chunk:
   * `UPDATE t SET col = v.column2, ... FROM (VALUES (?, ?, ...), ...) AS v WHERE t.id =
   * CAST(v.column1 AS BIGINT)`. Plain SQL both backends run as is (VALUES columns are named
   * column1.. on both; text parameters only, hence textOnly), replacing two statements per
   * row: the common case of a backfill, where every delivery updates its send's record.
   */
  async function updateMany(group: readonly UpdatePlan[]): Promise<void> {
    // In id order: each chunk then touches neighbouring rows and index entries, not random ones.
    const plans = [...group].sort((a, b) => a.id - b.id);
    const first = plans[0]!;
    const tables: [string, string, readonly string[], (p: UpdatePlan) => unknown[]][] = [
      ["transfers", "id", first.columns, (p) => p.values],
      ["address_transfers", "transfer_id", first.sortColumns, (p) => p.sortValues],
    ];
    for (const [table, idColumn, columns, valuesOf] of tables) {
      if (columns.length === 0) continue;
      for (let at = 0; at < plans.length; ) {
        const left = plans.length - at;
        // A few fixed statement sizes, padded with rows matching no id (-1), so SQLite
        // prepares each shape once instead of once per distinct row count.
        const size = UPDATE_SIZES.find((n) => n >= left) ?? UPDATE_SIZES.at(-1)!;
        const part = plans.slice(at, at + size);
        at += part.length;
        const params: unknown[] = [];
        for (const p of part) params.push(String(p.id), ...valuesOf(p));
        for (let i = part.length; i < size; i++) params.push("-1", ...columns.map(() => ""));
        await sql.run(updateFromValuesSql(table, idColumn, columns, size), params);
      }
    }
  }

  function updateFromValuesSql(
    table: string,
    idColumn: string,
    columns: readonly string[],
    rows: number,
  ): string {
    const key = `values|${table}|${columns.join(",")}|${rows}`;
    let text = updateSqlCache.get(key);
    if (text === undefined) {
      const row = `(${["?", ...columns.map(() => "?")].join(", ")})`;
      text =
        `UPDATE ${table} SET ` +
        columns.map((c, i) => `${c} = v.column${i + 2}`).join(", ") +
        ` FROM (VALUES ${Array.from({ length: rows }, () => row).join(", ")}) AS v` +
        ` WHERE ${table}.${idColumn} = CAST(v.column1 AS BIGINT)`;
      updateSqlCache.set(key, text);
    }
    return text;
  }

  /** Applies the plans; changes of addresses go to `lists`. Equal shapes go through updateMany. */
  async function applyUpdates(plans: readonly UpdatePlan[], lists: ListChanges): Promise<void> {
    const groups = new Map<string, UpdatePlan[]>();
    for (const plan of plans) {
      const sameAddresses =
        plan.record.from_address === plan.stored.from_address &&
        plan.record.to_address === plan.stored.to_address;
      if (!plan.textOnly || !sameAddresses) {
        await updateOne(plan, lists);
        continue;
      }
      const key = `${plan.columns.join(",")}|${plan.sortColumns.join(",")}`;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [plan]);
      else group.push(plan);
    }
    const many: UpdatePlan[][] = [];
    for (const group of groups.values()) {
      if (group.length === 1) await updateOne(group[0]!, lists);
      else many.push(group);
    }
    if (many.length > 0) {
      await bulk.withIndexedJoins(async () => {
        for (const group of many) await updateMany(group);
      });
    }
  }

  async function upsertBatch(
    records: BridgeTransaction[],
    result: UpsertResult,
    known: ReadonlyMap<string, StoredTransfer> | undefined,
  ): Promise<void> {
    const keys = records.map((r) => hashKey(r.message_id));
    let stored =
      known === undefined
        ? new Map(
            (await bulk.findByMessageKeys(keys)).map((s) => [hashKey(s.record.message_id), s]),
          )
        : new Map(keys.flatMap((k) => (known.has(k) ? [[k, known.get(k)!] as const] : [])));
    const fresh = records.filter((_, i) => !stored.has(keys[i]!));
    const routes = await routeIds(backend, records);
    const insertedIds = await bulk.insertTransfers(fresh, (r) => routes.get(routeKey(r))!);
    const lost = fresh.filter((r) => !insertedIds.has(hashKey(r.message_id)));
    if (lost.length > 0) {
      // A concurrent writer inserted these first: handle them as updates of its rows.
      const winners = await bulk.findByMessageKeys(lost.map((r) => hashKey(r.message_id)));
      stored = new Map([
        ...stored,
        ...winners.map((s) => [hashKey(s.record.message_id), s] as const),
      ]);
    }
    const lists: ListChanges = { dropped: [], rows: [] };
    const updates: UpdatePlan[] = [];
    for (const record of records) {
      const key = hashKey(record.message_id);
      const id = insertedIds.get(key);
      if (id !== undefined) {
        result.inserted++;
        for (const addr of transferAddressKeys(record))
          lists.rows.push(addressRow(addr, id, record));
        continue;
      }
      const previous = stored.get(key)!;
      if (sameTransferContent(previous.record, record)) {
        result.unchanged++;
        continue;
      }
      result.updated++;
      updates.push(planUpdate(previous, record, routes));
    }
    await applyUpdates(updates, lists);
    await addressLists.update(lists.dropped, lists.rows);
  }

  /**
   * Call inside a transaction. `known`: the stored rows of these records' message ids (key:
   * hashKey(message_id)), read earlier in the same transaction by a caller that needed them
   * anyway (the indexer); absent keys mean "not stored". Spares reading them a second time.
   */
  async function upsertTransfers(
    records: readonly BridgeTransaction[],
    known?: ReadonlyMap<string, StoredTransfer>,
  ): Promise<UpsertResult> {
    const result: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
    for (const batch of batches(records)) await upsertBatch(batch, result, known);
    return result;
  }

  /** Call inside a transaction. Removes transfers and their address rows; returns how many. */
  async function deleteTransfers(messageIds: readonly string[]): Promise<number> {
    let deleted = 0;
    for (let at = 0; at < messageIds.length; at += UPSERT_BATCH_SIZE) {
      const keys = messageIds.slice(at, at + UPSERT_BATCH_SIZE).map(hashKey);
      const stored = await bulk.findByMessageKeys(keys);
      await addressLists.update(
        stored.map((s) => s.id),
        [],
      );
      for (const { id } of stored) {
        deleted += await sql.run("DELETE FROM transfers WHERE id = ?", [id]);
      }
    }
    return deleted;
  }

  return { upsertTransfers, deleteTransfers };
}
