/**
 * The store floor of the index benchmark: how long SQLite alone takes to write the rows the
 * indexer's backfill left in its database, with no fetching, no decoding, no derivation and no
 * per-row JavaScript. Every indexer table (raw events, block hashes, chain rows, token metadata,
 * records, address lists and stats) is copied from the finished database into a fresh one with
 * the same schema and pragmas by `INSERT INTO t SELECT * FROM src.t ORDER BY rowid`, in the
 * order the indexer inserted the rows, in one transaction. Two forms, each run twice, the
 * faster kept:
 *   - "indexes in place": the schema as it is, so every index is maintained row by row, as the
 *     indexer must while the API serves from the same file;
 *   - "indexes built after": the tables without their secondary indexes, then CREATE INDEX for
 *     each (SQLite sorts and builds each index in one pass), the fastest bulk load it has.
 * Only inserts: the backfill also updates a record when its delivery arrives in a later batch,
 * so the floor is lower than any real write path's cost for these rows.
 */
import { rmSync } from "node:fs";
import type Database from "better-sqlite3";
import { openDatabase, openSqliteWriter } from "../src/store/index.js";

/** The tables the indexer writes (migrations 0001, 0003 and 0015); none has a foreign key. */
export const INDEXER_TABLES = [
  "indexer_chains",
  "indexer_blocks",
  "token_metadata",
  "raw_events",
  "transfer_routes",
  "transfers",
  "address_stats",
  "address_transfers",
] as const;

export interface StoreFloorResult {
  /** Rows copied, all tables. */
  rows: number;
  /** Faster of two runs with every index in place. */
  indexesInPlaceMs: number;
  /** Faster of two runs loading index-less tables, then creating the indexes. */
  indexesAfterMs: number;
}

function removeDatabase(path: string): void {
  for (const suffix of ["", "-wal", "-shm"]) rmSync(`${path}${suffix}`, { force: true });
}

/** A fresh database with the real schema, opened with the indexer's own connection settings. */
async function freshDatabase(path: string): Promise<Database.Database> {
  removeDatabase(path);
  await (await openDatabase(path)).close();
  return openSqliteWriter(path, 10_000);
}

/** Copies every indexer table from `sourcePath`; returns the rows copied and the time taken. */
async function copyOnce(
  sourcePath: string,
  targetPath: string,
  indexesAfter: boolean,
): Promise<{ ms: number; rows: number }> {
  const db = await freshDatabase(targetPath);
  try {
    // Secondary indexes only: the primary keys and UNIQUE constraints stay (sql IS NULL).
    const indexes = indexesAfter
      ? (db
          .prepare(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL" +
              ` AND tbl_name IN (${INDEXER_TABLES.map((t) => `'${t}'`).join(", ")})`,
          )
          .all() as { name: string; sql: string }[])
      : [];
    for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
    db.prepare("ATTACH DATABASE ? AS src").run(sourcePath);
    let rows = 0;
    const started = performance.now();
    db.exec("BEGIN IMMEDIATE");
    for (const table of INDEXER_TABLES) {
      // Written columns only: generated ones (transfers' hash keys) take no values.
      const columns = (
        db.prepare(`SELECT name, hidden FROM pragma_table_xinfo('${table}')`).all() as {
          name: string;
          hidden: number;
        }[]
      )
        .filter((c) => c.hidden === 0)
        .map((c) => c.name)
        .join(", ");
      rows += db
        .prepare(
          `INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM src.${table} ORDER BY rowid`,
        )
        .run().changes;
    }
    for (const index of indexes) db.exec(index.sql);
    db.exec("COMMIT");
    return { ms: performance.now() - started, rows };
  } finally {
    db.close();
    removeDatabase(targetPath);
  }
}

export async function measureStoreFloor(
  sourcePath: string,
  targetPath: string,
): Promise<StoreFloorResult> {
  const inPlace: number[] = [];
  const after: number[] = [];
  let rows = 0;
  for (let run = 0; run < 2; run++) {
    const a = await copyOnce(sourcePath, targetPath, false);
    const b = await copyOnce(sourcePath, targetPath, true);
    if (a.rows !== b.rows) throw new Error(`store floor: copied ${a.rows} and ${b.rows} rows`);
    rows = a.rows;
    inPlace.push(a.ms);
    after.push(b.ms);
  }
  return { rows, indexesInPlaceMs: Math.min(...inPlace), indexesAfterMs: Math.min(...after) };
}
