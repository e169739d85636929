/**
 * Opens the webhook tables on their own connection (SQLite) or small pool (PostgreSQL), for the
 * `webhooks` CLI, the /api/oracle/webhooks routes and the delivery process, with transactions.
 *
 * Why not through Store: the Store interface exposes neither its SQL executor nor a transaction
 * over other tables than transfers (as for api-key-store.ts); once the store is one
 * `openDatabase` object this becomes a repository registered there.
 */
import Database from "better-sqlite3";
import type { SqlExecutor } from "./backend.js";
import { databaseKind, sqlitePath } from "./database-url.js";
import { createStore } from "./index.js";
import {
  BACKGROUND_POSTGRES_TIMEOUTS,
  createPostgresPool,
  type PostgresTimeouts,
  runPostgresTransaction,
} from "./postgres/connections.js";
import { createPostgresBackend } from "./postgres/postgres-backend.js";
import { createSerialQueue } from "./scoped-store.js";
import { createSqliteBackend, createStatementCache } from "./sqlite/sqlite-backend.js";
import type { StoreLogger } from "./types.js";
import {
  createWebhookRepository,
  type Dialect,
  type WebhookRepository,
} from "./webhook-repository.js";

export interface WebhookStore {
  readonly kind: Dialect;
  /** Statements outside a transaction (each its own). */
  readonly webhooks: WebhookRepository;
  /** The same connection's executor, for the change log reader in the fan-out's transaction. */
  readonly sql: SqlExecutor;
  /**
   * Runs `work` in one transaction (SQLite: BEGIN IMMEDIATE, one at a time per store);
   * commits when it resolves, rolls back when it rejects.
   */
  transaction<T>(work: (webhooks: WebhookRepository, sql: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenWebhookStoreOptions {
  readonly databaseUrl: string;
  /** Run the migrations first (default true); false when a Store on it already did. */
  readonly migrate?: boolean;
  readonly logger?: StoreLogger;
  /** PostgreSQL pool bounds; default BACKGROUND_POSTGRES_TIMEOUTS. */
  readonly timeouts?: PostgresTimeouts;
  /** PostgreSQL pool size; default 4. */
  readonly poolSize?: number;
}

export async function openWebhookStore(options: OpenWebhookStoreOptions): Promise<WebhookStore> {
  const { databaseUrl } = options;
  const timeouts = options.timeouts ?? BACKGROUND_POSTGRES_TIMEOUTS;
  if (options.migrate ?? true) {
    const migrated = await createStore({ databaseUrl, logger: options.logger, timeouts });
    await migrated.close();
  }
  if (databaseKind(databaseUrl) === "postgres") {
    const pooled = createPostgresPool({ url: databaseUrl, max: options.poolSize ?? 4, timeouts });
    const sql = createPostgresBackend(pooled.pool).sql;
    return {
      kind: "postgres",
      webhooks: createWebhookRepository(sql, "postgres"),
      sql,
      transaction: (work) =>
        runPostgresTransaction(pooled.pool, (client) => {
          const inner = createPostgresBackend(client).sql;
          return work(createWebhookRepository(inner, "postgres"), inner);
        }),
      close: () => pooled.end(),
    };
  }
  const path = sqlitePath(databaseUrl);
  if (path === ":memory:" || path === "") {
    throw new Error("webhooks need a database file (or PostgreSQL) shared between processes");
  }
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  const sql = createSqliteBackend(createStatementCache(db)).sql;
  const webhooks = createWebhookRepository(sql, "sqlite");
  const queue = createSerialQueue();
  let closed = false;
  // One connection: a statement issued while another caller's transaction is open would join
  // that transaction, so root-level calls queue behind transactions too.
  const queued = Object.fromEntries(
    Object.entries(webhooks).map(([name, method]) => [
      name,
      (...args: unknown[]) =>
        queue(() => (method as (...a: unknown[]) => Promise<unknown>)(...args)),
    ]),
  ) as unknown as WebhookRepository;
  return {
    kind: "sqlite",
    webhooks: queued,
    sql: {
      all: (text, params) => queue(() => sql.all(text, params)),
      run: (text, params) => queue(() => sql.run(text, params)),
    },
    transaction: (work) =>
      queue(async () => {
        if (closed) throw new Error("the webhook store is closed");
        db.exec("BEGIN IMMEDIATE");
        try {
          const result = await work(webhooks, sql);
          db.exec("COMMIT");
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw error;
        }
      }),
    async close() {
      await queue(async () => {
        closed = true;
      });
      db.close();
    },
  };
}
