/**
 * PostgreSQL Database (production). A pg Pool; each transaction() takes one client for BEGIN ...
 * COMMIT, so transactions run concurrently (seq maintenance serialises per address on the
 * address_stats row lock). Optional read pool (a replica): root-level list/get queries go there;
 * writes and everything inside transaction() use the primary. With `backgroundTimeouts` other
 * than `timeouts` (`start`: the API and the indexer in one process), transactions and the
 * indexer's statements get a pool of their own with those bounds.
 */

import { redactUrl } from "../../redact-url.js";
import type { TransferBackend } from "../backend.js";
import type { DatabaseTransaction, Database as OpenDatabase } from "../database-types.js";
import { API_KEYS_CHANGED_CHANNEL } from "../migrations/0006-api-key-change-notify.js";
import { MIGRATIONS } from "../migrations/index.js";
import { createRepositories } from "../repositories.js";
import { runInScope, type TransactionConnection } from "../scoped-store.js";
import { NoAnswerError, ReadReplicaError, readReplicaFailure } from "../store-unavailable.js";
import type { StoreLogger } from "../types.js";
import { type ChangeListener, createChangeListener } from "./change-listener.js";
import {
  BACKGROUND_POSTGRES_TIMEOUTS,
  createPostgresPool,
  type PostgresPool,
  type PostgresTimeouts,
  runPostgresTransaction,
} from "./connections.js";
import { checkPostgresMigrated, migratePostgres } from "./migrate.js";
import { createPostgresBackend } from "./postgres-backend.js";

export interface PostgresDatabaseOptions {
  databaseUrl: string;
  /** A read replica for list/get queries (DATABASE_READ_URL); default: the primary. */
  readDatabaseUrl?: string | undefined;
  logger?: StoreLogger | undefined;
  /** false: only check that every migration is applied (OpenDatabaseOptions.migrate). */
  migrate?: boolean | undefined;
  /** Pool size per URL. Default 10. */
  poolSize?: number | undefined;
  /**
   * Bounds of the pools (connections.ts). Default BACKGROUND_POSTGRES_TIMEOUTS: no query bound,
   * as imports and the indexer run long statements; `serve` passes the API's. Migrations never
   * get a query bound (an index build on a big table takes minutes), only `connectMs` and the
   * silence check; the change listeners connect within `connectMs` too.
   */
  timeouts?: PostgresTimeouts | undefined;
  /** Bounds of transaction() and the indexer's statements; default `timeouts` (same pool). */
  backgroundTimeouts?: PostgresTimeouts | undefined;
  /** The listening connections' heartbeat; default LISTENER_HEARTBEAT. */
  listenerHeartbeat?: { readonly intervalMs: number; readonly timeoutMs: number } | undefined;
}

function createPool(
  url: string,
  max: number,
  timeouts: PostgresTimeouts,
  logger?: StoreLogger,
): PostgresPool {
  return createPostgresPool({
    url,
    max,
    timeouts,
    onIdleError: (error) =>
      logger?.warn({ err: error.message, url: redactUrl(url) }, "postgres pool error"),
  });
}

/** pg's connect timeouts: the pool's own timer or the client's, whichever fires first. */
const CONNECT_TIMEOUT =
  /^(timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;

/** Why migrating failed, for the operator: pg's connect timeout does not say how long it waited. */
function prepareFailure(error: unknown, connectMs: number): string {
  const message = (error as Error).message;
  return CONNECT_TIMEOUT.test(message)
    ? `no answer within ${connectMs} ms while connecting (${message})`
    : message;
}

/** `promise`, or `timedOut()` as a rejection when it has not settled within `ms` (if given). */
function withDeadline<T>(
  promise: Promise<T>,
  ms: number | undefined,
  timedOut: () => Error,
): Promise<T> {
  if (ms === undefined) return promise;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

export async function openPostgresDatabase(
  options: PostgresDatabaseOptions,
): Promise<OpenDatabase> {
  const { logger } = options;
  const poolSize = options.poolSize ?? 10;
  const timeouts = options.timeouts ?? BACKGROUND_POSTGRES_TIMEOUTS;
  // No query bound for migrations, but the silence check (connections.ts) for every caller.
  const migrationPool = createPool(
    options.databaseUrl,
    1,
    {
      connectMs: timeouts.connectMs,
      silenceCheckMs: BACKGROUND_POSTGRES_TIMEOUTS.silenceCheckMs,
    },
    logger,
  );
  try {
    if (options.migrate === false) await checkPostgresMigrated(migrationPool.pool, MIGRATIONS);
    else await migratePostgres(migrationPool.pool, MIGRATIONS, logger);
  } catch (error) {
    const reason = prepareFailure(error, timeouts.connectMs);
    throw new Error(`cannot prepare PostgreSQL at ${redactUrl(options.databaseUrl)}: ${reason}`, {
      cause: error,
    });
  } finally {
    await migrationPool.end();
  }
  const primary = createPool(options.databaseUrl, poolSize, timeouts, logger);
  const replica =
    options.readDatabaseUrl === undefined
      ? undefined
      : createPool(options.readDatabaseUrl, poolSize, timeouts, logger);
  const background =
    options.backgroundTimeouts === undefined || sameBounds(options.backgroundTimeouts, timeouts)
      ? undefined
      : createPool(options.databaseUrl, 4, options.backgroundTimeouts, logger);
  const pool = primary.pool;
  const readPool = replica?.pool ?? pool;
  const backgroundPool = background?.pool ?? pool;
  logger?.info({ url: redactUrl(options.databaseUrl) }, "postgres store open");
  const heartbeat =
    options.listenerHeartbeat === undefined
      ? {}
      : {
          heartbeatIntervalMs: options.listenerHeartbeat.intervalMs,
          heartbeatTimeoutMs: options.listenerHeartbeat.timeoutMs,
        };

  // Cached list answers need to hear about every commit before they are read again. With a read
  // replica they cannot: a notification from the primary can arrive before the replica has
  // replayed the commit, and a refill from the replica would then cache the old data as new.
  // The change log is read from the primary, so its subscribers (subscribeChanges) are told
  // either way. The listening connection opens on the first counter() or subscription.
  const subscribers = new Set<() => void>();
  const notify = () => {
    for (const subscriber of subscribers) subscriber();
  };
  const listener = createChangeListener({
    databaseUrl: options.databaseUrl,
    logger,
    connectTimeoutMs: timeouts.connectMs,
    onChange: notify,
    lostMessage:
      "transfers: lost the change notifications; nothing is cached and streams wait until they are back",
    ...heartbeat,
  });
  const changes = replica === undefined ? listener : undefined;
  const apiKeyListeners: ChangeListener[] = [];

  const latestMigration = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

  /**
   * The primary answers; and a read replica, when there is one, answers too and has replayed
   * every migration (list reads go there: a replica that lags behind the schema or cannot be
   * reached would fail them while the primary looks fine). Both are asked at once, so a replica
   * that gives no answer is named as such rather than taken for the primary.
   */
  async function ping(pingOptions: { timeoutMs?: number } = {}): Promise<void> {
    const { timeoutMs } = pingOptions;
    const primaryAnswers = withDeadline(
      pool.query("SELECT 1"),
      timeoutMs,
      () => new NoAnswerError("the database (DATABASE_URL)", timeoutMs as number),
    );
    const replicaReady =
      replica === undefined
        ? undefined
        : withDeadline(
            replicaMigrated(),
            timeoutMs,
            () =>
              new ReadReplicaError("unreachable", `no answer within ${timeoutMs} ms`, {
                cause: new NoAnswerError(
                  "the read replica (DATABASE_READ_URL)",
                  timeoutMs as number,
                ),
              }),
          );
    replicaReady?.catch(() => {}); // awaited below, after the primary's answer
    await primaryAnswers;
    await replicaReady;
  }

  async function replicaMigrated(): Promise<void> {
    let version: number;
    try {
      const { rows } = await readPool.query<{ version: string | number | null }>(
        "SELECT max(version) AS version FROM schema_migrations",
      );
      version = Number(rows[0]?.version ?? 0);
    } catch (cause) {
      const failure = readReplicaFailure(cause);
      throw failure instanceof ReadReplicaError
        ? failure
        : new ReadReplicaError("failing", `cannot query: ${(cause as Error).message}`, { cause });
    }
    if (version < latestMigration) {
      throw new ReadReplicaError(
        "not migrated",
        `at schema version ${version}, the service needs ${latestMigration}`,
      );
    }
  }

  async function inTransaction<T>(
    work: (tx: DatabaseTransaction, backend: TransferBackend) => Promise<T>,
  ): Promise<T> {
    const result = await runPostgresTransaction(backgroundPool, (client) => {
      const connection: TransactionConnection = {
        async exec(statement) {
          await client.query(statement);
        },
        backend: (assertOpen) => createPostgresBackend(client, assertOpen),
      };
      return runInScope({ kind: "postgres", connection, depth: 1, ping }, work);
    });
    // The counter moves at once (this process reads its own writes through the cache). The
    // subscribers are not called here: they hear of transfer changes, this process's included,
    // by the NOTIFY alone. Calling them after every transaction woke the delivery loop after
    // its own bookkeeping, which then never rested (~1,100 rounds/s; issue #42).
    listener.bump();
    return result;
  }

  return {
    kind: "postgres",
    ...createRepositories({
      kind: "postgres",
      // Failures on the replica name it (503 "the read replica ..."), not the database.
      replicaReads:
        replica === undefined
          ? createPostgresBackend(pool)
          : createPostgresBackend(readPool, undefined, readReplicaFailure),
      requests: createPostgresBackend(pool).sql,
      background: createPostgresBackend(backgroundPool).sql,
      atomically: (fn) => inTransaction((_tx, backend) => fn(backend)),
    }),
    transaction: (work) => inTransaction((tx) => work(tx)),
    ping,
    ...(changes === undefined ? {} : { changeCounter: changes.counter }),
    subscribeChanges(onChange) {
      subscribers.add(onChange);
      listener.counter(); // starts listening
      return () => subscribers.delete(onChange);
    },
    changes: {
      subscribeApiKeys(onChange) {
        const apiKeyListener = createChangeListener({
          databaseUrl: options.databaseUrl,
          channel: API_KEYS_CHANGED_CHANNEL,
          onChange,
          logger,
          lostMessage: "API keys: lost the change notifications; polling the key-set version",
          connectTimeoutMs: timeouts.connectMs,
          ...heartbeat,
        });
        apiKeyListener.counter(); // starts listening
        apiKeyListeners.push(apiKeyListener);
      },
    },
    async close() {
      // At once: each waits up to a second for a server that went silent (connections.ts).
      await Promise.all([
        listener.close(),
        ...apiKeyListeners.map((apiKeyListener) => apiKeyListener.close()),
        primary.end(),
        replica?.end(),
        background?.end(),
      ]);
    },
  };
}

function sameBounds(a: PostgresTimeouts, b: PostgresTimeouts): boolean {
  return (
    a.connectMs === b.connectMs &&
    a.queryMs === b.queryMs &&
    a.silenceCheckMs === b.silenceCheckMs &&
    a.idleInTransactionMs === b.idleInTransactionMs
  );
}
