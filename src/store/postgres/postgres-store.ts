/**
 * PostgreSQL Store (production). A pg Pool; each transaction() takes one client for BEGIN ...
 * COMMIT, so transactions run concurrently (seq maintenance serialises per address on the
 * address_stats row lock). Optional read pool (a replica): root-level list/get queries go there;
 * writes and everything inside transaction() use the primary.
 */
import pg from "pg";
import type { TransferBackend } from "../backend.js";
import { redactDatabaseUrl } from "../database-url.js";
import { MIGRATIONS } from "../migrations/index.js";
import { runInScope, type TransactionConnection } from "../scoped-store.js";
import { createTransferRepository } from "../transfer-repository.js";
import type { Store, StoreLogger } from "../types.js";
import { createChangeListener } from "./change-listener.js";
import { migratePostgres } from "./migrate.js";
import { createPostgresBackend } from "./postgres-backend.js";

export interface PostgresStoreOptions {
  databaseUrl: string;
  /** A read replica for list/get queries (DATABASE_READ_URL); default: the primary. */
  readDatabaseUrl?: string;
  logger?: StoreLogger;
  /** Pool size per URL. Default 10. */
  poolSize?: number;
}

function createPool(url: string, max: number, logger?: StoreLogger): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client's connection dropping must not crash the process: the next query reconnects.
  pool.on("error", (error) => {
    logger?.warn({ err: error.message, url: redactDatabaseUrl(url) }, "postgres pool error");
  });
  return pool;
}

/** `ping` on a store with a read replica that cannot serve reads; the message says why. */
export class ReadReplicaNotReadyError extends Error {
  readonly readReplica = true;
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`read replica (DATABASE_READ_URL): ${reason}`, options);
    this.name = "ReadReplicaNotReadyError";
  }
}

export async function createPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const { logger } = options;
  const poolSize = options.poolSize ?? 10;
  const pool = createPool(options.databaseUrl, poolSize, logger);
  const readPool =
    options.readDatabaseUrl === undefined
      ? pool
      : createPool(options.readDatabaseUrl, poolSize, logger);
  try {
    await migratePostgres(pool, MIGRATIONS, logger);
  } catch (error) {
    await pool.end();
    if (readPool !== pool) await readPool.end();
    throw new Error(
      `cannot prepare PostgreSQL at ${redactDatabaseUrl(options.databaseUrl)}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  logger?.info({ url: redactDatabaseUrl(options.databaseUrl) }, "postgres store open");

  // Cached list answers need to hear about every commit before they are read again. With a read
  // replica they cannot: a notification from the primary can arrive before the replica has
  // replayed the commit, and a refill from the replica would then cache the old data as new.
  const changes =
    readPool === pool
      ? createChangeListener({ databaseUrl: options.databaseUrl, logger })
      : undefined;

  const latestMigration = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

  /**
   * The primary answers; and a read replica, when there is one, answers too and has replayed
   * every migration (list reads go there: a replica that lags behind the schema or cannot be
   * reached would fail them while the primary looks fine).
   */
  async function ping(): Promise<void> {
    await pool.query("SELECT 1");
    if (readPool === pool) return;
    let version: number;
    try {
      const { rows } = await readPool.query<{ version: string | number | null }>(
        "SELECT max(version) AS version FROM schema_migrations",
      );
      version = Number(rows[0]?.version ?? 0);
    } catch (cause) {
      throw new ReadReplicaNotReadyError(`cannot query: ${(cause as Error).message}`, { cause });
    }
    if (version < latestMigration) {
      throw new ReadReplicaNotReadyError(
        `at schema version ${version}, the service needs ${latestMigration}`,
      );
    }
  }

  async function inTransaction<T>(
    work: (store: Store, backend: TransferBackend) => Promise<T>,
  ): Promise<T> {
    const client = await pool.connect();
    const connection: TransactionConnection = {
      async exec(statement) {
        await client.query(statement);
      },
      backend: (assertOpen) => createPostgresBackend(client, assertOpen),
    };
    let broken = false;
    try {
      await client.query("BEGIN");
      const result = await runInScope({ kind: "postgres", connection, depth: 1, ping }, work);
      await client.query("COMMIT");
      changes?.bump();
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      // A client whose rollback failed is in an unknown state: destroy it, not reuse it.
      client.release(broken);
    }
  }

  return {
    kind: "postgres",
    transfers: createTransferRepository({
      reader: createPostgresBackend(readPool),
      atomically: (fn) => inTransaction((_store, backend) => fn(backend)),
    }),
    transaction: (work) => inTransaction((store) => work(store)),
    ping,
    ...(changes === undefined ? {} : { changeCounter: changes.counter }),
    async close() {
      await changes?.close();
      await pool.end();
      if (readPool !== pool) await readPool.end();
    },
  };
}
