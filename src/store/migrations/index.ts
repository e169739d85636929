/**
 * Every schema migration, in the order they are applied.
 *
 * To add one (indexer cursors, raw logs, API keys, ...):
 *   1. create `src/store/migrations/NNNN-<name>.ts` exporting `migration: Migration` with the next
 *      free `version` (the number in the file name) and the SQL for both backends;
 *   2. import it here and append it to MIGRATIONS.
 * Never edit or reorder a migration that has shipped: databases record applied versions in
 * `schema_migrations(version, name, applied_at)` and will not re-run a changed one.
 * Both runners (sqlite/migrate.ts, postgres/migrate.ts) apply the pending ones inside one
 * transaction on start; PostgreSQL starters serialise on an advisory lock.
 */
import { migration as m0001 } from "./0001-transfers.js";
import { migration as m0002 } from "./0002-api-keys.js";
import { migration as m0003 } from "./0003-indexer.js";
import { migration as m0004 } from "./0004-transfer-change-notify.js";
import { migration as m0005 } from "./0005-failed-receive-amount.js";
import { migration as m0006 } from "./0006-api-key-change-notify.js";
import { migration as m0007 } from "./0007-transfer-changes.js";
import { migration as m0008 } from "./0008-transfers-start-time.js";
import { migration as m0009 } from "./0009-webhooks.js";
import { migration as m0010 } from "./0010-webhook-health.js";
import { migration as m0011 } from "./0011-event-roles.js";
import { migration as m0012 } from "./0012-record-protocol.js";
import { migration as m0013 } from "./0013-change-log-horizon.js";
import { migration as m0014 } from "./0014-pending-derivation.js";
import { migration as m0015 } from "./0015-compact-transfers.js";
import type { Migration } from "./migration.js";

export type { Migration } from "./migration.js";

export const MIGRATIONS: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
];

/**
 * For a command that must not change the schema (`index --status`): throws, saying so, when the
 * database lacks a migration of this version of bridge-oracle. `applied`: the versions in its
 * schema_migrations (none when the table is missing).
 */
export function assertMigrated(applied: ReadonlySet<number>, migrations: readonly Migration[]) {
  const missing = migrations.filter((m) => !applied.has(m.version)).length;
  if (missing > 0) {
    throw new Error(
      `the database is not migrated to this version of bridge-oracle (${migrations.length - missing} of ${migrations.length} migrations applied); \`bridge-oracle index\` or \`serve\` migrates it`,
    );
  }
}

/** Throws when versions are not strictly increasing (a merge mistake, caught at start). */
export function assertMigrationOrder(migrations: readonly Migration[]): void {
  let previous = 0;
  for (const m of migrations) {
    if (!Number.isInteger(m.version) || m.version <= previous) {
      throw new Error(`migration ${m.version} (${m.name}) is out of order after ${previous}`);
    }
    previous = m.version;
  }
}
