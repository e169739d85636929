/**
 * The database object: every command (`serve`, `index`, `start`, `import`, `keys`) opens one
 * with `openDatabase`, which migrates the database once and returns the repositories
 * (repositories.ts) over one connection pair (SQLite) or one pool (PostgreSQL). `transaction(fn)`
 * hands `fn` the same repositories bound to one transaction. `DATABASE_URL` picks the backend:
 * postgres:// or postgresql:// -> PostgreSQL; anything else is a SQLite file path.
 */
import { redactUrl } from "../redact-url.js";
import type { Database, OpenDatabaseOptions } from "./database-types.js";
import { databaseKind, sqlitePath } from "./database-url.js";
import { openPostgresDatabase } from "./postgres/postgres-database.js";
import { openSqliteDatabase } from "./sqlite/sqlite-database.js";

export type {
  ChangeNotifications,
  Database,
  DatabaseTransaction,
  OpenDatabaseOptions,
  TransferWrites,
} from "./database-types.js";

export async function openDatabase(
  databaseUrl: string,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const { logger } = options;
  if (databaseKind(databaseUrl) === "postgres") {
    return openPostgresDatabase({ ...options, databaseUrl });
  }
  if (options.readDatabaseUrl) {
    logger?.warn(
      { readDatabaseUrl: redactUrl(options.readDatabaseUrl) },
      "read database URL ignored: it applies to PostgreSQL only",
    );
  }
  return openSqliteDatabase({
    path: sqlitePath(databaseUrl),
    logger,
    busyTimeoutMs: options.busyTimeoutMs,
    migrate: options.migrate,
  });
}
