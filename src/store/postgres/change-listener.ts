/**
 * Store.changeCounter for PostgreSQL: a dedicated connection that LISTENs to the channel the
 * transfers trigger notifies (migration 0004) and counts notifications.
 *
 * Started on first use (stores opened by CLI commands never pay for the extra connection). While
 * it is not listening (starting, or its connection lost), the counter is undefined, so nothing is
 * cached; each (re)connection bumps the counter, as anything may have changed while deaf. A lost
 * connection is retried with capped exponential backoff.
 */
import pg from "pg";
import { redactDatabaseUrl } from "../database-url.js";
import { TRANSFERS_CHANGED_CHANNEL } from "../migrations/0004-transfer-change-notify.js";
import type { StoreLogger } from "../types.js";

export interface ChangeListener {
  /** The counter, or undefined while not listening. Starts listening on first call. */
  counter(): number | undefined;
  /** A commit through this process's own store: moves the counter at once. */
  bump(): void;
  close(): Promise<void>;
}

export function createChangeListener(options: {
  databaseUrl: string;
  logger?: StoreLogger;
  /** First retry delay after a lost connection; doubles up to 30 s. Default 500 ms. */
  retryMs?: number;
}): ChangeListener {
  const firstRetryMs = options.retryMs ?? 500;
  let changes = 0;
  let listening = false;
  let started = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retryMs = firstRetryMs;
  let retryTimer: NodeJS.Timeout | undefined;

  function lost(error?: Error): void {
    if (!listening && client === undefined) return;
    listening = false;
    const dead = client;
    client = undefined;
    dead?.removeAllListeners();
    dead?.on("error", () => {});
    void dead?.end().catch(() => {});
    if (closed) return;
    options.logger?.warn(
      { err: error?.message, url: redactDatabaseUrl(options.databaseUrl), retryMs },
      "list cache: lost the change notifications; nothing is cached until they are back",
    );
    retryTimer = setTimeout(connect, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, 30_000);
  }

  function connect(): void {
    if (closed) return;
    const next = new pg.Client({ connectionString: options.databaseUrl });
    client = next;
    next.on("error", (error) => lost(error));
    next.on("end", () => lost());
    next.on("notification", (message) => {
      if (message.channel === TRANSFERS_CHANGED_CHANNEL) changes++;
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${TRANSFERS_CHANGED_CHANNEL}`))
      .then(() => {
        if (client !== next || closed) return;
        changes++; // whatever happened while not listening
        listening = true;
        retryMs = firstRetryMs;
      })
      .catch((error: Error) => {
        if (client === next) lost(error);
      });
  }

  return {
    counter() {
      if (!started) {
        started = true;
        connect();
      }
      return listening ? changes : undefined;
    },
    bump() {
      changes++;
    },
    async close() {
      closed = true;
      listening = false;
      clearTimeout(retryTimer);
      const last = client;
      client = undefined;
      last?.removeAllListeners();
      last?.on("error", () => {});
      await last?.end().catch(() => {});
    },
  };
}
