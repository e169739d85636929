/**
 * SQLite Database (embedded default). Two connections to one WAL file:
 *   - the writer runs every transaction. better-sqlite3 is synchronous and a connection holds
 *     one transaction, so this Database SERIALISES transactions: transaction() calls queue and
 *     run one at a time (BEGIN IMMEDIATE ... COMMIT), even while `work` awaits. A root-level
 *     write (an API key's last use, the indexer's progress) is one statement queued the same way;
 *   - the reader serves root-level reads, so they see only committed data and never wait for
 *     a long transaction (WAL readers do not block on the writer).
 * ":memory:" has no file to share, so both roles use one connection there (reads may then see
 * the open transaction's writes): meant for throwaway use only.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import Database from "better-sqlite3";
import type { SqlExecutor } from "../backend.js";
import type { Database as OpenDatabase } from "../database-types.js";
import { MIGRATIONS } from "../migrations/index.js";
import { createRepositories } from "../repositories.js";
import { createSerialQueue, runInScope, type TransactionConnection } from "../scoped-store.js";
import type { StoreLogger } from "../types.js";
import { watchDatabaseFile } from "./database-file.js";
import { checkSqliteMigrated, migrateSqlite } from "./migrate.js";
import { createPrivateFile, looseModeWarning } from "./private-files.js";
import { createSqliteBackend, createStatementCache } from "./sqlite-backend.js";

export interface SqliteDatabaseOptions {
  /**
   * File path, or ":memory:". The file (0600) and its parent directory (0700) are created when
   * missing.
   */
  path: string;
  logger?: StoreLogger | undefined;
  /** Milliseconds to wait for another process's write lock. Default 5000. */
  busyTimeoutMs?: number | undefined;
  /** false: only check that every migration is applied (OpenDatabaseOptions.migrate). */
  migrate?: boolean | undefined;
  /** Page cache limit of the writer, MiB (a ceiling, allocated only as used). Default 512. */
  cacheSizeMb?: number | undefined;
  /**
   * How often `changeCounter` looks for commits by other connections (the indexer's, another
   * process's), in milliseconds. Default 50.
   */
  changePollMs?: number | undefined;
}

export const DEFAULT_CHANGE_POLL_MS = 50;

/**
 * Opens a connection with the store's settings (WAL, busy timeout, synchronous=NORMAL, foreign
 * keys, page cache). For modules that keep their own connection to the store's file.
 */
export function openSqliteConnection(
  path: string,
  busyTimeoutMs = 5000,
  cacheSizeMb = 512,
): Database.Database {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  // The default 2 MB page cache thrashes once the indexes outgrow it: a bulk import touches
  // leaf pages of eight address indexes all over the file and, inside one transaction, spills
  // and rewrites them to the WAL again and again. The limit is a ceiling, not an allocation.
  db.pragma(`cache_size = ${-Math.trunc(cacheSizeMb * 1024)}`);
  db.pragma("temp_store = MEMORY");
  return db;
}

/**
 * The writer's connection: the store's settings, plus a WAL checkpoint every 10,000 pages. A
 * backfill batch dirties thousands of pages; checkpointing every 1,000 (the default) copies the
 * same index pages back to the file over and over. 10,000 pages (~40 MB of WAL) between
 * checkpoints coalesces those writes; readers are unaffected. Also for the benchmarks' floors.
 */
export function openSqliteWriter(
  path: string,
  busyTimeoutMs = 5000,
  cacheSizeMb = 512,
): Database.Database {
  const db = openSqliteConnection(path, busyTimeoutMs, cacheSizeMb);
  db.pragma("wal_autocheckpoint = 10000");
  return db;
}

export async function openSqliteDatabase(options: SqliteDatabaseOptions): Promise<OpenDatabase> {
  const { path, logger } = options;
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  const cacheSizeMb = options.cacheSizeMb ?? 512;
  const inMemory = path === ":memory:" || path === "";
  if (!inMemory) {
    createPrivateFile(path); // 0600 in a 0700 directory when new (private-files.ts)
    const loose = looseModeWarning(path);
    if (loose !== undefined) logger?.warn({ path }, loose);
  }
  const writer = openSqliteWriter(inMemory ? ":memory:" : path, busyTimeoutMs, cacheSizeMb);
  let reader = writer;
  try {
    if (options.migrate === false) checkSqliteMigrated(writer, MIGRATIONS);
    else migrateSqlite(writer, MIGRATIONS, logger);
    if (!inMemory) {
      // Readers need less: the OS page cache backs them, and they never hold dirty pages.
      reader = openSqliteConnection(path, busyTimeoutMs, Math.min(cacheSizeMb, 128));
      reader.pragma("query_only = ON");
    }
  } catch (error) {
    writer.close();
    throw error;
  }
  logger?.info({ path }, "sqlite store open");
  const databaseFile = inMemory ? undefined : watchDatabaseFile(path);

  const prepareOnWriter = createStatementCache(writer);
  const readerBackend = createSqliteBackend(
    reader === writer ? prepareOnWriter : createStatementCache(reader),
  );
  const connection: TransactionConnection = {
    async exec(statement) {
      writer.exec(statement);
    },
    backend: (assertOpen) => createSqliteBackend(prepareOnWriter, assertOpen),
  };
  const queue = createSerialQueue();
  let closed = false;

  // changeCounter and subscribeChanges tell of commits that changed transfers, and only of
  // those: every change of a transfer appends to the change log (migration 0007), whose
  // AUTOINCREMENT sequence (sqlite_sequence) then moves, or bumps unlogged_commits; other writes (webhook bookkeeping, API
  // keys, the indexer's cursor) leave it, and so neither flush the list cache nor wake the
  // delivery loop, which would otherwise wake itself with each of its own commits. Commits
  // through this store's writer are seen at once; commits by any other connection show first in
  // the reader's PRAGMA data_version, polled every changePollMs (one cheap read of the WAL index,
  // off the request path), and only then is the sequence read.
  const changePollMs = options.changePollMs ?? DEFAULT_CHANGE_POLL_MS;
  let changes = 0;
  const subscribers = new Set<() => void>();
  const notify = () => {
    if (subscribers.size === 0) return;
    setImmediate(() => {
      for (const listener of subscribers) listener();
    });
  };
  // A transaction that wrote history with the log paused (migration 0013) bumps
  // unlogged_commits instead: the sum moves with every commit that changed transfers.
  const changeLogSeq = (connection: Database.Database) => {
    const statement = connection
      .prepare(
        "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'transfer_changes'), 0)" +
          " + COALESCE((SELECT unlogged_commits FROM transfer_changes_horizon WHERE id = 1), 0)",
      )
      .pluck();
    return () => Number(statement.get() ?? 0);
  };
  const writerChangeLogSeq = changeLogSeq(writer);
  const readerChangeLogSeq = reader === writer ? writerChangeLogSeq : changeLogSeq(reader);
  let lastChangeLogSeq = writerChangeLogSeq();
  /** Moves the counter and tells the subscribers when the change log grew since last seen. */
  const noteChangeLog = (seq: number) => {
    if (seq <= lastChangeLogSeq) return;
    lastChangeLogSeq = seq;
    changes++;
    notify();
  };
  const dataVersion = reader.prepare("PRAGMA data_version").pluck();
  let lastDataVersion = dataVersion.get() as number;
  const changePoll = setInterval(() => {
    if (closed) return;
    const now = dataVersion.get() as number;
    if (now !== lastDataVersion) {
      lastDataVersion = now;
      noteChangeLog(readerChangeLogSeq());
    }
  }, changePollMs);
  changePoll.unref();

  async function ping(): Promise<void> {
    if (closed) throw new Error("store is closed");
    databaseFile?.check();
    reader.prepare("SELECT 1").get();
  }

  // Marks async work running inside one of this store's transactions: a write or transaction()
  // on the root store from there would queue behind the transaction it runs in and wait forever.
  const insideTransaction = new AsyncLocalStorage<true>();

  const deadlock = () =>
    Promise.reject(
      new Error(
        "a write or transaction() on the root SQLite database inside one of its transactions" +
          " would deadlock; use the repositories passed to the transaction's work",
      ),
    );

  function inTransaction<T>(work: Parameters<typeof runInScope<T>>[1]): Promise<T> {
    if (insideTransaction.getStore()) return deadlock();
    return queue(async () => {
      if (closed) throw new Error("store is closed");
      writer.exec("BEGIN IMMEDIATE");
      try {
        const result = await insideTransaction.run(true, () =>
          runInScope({ kind: "sqlite", connection, depth: 1, ping }, work),
        );
        writer.exec("COMMIT");
        noteChangeLog(writerChangeLogSeq());
        return result;
      } catch (error) {
        if (writer.inTransaction) writer.exec("ROLLBACK");
        throw error;
      } finally {
        // Transactions run one at a time (the queue), so none is inside one now. Disabling the
        // storage turns Node's async hooks off again while no transaction runs: enabled, they
        // tax every promise and process.nextTick of the whole process (HTTP requests included).
        insideTransaction.disable();
      }
    });
  }

  // Root-level statements: reads on the reader; each write its own transaction on the writer,
  // queued behind the transactions (it would otherwise land inside one that is open).
  const writerRoot = createSqliteBackend(prepareOnWriter).sql;
  const root: SqlExecutor = {
    all: (sql, params) => readerBackend.sql.all(sql, params),
    run(sql, params) {
      if (insideTransaction.getStore()) return deadlock();
      return queue(async () => {
        if (closed) throw new Error("database is closed");
        const changed = await writerRoot.run(sql, params);
        noteChangeLog(writerChangeLogSeq());
        return changed;
      });
    },
  };

  return {
    kind: "sqlite",
    ...createRepositories({
      kind: "sqlite",
      replicaReads: readerBackend,
      requests: root,
      background: root,
      atomically: (fn) => inTransaction((_tx, backend) => fn(backend)),
    }),
    transaction: (work) => inTransaction((tx) => work(tx)),
    ping,
    changeCounter: () => changes,
    changeVisibilityMs: changePollMs,
    subscribeChanges(listener) {
      subscribers.add(listener);
      return () => subscribers.delete(listener);
    },
    changes: {},
    async close() {
      if (closed) return;
      clearInterval(changePoll);
      // Wait for queued transactions and writes, then close both connections.
      await queue(async () => {
        closed = true;
      });
      if (reader !== writer) reader.close();
      // Refreshes planner statistics where they went stale (cheap; SQLite's advice on close).
      writer.pragma("optimize");
      writer.close();
    },
  };
}
