import type pg from "pg";
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
    await client.query("COMMIT");
    if (done.length > 0) logger?.info({ versions: done }, "postgres migrations applied");
    return done;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
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
