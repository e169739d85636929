import type pg from "pg";
import {
  BUILD_MAINTENANCE_WORK_MEM,
  createListIndexSql,
  LIST_INDEX_NAMES_SQL,
  missingListIndexes,
  TRY_BULK_LOAD_LOCK_SQL,
} from "../address-list-indexes.js";
import { assertMigrated, assertMigrationOrder, type Migration } from "../migrations/index.js";
import type { StoreLogger } from "../types.js";

/** Arbitrary constant naming this application's migration lock (pg_advisory_xact_lock). */
const MIGRATION_LOCK_KEY = 7_364_019_221;

/**
 * Applies pending migrations in one transaction holding a transaction-level advisory lock, so
 * concurrent starters wait for each other and each migration is applied once. Tables go to the
 * connection's search_path (tests isolate themselves with a schema there).
 */
export async function migratePostgres(
  pool: pg.Pool,
  migrations: readonly Migration[],
  logger?: StoreLogger,
): Promise<number[]> {
  assertMigrationOrder(migrations);
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY," +
        " name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
    );
    const { rows } = await client.query<{ version: number }>(
      "SELECT version FROM schema_migrations",
    );
    const applied = new Set(rows.map((row) => Number(row.version)));
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.postgres);
      await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      done.push(migration.version);
    }
    const rebuilt = await repairListIndexes(client);
    await client.query("COMMIT");
    if (done.length > 0) logger?.info({ versions: done }, "postgres migrations applied");
    if (rebuilt === "bulk load running") {
      logger?.info({}, "address list indexes: a bulk load is running and builds them at its end");
    } else if (rebuilt.length > 0) {
      logger?.warn({ indexes: rebuilt }, "address list indexes recreated");
    }
    return done;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Recreates missing list indexes (an import killed after dropping them for its bulk load:
 * address-list-indexes.ts), unless a bulk load is running: it holds its advisory lock until it
 * has built them, and waiting for it would hold this start for the whole import.
 */
async function repairListIndexes(client: pg.PoolClient): Promise<string[] | "bulk load running"> {
  const absent = missingListIndexes(
    (await client.query<{ name: string }>(LIST_INDEX_NAMES_SQL.postgres)).rows,
  );
  if (absent.length === 0) return [];
  const { rows } = await client.query<{ free: boolean }>(TRY_BULK_LOAD_LOCK_SQL);
  if (rows[0]?.free !== true) return "bulk load running";
  await client.query("SELECT set_config('maintenance_work_mem', $1, true)", [
    BUILD_MAINTENANCE_WORK_MEM,
  ]);
  for (const index of absent) await client.query(createListIndexSql("postgres", index));
  return absent.map((index) => index.name);
}

/** Throws unless every migration is applied; changes nothing (assertMigrated). */
export async function checkPostgresMigrated(pool: pg.Pool, migrations: readonly Migration[]) {
  const exists = await pool.query<{ t: string | null }>(
    "SELECT to_regclass('schema_migrations')::text AS t",
  );
  const versions =
    exists.rows[0]?.t == null
      ? []
      : (await pool.query<{ version: number }>("SELECT version FROM schema_migrations")).rows.map(
          (row) => Number(row.version),
        );
  assertMigrated(new Set(versions), migrations);
}
