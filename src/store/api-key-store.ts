/**
 * Opens the api_keys repository on its own connection (SQLite) or small pool (PostgreSQL), for
 * the keys CLI and for each server's key cache.
 *
 * Why not through Store: the Store interface does not expose its SQL executor, and a dedicated
 * connection keeps the cache's version checks from ever queueing behind the API's queries (or
 * the API's behind them). Once Store grows an `apiKeys` repository this becomes a thin adapter.
 *
 * How a server learns of a created or revoked key: it polls the key-set version every 500 ms,
 * and on PostgreSQL it also LISTENs for the NOTIFY of migration 0006 (`subscribe`), which makes
 * the change apply within milliseconds.
 */
import Database from "better-sqlite3";
import { type ApiKeyRepository, createApiKeyRepository } from "./api-key-repository.js";
import { databaseKind, sqlitePath } from "./database-url.js";
import { createStore } from "./index.js";
import { API_KEYS_CHANGED_CHANNEL } from "./migrations/0006-api-key-change-notify.js";
import { type ChangeListener, createChangeListener } from "./postgres/change-listener.js";
import {
  API_POSTGRES_TIMEOUTS,
  createPostgresPool,
  type PostgresTimeouts,
} from "./postgres/connections.js";
import { createPostgresBackend } from "./postgres/postgres-backend.js";
import { createSqliteBackend, createStatementCache } from "./sqlite/sqlite-backend.js";
import type { StoreLogger } from "./types.js";

export interface OpenApiKeyRepositoryOptions {
  /** Same as DATABASE_URL: postgres://... or a SQLite file path. */
  readonly databaseUrl: string;
  /**
   * Run the migrations first (default true). Pass false when the caller already opened a Store
   * on this database, which migrated it.
   */
  readonly migrate?: boolean;
  readonly logger?: StoreLogger;
  /**
   * PostgreSQL: bounds of the small pool and the listening connection. Default
   * API_POSTGRES_TIMEOUTS: every query here is tiny, and a server's key refresh must not wait
   * for ever on a connection that went silent (the refresh and the app's close wait for it).
   */
  readonly timeouts?: PostgresTimeouts;
  /** PostgreSQL: the listening connection's heartbeat, for tests; default LISTENER_HEARTBEAT. */
  readonly heartbeat?: { readonly intervalMs: number; readonly timeoutMs: number };
}

export interface ClosableApiKeyRepository extends ApiKeyRepository {
  close(): Promise<void>;
  /**
   * PostgreSQL: calls `onChange` when a key is created or revoked anywhere (LISTEN on the
   * channel of migration 0006), and after every reconnection of the listening connection.
   */
  subscribe?(onChange: () => void): void;
}

export async function openApiKeyRepository(
  options: OpenApiKeyRepositoryOptions,
): Promise<ClosableApiKeyRepository> {
  const { databaseUrl } = options;
  const timeouts = options.timeouts ?? API_POSTGRES_TIMEOUTS;
  if (options.migrate ?? true) {
    // Migrations get no query bound (createPostgresStore), only the connect bound.
    const migrated = await createStore({ databaseUrl, logger: options.logger, timeouts });
    await migrated.close();
  }
  if (databaseKind(databaseUrl) === "postgres") {
    // Two connections: the cache's poll and the batched last-use writes never wait long. An
    // idle client dropping is ignored: the next query reconnects.
    const pooled = createPostgresPool({ url: databaseUrl, max: 2, timeouts });
    const listeners: ChangeListener[] = [];
    return {
      ...createApiKeyRepository(createPostgresBackend(pooled.pool).sql),
      subscribe(onChange) {
        const listener = createChangeListener({
          databaseUrl,
          channel: API_KEYS_CHANGED_CHANNEL,
          onChange,
          ...(options.logger !== undefined ? { logger: options.logger } : {}),
          lostMessage: "API keys: lost the change notifications; polling the key-set version",
          connectTimeoutMs: timeouts.connectMs,
          ...(options.heartbeat !== undefined
            ? {
                heartbeatIntervalMs: options.heartbeat.intervalMs,
                heartbeatTimeoutMs: options.heartbeat.timeoutMs,
              }
            : {}),
        });
        listener.counter(); // starts listening
        listeners.push(listener);
      },
      async close() {
        await Promise.all(listeners.map((l) => l.close()));
        await pooled.end();
      },
    };
  }
  const path = sqlitePath(databaseUrl);
  if (path === ":memory:" || path === "") {
    throw new Error(
      "API keys need a database file (or PostgreSQL) shared with the keys CLI, not :memory:",
    );
  }
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 5000");
  const repository = createApiKeyRepository(createSqliteBackend(createStatementCache(db)).sql);
  return {
    ...repository,
    async close() {
      db.close();
    },
  };
}
