/**
 * TransferBackend on one better-sqlite3 connection. Calls are synchronous underneath (returned
 * as resolved promises); every SQL text is prepared once per connection and cached. Bulk
 * operations run a cached prepared statement per row: in-process, that is as fast as a
 * multi-row statement and keeps one statement shape.
 */
import type Database from "better-sqlite3";
import type { SqlExecutor, TransferBackend } from "../backend.js";
import { hashKey } from "../transfer-keys.js";
import { TRANSFER_COLUMNS, transferFromRow, transferRowValues } from "../transfer-row.js";

/** Prepares (once) and returns the statement for a SQL text. */
export type StatementCache = ((sql: string) => Database.Statement) & {
  /** The same SQL as a row reader: a raw-mode statement and its compiled row -> object step. */
  rowReader(sql: string): RowReader;
};

/**
 * Reads rows as plain objects keyed by column name, as better-sqlite3's default mode does, but
 * faster: better-sqlite3 builds each row object property by property in native code (about
 * 3.5 us per 32-column row on the bench machine); a raw-mode array turned into an object literal
 * by a function compiled once per statement costs a fraction of that, and every row of a
 * statement shares one object shape.
 */
export interface RowReader {
  all(params: readonly unknown[]): Record<string, unknown>[];
}

function createRowReader(statement: Database.Statement): RowReader {
  // A statement without result columns keeps better-sqlite3's own error from all().
  if (!statement.reader) return { all: (params) => statement.all(...params) as never };
  let width = -1;
  let toObject: (values: unknown[]) => Record<string, unknown> = () => ({});
  const compile = () => {
    const names = statement.columns().map((column) => column.name);
    width = names.length;
    // A repeated name keeps its last column, as in better-sqlite3's object mode.
    toObject = new Function(
      "v",
      `return { ${names.map((name, i) => `${JSON.stringify(name)}: v[${i}]`).join(", ")} };`,
    ) as typeof toObject;
  };
  statement.raw(true);
  compile();
  return {
    all(params) {
      const rows = statement.all(...params) as unknown[][];
      const out = new Array<Record<string, unknown>>(rows.length);
      for (let i = 0; i < rows.length; i++) {
        const values = rows[i] as unknown[];
        // A schema change re-prepares the statement underneath (`SELECT *` may widen): relearn.
        if (values.length !== width) compile();
        out[i] = toObject(values);
      }
      return out;
    },
  };
}

/**
 * Most SQL texts are fixed; the list queries vary only by sort, direction and the page size
 * written as a literal (transfer-reads.ts), so a few thousand texts at most. The bound keeps a
 * client cycling through every page size from growing the caches anyway: past it, the least
 * recently prepared statement is dropped (better-sqlite3 finalises it when collected).
 */
const MAX_CACHED_STATEMENTS = 2000;

function boundedCache<T>(max: number, create: (sql: string) => T): (sql: string) => T {
  const cache = new Map<string, T>();
  return (sql) => {
    let entry = cache.get(sql);
    if (entry === undefined) {
      entry = create(sql);
      if (cache.size >= max) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      cache.set(sql, entry);
    }
    return entry;
  };
}

/**
 * Statement caches of one connection. Row readers use their own statements (raw mode is a
 * statement-wide switch), so callers of the plain cache always get object rows.
 */
export function createStatementCache(
  db: Database.Database,
  maxStatements = MAX_CACHED_STATEMENTS,
): StatementCache {
  const prepare = boundedCache(maxStatements, (sql) => db.prepare(sql));
  const rowReader = boundedCache(maxStatements, (sql) => createRowReader(db.prepare(sql)));
  return Object.assign(prepare, { rowReader });
}

const INSERT_TRANSFER_SQL =
  `INSERT INTO transfers (${TRANSFER_COLUMNS.join(", ")})` +
  ` VALUES (${TRANSFER_COLUMNS.map(() => "?").join(", ")}) ON CONFLICT (message_key) DO NOTHING`;
const FIND_BY_KEYS_SQL =
  "SELECT * FROM transfer_records WHERE message_key IN (SELECT value FROM json_each(?))";
/** `prepare` comes from createStatementCache, shared by every backend on that connection. */
export function createSqliteBackend(
  prepare: StatementCache,
  assertOpen: () => void = () => undefined,
): TransferBackend {
  const sql: SqlExecutor = {
    async all<T>(text: string, params: readonly unknown[] = []) {
      assertOpen();
      return prepare.rowReader(text).all(params) as T[];
    },
    async run(text: string, params: readonly unknown[] = []) {
      assertOpen();
      return prepare(text).run(...params).changes;
    },
  };
  return {
    kind: "sqlite",
    sql,
    bulk: {
      async findByMessageKeys(keys) {
        assertOpen();
        const rows = prepare(FIND_BY_KEYS_SQL).all(JSON.stringify(keys)) as Record<
          string,
          unknown
        >[];
        return rows.map((row) => ({ id: Number(row.id), record: transferFromRow(row) }));
      },
      async insertTransfers(records, routeIdOf) {
        assertOpen();
        const insert = prepare(INSERT_TRANSFER_SQL);
        const ids = new Map<string, number>();
        for (const record of records) {
          const info = insert.run(...transferRowValues(record, routeIdOf(record)));
          if (info.changes === 1) ids.set(hashKey(record.message_id), Number(info.lastInsertRowid));
        }
        return ids;
      },
      withIndexedJoins: (work) => work(),
      withBatchJoins: (work) => work(),
    },
  };
}
