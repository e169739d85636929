/**
 * The indexes of the address lists (address_transfers; docs/store.md, "Schema" and "Bulk
 * load"): their one definition, as migration 1 created them (test/store/address-list-indexes
 * checks a freshly migrated database against it, on both backends), and the bulk path that
 * builds the sort indexes after a first import instead of maintaining them row by row.
 *
 * A bulk load into empty lists drops the `deferrable` indexes, loads, and creates them again
 * before its commit: sorting the finished table once costs a fraction of inserting every row
 * into six B-trees keyed by random addresses, which stop fitting in the page cache a few
 * million records in. The kept ones are those the writer's own statements probe
 * (address-lists.ts, transfer-writes.ts): `transfer_id` (updates, drops, renumbering),
 * `(address_id, seq)` (a renumbered list's stats) and `(address_id, created_at, transfer_id)`
 * (where a renumbering starts, its tail: records older than an address's last one).
 *
 * Crash safety. SQLite: the drop, the load and the builds are one transaction (DDL is
 * transactional, WAL readers keep the snapshot they started with): a killed import rolls all
 * of it back. PostgreSQL: DROP INDEX locks the table ACCESS EXCLUSIVE until commit, which would
 * block every list read for the whole import, so the drop commits first, on its own; the load
 * and the builds are then one transaction holding an advisory lock. A killed import leaves
 * empty lists without the sort indexes; every open (migratePostgres, migrateSqlite) recreates
 * missing list indexes (`CREATE INDEX IF NOT EXISTS`, these definitions), unless a bulk load
 * holds the lock (it builds them itself, before its commit).
 */
import type { SqlExecutor } from "./backend.js";

type Kind = "sqlite" | "postgres";

export interface ListIndex {
  name: string;
  /** The column list (and INCLUDE) per backend, exactly as migration 1 wrote it. */
  sqlite: string;
  postgres: string;
  /** Not probed by the write path: dropped during a bulk load into empty lists. */
  deferrable: boolean;
}

const sortIndex = (name: string, column: string): ListIndex => ({
  name: `address_transfers_${name}`,
  sqlite: `(address_id, ${column}, transfer_id)`,
  postgres: `(address_id, ${column}, transfer_id)`,
  deferrable: true,
});

export const ADDRESS_LIST_INDEXES: readonly ListIndex[] = [
  {
    name: "address_transfers_transfer",
    sqlite: "(transfer_id)",
    postgres: "(transfer_id)",
    deferrable: false,
  },
  {
    name: "address_transfers_seq",
    sqlite: "(address_id, seq)",
    postgres: "(address_id, seq) INCLUDE (transfer_id)",
    deferrable: false,
  },
  {
    name: "address_transfers_created_at",
    sqlite: "(address_id, created_at, transfer_id)",
    postgres: "(address_id, created_at, transfer_id) INCLUDE (seq)",
    deferrable: false,
  },
  sortIndex("updated_at", "updated_at"),
  sortIndex("start_time", "start_time"),
  sortIndex("end_time", "end_time"),
  sortIndex("send_amount", "send_amount_key"),
  sortIndex("receive_amount", "receive_amount_key"),
];

/**
 * A bulk load in progress (PostgreSQL): the advisory lock (BULK_LOAD_LOCK_CLASS, hash of the
 * schema), so loads into other schemas of the database (tests, benchmarks) neither wait for
 * each other nor stop each other's open from repairing.
 */
export const BULK_LOAD_LOCK_CLASS = 736_401_922;
const BULK_LOAD_LOCK = `${BULK_LOAD_LOCK_CLASS}, hashtext(current_schema())`;
export const TRY_BULK_LOAD_LOCK_SQL = `SELECT pg_try_advisory_xact_lock(${BULK_LOAD_LOCK}) AS free`;

/**
 * PostgreSQL memory for the builds (`SET LOCAL`, this transaction only): the server's default
 * (64 MB) sorts a few million index entries in several passes on disk.
 */
export const BUILD_MAINTENANCE_WORK_MEM = "256MB";

export function createListIndexSql(kind: Kind, index: ListIndex): string {
  return `CREATE INDEX IF NOT EXISTS ${index.name} ON address_transfers ${index[kind]}`;
}

/** The names of the list indexes the database has (sqlite_master / pg_indexes). */
export const LIST_INDEX_NAMES_SQL: Record<Kind, string> = {
  sqlite: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'address_transfers'",
  postgres:
    "SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema()" +
    " AND tablename = 'address_transfers'",
};

export function missingListIndexes(present: readonly { name: unknown }[]): ListIndex[] {
  const names = new Set(present.map((row) => String(row.name)));
  return ADDRESS_LIST_INDEXES.filter((index) => !names.has(index.name));
}

/** The list indexes, and the bulk path's steps, on one connection inside a transaction. */
export function createListIndexes(sql: SqlExecutor, kind: Kind) {
  async function missing(): Promise<ListIndex[]> {
    return missingListIndexes(await sql.all<{ name: unknown }>(LIST_INDEX_NAMES_SQL[kind]));
  }

  return {
    missing,
    /**
     * Drops the deferrable indexes when the lists are empty (a first import); returns whether
     * it did. PostgreSQL: commit right after (module comment).
     */
    async deferIfEmpty(): Promise<boolean> {
      const [row] = await sql.all<{ found: unknown }>(
        "SELECT EXISTS (SELECT 1 FROM address_transfers) AS found",
      );
      if (row === undefined || row.found === true || Number(row.found) === 1) return false;
      for (const index of ADDRESS_LIST_INDEXES) {
        if (index.deferrable) await sql.run(`DROP INDEX IF EXISTS ${index.name}`);
      }
      return true;
    },
    /** PostgreSQL: marks this transaction as a bulk load (the open-time repair leaves it alone). */
    async holdBulkLoadLock(): Promise<void> {
      if (kind === "postgres") await sql.all(`SELECT pg_advisory_xact_lock(${BULK_LOAD_LOCK})`);
    },
    /** Creates every missing list index; returns their names. */
    async createMissing(): Promise<string[]> {
      const absent = await missing();
      if (absent.length > 0 && kind === "postgres") {
        await sql.all("SELECT set_config('maintenance_work_mem', ?, true)", [
          BUILD_MAINTENANCE_WORK_MEM,
        ]);
      }
      for (const index of absent) await sql.run(createListIndexSql(kind, index));
      return absent.map((index) => index.name);
    },
  };
}

export type ListIndexes = ReturnType<typeof createListIndexes>;
