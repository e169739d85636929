/**
 * The few places where the set-based derivation's SQL (src/store/derive-transfers-sql.ts,
 * src/store/derive-transfers.ts) differs between SQLite and PostgreSQL: JSON access, left
 * padding, UTC formatting, list parameters and the temporary tables.
 */

export interface Dialect {
  kind: "sqlite" | "postgres";
  /** The stored arguments' JSON as a value `field` reads (parsed once on PostgreSQL). */
  json(column: string): string;
  /** A string argument of that JSON, as text. */
  field(json: string, name: string): string;
  /** `text` left-padded with zeros to `width` characters (only called when shorter). */
  zeroPad(text: string, width: string): string;
  /** Two-digit, zero-padded text of a small integer. */
  twoDigits(n: string): string;
  /** `YYYY-MM-DD HH:MM:SS` (UTC) of unix seconds, as formatUtc (domain/utc-time.ts). */
  utc(seconds: string): string;
  /** Rows (chain_id, name, native_symbol) of a JSON array parameter. */
  chainsFromJson(param: string): string;
  /** Rows (chain_id, protocol, kind, address, address_key, scheme_id) of a JSON array parameter. */
  bridgesFromJson(param: string): string;
  /** Rows of a JSON array parameter of objects, each of these (text) fields a column. */
  rowsFromJson(param: string, columns: readonly string[]): string;
  /** Rows (value) of a list parameter (see listParam). */
  listRows(param: string): string;
  listParam(values: readonly string[]): unknown;
  /** The type of a byte-wise compared text column (COLLATE "C" on PostgreSQL, as migration 1). */
  text: string;
  /**
   * `expr` (a `text` value) in the collation of raw_events' text columns, so a comparison with
   * them can use their indexes: on PostgreSQL those columns have the database's default
   * collation, and a COLLATE "C" operand would make the comparison "C" and the index unusable.
   */
  rawEventsCollation(expr: string): string;
  /** A temporary table, emptied for each use (`CREATE ... IF NOT EXISTS`). */
  tempTable(name: string, columns: string): string;
  /** Locks the upserted address_stats rows in key order (PostgreSQL) or only inserts them. */
  statsUpsertTail: string;
  /**
   * Ends a subquery over the batch so the planner keeps it whole (PostgreSQL: OFFSET 0), and
   * the batch's rows drive the join with the large table around it.
   */
  planFence: string;
  /**
   * `column` is one of the values `subquery` returns, with those values known before the outer
   * scan starts (PostgreSQL: `= ANY(ARRAY(...))`, an index condition even when the planner
   * expects many), so an empty or short list costs index probes, never a scan of the table.
   */
  inList(column: string, subquery: string): string;
  /**
   * Joins the batch (on the left) to a large table. SQLite plans a backfill's statements without
   * statistics and, for a plain JOIN, may scan the large table and probe the batch; its CROSS
   * JOIN keeps the left table in the outer loop. PostgreSQL: a plain JOIN (CROSS JOIN takes no ON).
   */
  batchJoin: string;
  /**
   * A key of the batch's row compared with a large table's indexed column: SQLite's unary plus
   * takes the batch side's index out of play, so the large table is searched from the batch.
   */
  batchKey(expr: string): string;
}

/** Zeros for SQLite's padding: decimals are at most 255 (ERC-20's uint8). */
const ZEROS = "0".repeat(256);

export const SQLITE_DIALECT: Dialect = {
  kind: "sqlite",
  json: (column) => column,
  field: (json, name) => `json_extract(${json}, '$.${name}')`,
  zeroPad: (text, width) => `substr('${ZEROS}' || ${text}, -(${width}))`,
  twoDigits: (n) => `printf('%02d', ${n})`,
  utc: (seconds) => `datetime(${seconds}, 'unixepoch')`,
  chainsFromJson: (param) =>
    "SELECT json_extract(value, '$.chain_id') AS chain_id, json_extract(value, '$.name') AS name," +
    ` json_extract(value, '$.native_symbol') AS native_symbol FROM json_each(${param})`,
  bridgesFromJson: (param) =>
    "SELECT json_extract(value, '$.chain_id') AS chain_id, json_extract(value, '$.protocol') AS protocol," +
    " json_extract(value, '$.kind') AS kind," +
    " json_extract(value, '$.address') AS address, json_extract(value, '$.address_key') AS address_key," +
    ` json_extract(value, '$.scheme_id') AS scheme_id FROM json_each(${param})`,
  rowsFromJson: (param, columns) =>
    `SELECT ${columns.map((c) => `json_extract(value, '$.${c}') AS ${c}`).join(", ")} FROM json_each(${param})`,
  listRows: (param) => `SELECT value FROM json_each(${param})`,
  listParam: (values) => JSON.stringify(values),
  text: "TEXT",
  rawEventsCollation: (expr) => expr,
  tempTable: (name, columns) => `CREATE TEMP TABLE IF NOT EXISTS ${name} (${columns})`,
  statsUpsertTail: "ON CONFLICT (address_key) DO NOTHING",
  planFence: "",
  inList: (column, subquery) => `${column} IN (${subquery})`,
  batchJoin: "CROSS JOIN",
  batchKey: (expr) => `+${expr}`,
};

export const POSTGRES_DIALECT: Dialect = {
  kind: "postgres",
  json: (column) => `${column}::jsonb`,
  field: (json, name) => `(${json} ->> '${name}')`,
  zeroPad: (text, width) => `lpad(${text}, ${width}, '0')`,
  twoDigits: (n) => `lpad((${n})::text, 2, '0')`,
  utc: (seconds) => `to_char(to_timestamp(${seconds}) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`,
  chainsFromJson: (param) =>
    `SELECT * FROM json_to_recordset(${param}::json) AS x(chain_id bigint, name text, native_symbol text)`,
  bridgesFromJson: (param) =>
    `SELECT * FROM json_to_recordset(${param}::json) AS x(chain_id bigint, protocol text, kind integer,` +
    " address text, address_key text, scheme_id text)",
  rowsFromJson: (param, columns) =>
    `SELECT * FROM json_to_recordset(${param}::json) AS x(${columns.map((c) => `${c} text`).join(", ")})`,
  listRows: (param) => `SELECT unnest(${param}::text[]) AS value`,
  listParam: (values) => values,
  text: 'TEXT COLLATE "C"',
  rawEventsCollation: (expr) => `${expr} COLLATE "default"`,
  // Emptied at every commit (a temporary table is never vacuumed: deleted rows would pile up).
  tempTable: (name, columns) =>
    `CREATE TEMP TABLE IF NOT EXISTS ${name} (${columns}) ON COMMIT DELETE ROWS`,
  // DO UPDATE rather than DO NOTHING: it row-locks existing stats rows too, in the SELECT's key
  // order, so two writers cannot deadlock. `WHERE false`: the rows are locked but not updated
  // (PostgreSQL locks every conflicting row the action is taken for), so no new row version
  // per batch: inside one long transaction (an import) versions cannot be pruned, and each
  // probe of a frequent address walked all of them.
  statsUpsertTail:
    "ON CONFLICT (address_key) DO UPDATE SET total = address_stats.total WHERE false",
  planFence: " OFFSET 0",
  inList: (column, subquery) => `${column} = ANY(ARRAY(${subquery}))`,
  batchJoin: "JOIN",
  batchKey: (expr) => expr,
};

export function dialectOf(kind: "sqlite" | "postgres"): Dialect {
  return kind === "sqlite" ? SQLITE_DIALECT : POSTGRES_DIALECT;
}
