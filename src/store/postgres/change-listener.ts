/**
 * Store.changeCounter for PostgreSQL: a dedicated connection that LISTENs to the channel the
 * transfers trigger notifies (migration 0004) and counts notifications. The API key cache uses
 * one on the key channel (migration 0006) with an `onChange` callback.
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
  /** Default: the transfers channel. */
  channel?: string;
  /** Called on every notification and after every (re)connection. */
  onChange?: () => void;
  /** The warning when the connection is lost; default the list cache's. */
  lostMessage?: string;
  /** First retry delay after a lost connection; doubles up to 30 s. Default 500 ms. */
  retryMs?: number;
}): ChangeListener {
  const firstRetryMs = options.retryMs ?? 500;
  const channel = options.channel ?? TRANSFERS_CHANGED_CHANNEL;
  let changes = 0;
  let listening = false;
  let started = false;
  let closed = false;
  let client: pg.Client | undefined;
  let retryMs = firstRetryMs;
  let retryTimer: NodeJS.Timeout | undefined;
  const changed = () => {
    changes++;
    options.onChange?.();
  };

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
      options.lostMessage ??
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
      if (message.channel === channel) changed();
    });
    next
      .connect()
      .then(() => next.query(`LISTEN ${channel}`))
      .then(() => {
        if (client !== next || closed) return;
        listening = true;
        changed(); // whatever happened while not listening
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
