/**
 * What a PostgreSQL test waits on instead of a fixed sleep: a session stuck behind a lock the
 * test holds, and the pg clients of this process seeing their connection end.
 */
import pg from "pg";
import { waitForValue } from "./eventually.js";

/**
 * Resolves once some session waits on a lock `holder` holds (pg_blocking_pids). Asked over a
 * connection of its own: inside the holder's transaction pg_stat_activity would stay as it was
 * at the transaction's first look at it.
 */
export async function waitUntilBlockedBy(
  holder: pg.Client,
  databaseUrl: string,
  timeoutMs = 20_000,
): Promise<void> {
  const { rows } = await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  const observer = new pg.Client({ connectionString: databaseUrl });
  await observer.connect();
  try {
    await waitForValue(async () => {
      const blocked = await observer.query(
        "SELECT pid FROM pg_stat_activity WHERE $1::int = ANY(pg_blocking_pids(pid))",
        [rows[0]?.pid],
      );
      return blocked.rowCount === 0 ? undefined : true;
    }, timeoutMs);
  } finally {
    await observer.end();
  }
}

export interface PgConnectionTracker {
  /** Clients that connected (in this process, since the tracker started). */
  connected(): number;
  /** Of those, the ones whose connection has not ended yet (as pg itself sees it). */
  open(): number;
  stop(): void;
}

/**
 * Counts every pg client's 'connect' and 'end' in this process, the store's own pools included,
 * by listening in on pg.Client's events; stop() puts them back.
 */
export function trackPgConnections(): PgConnectionTracker {
  const connected = new Set<object>();
  const ended = new Set<object>();
  const prototype = pg.Client.prototype as {
    emit(event: string | symbol, ...args: unknown[]): boolean;
  };
  const emit = prototype.emit;
  prototype.emit = function (this: object, event, ...args) {
    if (event === "connect") connected.add(this);
    if (event === "end" && connected.has(this)) ended.add(this);
    return emit.call(this, event, ...args);
  };
  return {
    connected: () => connected.size,
    open: () => connected.size - ended.size,
    stop: () => {
      prototype.emit = emit;
    },
  };
}
