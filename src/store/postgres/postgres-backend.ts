/**
 * TransferBackend on a pg Pool or one pooled client. Shared SQL uses `?` placeholders, numbered
 * here ($1, $2, ...); every statement is a named prepared statement (name derived from its
 * text), so each connection parses and plans a query shape once. Bulk operations send one
 * statement per batch with column arrays (`unnest`), whose shape does not depend on the batch
 * size.
 */
import { createHash } from "node:crypto";
import type pg from "pg";
import type { SqlExecutor, TransferBackend } from "../backend.js";
import { TRANSFER_COLUMNS, transferFromRow, transferRowValues } from "../transfer-row.js";

type Queryable = Pick<pg.Pool, "query"> | Pick<pg.PoolClient, "query">;

interface PreparedText {
  name: string;
  text: string;
}

/** Per-process cache of `?` SQL -> numbered text and statement name. */
const preparedTexts = new Map<string, PreparedText>();

function prepared(sql: string): PreparedText {
  let entry = preparedTexts.get(sql);
  if (entry === undefined) {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    const name = `bo_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    entry = { name, text };
    preparedTexts.set(sql, entry);
  }
  return entry;
}

const TRANSFER_ARRAY_TYPES = TRANSFER_COLUMNS.map((column) =>
  column === "route_id" ? "int4[]" : "text[]",
);
const INSERT_TRANSFERS_SQL =
  `INSERT INTO transfers (${TRANSFER_COLUMNS.join(", ")}) SELECT * FROM unnest(` +
  TRANSFER_ARRAY_TYPES.map((type) => `?::${type}`).join(", ") +
  ") ON CONFLICT (message_key) DO NOTHING RETURNING id, message_key";
const FIND_BY_KEYS_SQL = "SELECT * FROM transfer_records WHERE message_key = ANY(?::text[])";
/**
 * Planner settings for the statements of one piece of work, local to the transaction
 * (set_config(..., true) is SET LOCAL) and set back to what they were afterwards; the OFFSET 0
 * fence reads the old values before they change. A failure ends the transaction in a rollback,
 * which undoes them too.
 */
function plannerSettingsSql(names: readonly string[]): { set: string; restore: string } {
  const old = names.map((n, i) => `current_setting('${n}') AS s${i}`).join(", ");
  return {
    set:
      `SELECT ${names.map((_, i) => `s${i}`).join(", ")}, ` +
      names.map((n) => `set_config('${n}', 'off', true)`).join(", ") +
      ` FROM (SELECT ${old} OFFSET 0) AS previous`,
    restore: `SELECT ${names.map((n) => `set_config('${n}', ?, true)`).join(", ")}`,
  };
}

/**
 * withIndexedJoins: hash joins, merge joins and sequential scans off. Joins alone are not
 * enough: with nested loops only, the planner may still put a sequential scan of the big table
 * on the outer side (the renumbering did). jit off too: a path the settings disable still costs
 * 1e10 when it is the only one (a scan of a temporary table), far above jit_above_cost, and
 * JIT-compiling the set-based derivation's statement took 21 s (dev, a three-event batch)
 * against a millisecond without it.
 */
const INDEXED_JOINS = plannerSettingsSql([
  "enable_hashjoin",
  "enable_mergejoin",
  "enable_seqscan",
  "jit",
]);
/** withBatchJoins: nested loops off (and jit, as above). */
const BATCH_JOINS = plannerSettingsSql(["enable_nestloop", "jit"]);

/**
 * `failure` turns a query's error into the one to throw (the read replica's reader names the
 * replica); default: the error as it is.
 */
export function createPostgresBackend(
  db: Queryable,
  assertOpen: () => void = () => undefined,
  failure?: (error: unknown) => unknown,
): TransferBackend {
  async function query(sql: string, params: readonly unknown[]): Promise<pg.QueryResult> {
    assertOpen();
    const { name, text } = prepared(sql);
    if (failure === undefined) return db.query({ name, text, values: params as unknown[] });
    try {
      return await db.query({ name, text, values: params as unknown[] });
    } catch (error) {
      throw failure(error);
    }
  }
  async function withPlannerSettings<T>(
    settings: { set: string; restore: string },
    work: () => Promise<T>,
  ): Promise<T> {
    const { rows } = await query(settings.set, []);
    const result = await work();
    const previous = (rows[0] ?? {}) as Record<string, string>;
    const count = settings.restore.split("?").length - 1;
    await query(
      settings.restore,
      Array.from({ length: count }, (_, i) => previous[`s${i}`] ?? "on"),
    );
    return result;
  }
  const sql: SqlExecutor = {
    async all<T>(text: string, params: readonly unknown[] = []) {
      return (await query(text, params)).rows as T[];
    },
    async run(text: string, params: readonly unknown[] = []) {
      return (await query(text, params)).rowCount ?? 0;
    },
  };
  return {
    kind: "postgres",
    sql,
    bulk: {
      async findByMessageKeys(keys) {
        const { rows } = await query(FIND_BY_KEYS_SQL, [keys]);
        return rows.map((row) => ({ id: Number(row.id), record: transferFromRow(row) }));
      },
      async insertTransfers(records, routeIdOf) {
        const ids = new Map<string, number>();
        if (records.length === 0) return ids;
        const columns: unknown[][] = TRANSFER_COLUMNS.map(() => []);
        for (const record of records) {
          const values = transferRowValues(record, routeIdOf(record));
          for (let i = 0; i < values.length; i++) columns[i]!.push(values[i]);
        }
        const { rows } = await query(INSERT_TRANSFERS_SQL, columns);
        for (const row of rows) ids.set(String(row.message_key), Number(row.id));
        return ids;
      },
      withIndexedJoins: (work) => withPlannerSettings(INDEXED_JOINS, work),
      withBatchJoins: (work) => withPlannerSettings(BATCH_JOINS, work),
    },
  };
}
