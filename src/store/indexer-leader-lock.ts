/**
 * Who indexes a database: one `index` process at a time holds the leader lock.
 *
 * PostgreSQL: a session advisory lock (key: INDEXER_LEADER_KEY and the schema) on a connection of
 * its own. Another `index` on the same database waits as a standby, trying the lock every
 * second, and takes over when the leader's session ends: at once when the leader process dies
 * (kill -9: its kernel closes the socket), and within about 10 s when its machine or network
 * goes (the leader's session is set to end after IDLE_SESSION_S of silence, while the leader
 * sends a heartbeat every HEARTBEAT_MS; the server's TCP keepalive is shortened as well). A
 * leader whose lock connection fails stops leading (`lost` aborts) and waits again.
 *
 * Fencing: a leader may not notice its loss at once (a partition, a batch in flight), so each
 * write transaction of `index` takes the indexer write lock and then checks that its lock
 * session still holds this lock (STILL_LEADING_SQL). The write lock orders the transactions of
 * both processes, so none of the old leader's commits after the new leader's first.
 *
 * SQLite: an exclusive lock on a file beside the database (`<file>-indexer.lock`, SQLite's own
 * locking, released by the kernel when the process dies); a second `index` is refused.
 */
import { hostname } from "node:os";
import Database from "better-sqlite3";
import pg from "pg";
import { sleep } from "../sleep.js";
import { BACKGROUND_POSTGRES_TIMEOUTS, postgresClientConfig } from "./postgres/connections.js";
import { createPrivateFile } from "./sqlite/private-files.js";

/** First half of the advisory lock key ("bridge-oracle indexer leader"); the second is the schema's. */
export const INDEXER_LEADER_KEY = 727_100_002;
const HEARTBEAT_MS = 2000;
const IDLE_SESSION_S = 6;
const TRY_EVERY_MS = 1000;
/**
 * How long a leader that lost its lock waits before trying again: two of a standby's tries, so
 * a standby (whose connection works) takes over, not the process that just lost one.
 */
export const RETRY_AFTER_LOSS_MS = 2 * TRY_EVERY_MS;

/** The leader as `--status`, /readyz and metrics show it. */
export interface IndexerLeader {
  /** `host:pid` of the leading process. */
  process: string;
  /** When its lock connection was opened (UTC, `YYYY-MM-DD HH:MM:SS`). */
  since: string;
}

/** The session holding the leader lock (PostgreSQL), as the fencing check names it. */
export interface LeaderSession {
  pid: number;
  /** Its pg_stat_activity.backend_start as text (a pid alone may be reused by a later session). */
  backendStart: string;
}

/** A write of a process whose lock session no longer holds the leader lock; it was rolled back. */
export class LeaderLostError extends Error {
  constructor() {
    super(
      "this process no longer leads the indexer of this database (its leader lock session " +
        "ended); the write was rolled back",
    );
    this.name = "LeaderLostError";
  }
}

export interface LeaderLock {
  /**
   * Resolves once this process leads; `onWaiting` is called (once per wait) with the current
   * leader when another process holds the lock. Resolves false when `signal` aborts first.
   */
  acquire(
    signal: AbortSignal,
    onWaiting: (leader: IndexerLeader | undefined) => void,
  ): Promise<boolean>;
  /** Aborts when the lock's connection is lost while leading. */
  readonly lost: AbortSignal;
  /** PostgreSQL, once leading: the lock's session, for the fencing check; SQLite: undefined. */
  readonly session: LeaderSession | undefined;
  release(): Promise<void>;
}

const APPLICATION_PREFIX = "bridge-oracle index leader ";

/** The leader query (PostgreSQL): the session holding this schema's leader lock. */
export const LEADER_SQL =
  "SELECT substr(a.application_name, ?) AS process," +
  " to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS since" +
  " FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory'" +
  " AND l.granted AND l.classid = ? AND l.objid = hashtext(current_schema())::oid AND l.objsubid = 2" +
  " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())";
export const LEADER_SQL_PARAMS = [APPLICATION_PREFIX.length + 1, INDEXER_LEADER_KEY];

/** True while the session (pid, backend start) holds this schema's leader lock; params below. */
export const STILL_LEADING_SQL =
  "SELECT EXISTS (SELECT 1 FROM pg_locks l, pg_stat_get_activity(?) a WHERE l.pid = a.pid" +
  " AND a.backend_start = ?::timestamptz AND l.locktype = 'advisory' AND l.granted" +
  " AND l.classid = ? AND l.objid = hashtext(current_schema())::oid AND l.objsubid = 2) AS leading";
export function stillLeadingParams(session: LeaderSession): unknown[] {
  return [session.pid, session.backendStart, INDEXER_LEADER_KEY];
}

export function createPostgresLeaderLock(url: string): LeaderLock {
  const lostController = new AbortController();
  let client: pg.Client | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let session: LeaderSession | undefined;

  async function connect(): Promise<pg.Client> {
    const next = new pg.Client(postgresClientConfig(url, BACKGROUND_POSTGRES_TIMEOUTS));
    next.on("error", () => undefined); // reported through the failing query or the heartbeat
    await next.connect();
    // The leader query finds the session by this name. Set here, as an application_name in
    // the URL would override one in the client's config.
    await next
      .query("SELECT set_config('application_name', $1, false)", [
        `${APPLICATION_PREFIX}${hostname()}:${process.pid}`,
      ])
      .catch(async (error) => {
        await next.end().catch(() => undefined);
        throw error;
      });
    // The server ends this session when the leader falls silent (machine or network gone),
    // which frees the lock for the standby. Settings a server does not know are skipped.
    for (const [name, value] of [
      ["idle_session_timeout", `${IDLE_SESSION_S}s`],
      ["tcp_keepalives_idle", "3"],
      ["tcp_keepalives_interval", "1"],
      ["tcp_keepalives_count", "3"],
    ]) {
      await next.query("SELECT set_config($1, $2, false)", [name, value]).catch(() => undefined);
    }
    return next;
  }

  function drop() {
    clearInterval(heartbeat);
    const gone = client;
    client = undefined;
    if (gone !== undefined) void gone.end().catch(() => undefined);
  }

  function lose() {
    drop();
    if (!lostController.signal.aborted) lostController.abort();
  }

  return {
    lost: lostController.signal,
    get session() {
      return session;
    },
    async acquire(signal, onWaiting) {
      let told = false;
      while (!signal.aborted) {
        try {
          client ??= await connect();
          const { rows } = await client.query(
            "SELECT pg_try_advisory_lock($1, hashtext(current_schema())) AS ok, a.pid," +
              " a.backend_start::text AS started FROM pg_stat_get_activity(pg_backend_pid()) a",
            [INDEXER_LEADER_KEY],
          );
          if (rows[0]?.ok === true) {
            session = { pid: Number(rows[0].pid), backendStart: String(rows[0].started) };
            const leading = client;
            leading.on("end", lose);
            heartbeat = setInterval(() => {
              const timer = setTimeout(lose, HEARTBEAT_MS * 2);
              leading.query("SELECT 1").then(() => clearTimeout(timer), lose);
            }, HEARTBEAT_MS);
            heartbeat.unref();
            return true;
          }
          if (!told) {
            let n = 0;
            const numbered = LEADER_SQL.replace(/\?/g, () => `$${++n}`);
            const leader = await client.query(numbered, LEADER_SQL_PARAMS);
            onWaiting(leader.rows[0] as IndexerLeader | undefined);
            told = true;
          }
        } catch {
          drop(); // the next round reconnects
        }
        // A sleep that removes its abort listener (one per try would pile up on `signal`).
        await sleep(TRY_EVERY_MS, signal);
      }
      return false;
    },
    async release() {
      clearInterval(heartbeat);
      const held = client;
      client = undefined;
      // Ending the session frees the lock.
      await held?.end().catch(() => undefined);
    },
  };
}

/** The lock file of a SQLite database. */
export function sqliteLockPath(databasePath: string): string {
  return `${databasePath}-indexer.lock`;
}

export function createSqliteLeaderLock(databasePath: string): LeaderLock {
  let db: Database.Database | undefined;
  return {
    lost: new AbortController().signal,
    session: undefined,
    async acquire() {
      const path = sqliteLockPath(databasePath);
      createPrivateFile(path);
      const next = new Database(path, { timeout: 0 });
      try {
        // Exclusive locking mode: the lock taken by this write is held until the connection
        // closes (or the process dies).
        next.pragma("locking_mode = EXCLUSIVE");
        next.exec("BEGIN EXCLUSIVE; CREATE TABLE IF NOT EXISTS held (pid INTEGER); COMMIT");
      } catch (error) {
        next.close();
        if ((error as { code?: string }).code === "SQLITE_BUSY") {
          throw new Error(
            `another \`bridge-oracle index\` is indexing ${databasePath} (it holds ${path}): ` +
              "SQLite takes one indexer per database file; stop that one first (a standby " +
              'that takes over needs PostgreSQL: docs/indexer.md, "Standby")',
          );
        }
        throw error;
      }
      db = next;
      return true;
    },
    async release() {
      db?.close();
      db = undefined;
    },
  };
}
