import type Database from "better-sqlite3";
import {
  createListIndexSql,
  LIST_INDEX_NAMES_SQL,
  missingListIndexes,
} from "../address-list-indexes.js";
import { assertMigrated, assertMigrationOrder, type Migration } from "../migrations/index.js";
import type { StoreLogger } from "../types.js";

/**
 * Applies pending migrations in one IMMEDIATE transaction (which takes SQLite's write lock, so
 * two processes starting on one file apply each migration once). Returns the versions applied.
 */
export function migrateSqlite(
  db: Database.Database,
  migrations: readonly Migration[],
  logger?: StoreLogger,
): number[] {
  assertMigrationOrder(migrations);
  const apply = db.transaction(() => {
    db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY," +
        " name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const applied = new Set(
      db
        .prepare("SELECT version FROM schema_migrations")
        .all()
        .map((row) => Number((row as { version: number }).version)),
    );
    const insert = db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at)" +
        " VALUES (?, ?, strftime('%Y-%m-%d %H:%M:%S', 'now'))",
    );
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sqlite);
      insert.run(migration.version, migration.name);
      done.push(migration.version);
    }
    // A list index missing (dropped by something other than the bulk path, whose drop is
    // part of its own transaction here): recreated from the one definition.
    const absent = missingListIndexes(
      db.prepare(LIST_INDEX_NAMES_SQL.sqlite).all() as { name: unknown }[],
    );
    for (const index of absent) db.exec(createListIndexSql("sqlite", index));
    return { done, rebuilt: absent.map((index) => index.name) };
  });
  const { done, rebuilt } = apply.immediate();
  if (done.length > 0) logger?.info({ versions: done }, "sqlite migrations applied");
  if (rebuilt.length > 0) logger?.warn({ indexes: rebuilt }, "address list indexes recreated");
  return done;
}

/** Throws unless every migration is applied; changes nothing (assertMigrated). */
export function checkSqliteMigrated(db: Database.Database, migrations: readonly Migration[]) {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  const versions =
    table === undefined
      ? []
      : db
          .prepare("SELECT version FROM schema_migrations")
          .all()
          .map((row) => Number((row as { version: number }).version));
  assertMigrated(new Set(versions), migrations);
}
