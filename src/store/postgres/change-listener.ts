/**
 * Store.changeCounter for PostgreSQL: a dedicated connection that LISTENs to the channel the
 * transfers trigger notifies (migration 0004) and counts notifications. The API key cache uses
 * one on the key channel (migration 0006) with an `onChange` callback.
 *
 * Started on first use (stores opened by CLI commands never pay for the extra connection). While
 * it is not listening (starting, or its connection lost), the counter is undefined, so nothing is
 * cached; each (re)connection bumps the counter, as anything may have changed while deaf. A lost
 * connection is retried with capped exponential backoff, and warned about once per outage.
 *
 * A connection can die without closing: a NAT or firewall that drops it leaves the socket open
 * and delivers nothing, not even notifications. So the connection proves it is alive with a
 * `SELECT 1` every `heartbeatIntervalMs`; no answer within `heartbeatTimeoutMs` counts as a lost
 * connection. Invariant: while the counter is defined, the connection answered within the last
 * heartbeatIntervalMs + heartbeatTimeoutMs, so a cached answer trails a commit it did not hear
 * about by at most that long.
 */

import pg from "pg";
import { backoffDelayMs } from "../../backoff.js";
import { redactUrl } from "../../redact-url.js";
import { TRANSFERS_CHANGED_CHANNEL } from "../migrations/0004-transfer-change-notify.js";
import type { StoreLogger } from "../types.js";
import { API_POSTGRES_TIMEOUTS, endClient, postgresClientConfig } from "./connections.js";

/** Defaults of the listening connection's heartbeat (docs/http-api.md, "Response cache"). */
export const LISTENER_HEARTBEAT = { intervalMs: 3000, timeoutMs: 2000 } as const;

export interface ChangeListener {
  /** The counter, or undefined while not listening. Starts listening on first call. */
  counter(): number | undefined;
  /** A commit through this process's own store: moves the counter at once. */
  bump(): void;
  close(): Promise<void>;
}

export interface ChangeListenerOptions {
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
  /** Bound on connecting the listening connection. Default the API's (3 s). */
  connectTimeoutMs?: number;
  /** Pause between two heartbeats (`SELECT 1`). Default 3000 ms. */
  heartbeatIntervalMs?: number;
  /**
   * How long LISTEN or a heartbeat may go unanswered before the connection counts as lost.
   * Default 2000 ms.
   */
  heartbeatTimeoutMs?: number;
}

export function createChangeListener(options: ChangeListenerOptions): ChangeListener {
  const firstRetryMs = options.retryMs ?? 500;
  const channel = options.channel ?? TRANSFERS_CHANGED_CHANNEL;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? LISTENER_HEARTBEAT.intervalMs;
  const clientConfig = postgresClientConfig(options.databaseUrl, {
    connectMs: options.connectTimeoutMs ?? API_POSTGRES_TIMEOUTS.connectMs,
    queryMs: options.heartbeatTimeoutMs ?? LISTENER_HEARTBEAT.timeoutMs,
  });
  let changes = 0;
  let listening = false;
  let started = false;
  let closed = false;
  /** A warning about the current outage has been logged. */
  let warned = false;
  let client: pg.Client | undefined;
  /** Lost connections in a row (src/backoff.ts: the delay doubles from firstRetryMs up to 30 s). */
  let failures = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;
  const changed = () => {
    changes++;
    options.onChange?.();
  };

  function lost(error?: Error): void {
    if (!listening && client === undefined) return;
    listening = false;
    clearTimeout(heartbeatTimer);
    const dead = client;
    client = undefined;
    dead?.removeAllListeners();
    // A silent peer never answers a goodbye: endClient destroys the socket after a grace.
    if (dead !== undefined) void endClient(dead);
    if (closed) return;
    failures++;
    const retryMs = backoffDelayMs(failures, {
      baseMs: firstRetryMs,
      maxMs: 30_000,
      jitter: "none",
    });
    if (!warned) {
      warned = true;
      options.logger?.warn(
        { err: error?.message, url: redactUrl(options.databaseUrl), retryMs },
        options.lostMessage ??
          "list cache: lost the change notifications; nothing is cached until they are back",
      );
    }
    retryTimer = setTimeout(connect, retryMs);
    retryTimer.unref();
  }

  function heartbeat(on: pg.Client): void {
    heartbeatTimer = setTimeout(() => {
      if (client !== on) return;
      on.query("SELECT 1").then(
        () => {
          if (client === on) heartbeat(on);
        },
        (error: Error) => {
          if (client === on) lost(error);
        },
      );
    }, heartbeatIntervalMs);
    heartbeatTimer.unref();
  }

  function connect(): void {
    if (closed) return;
    const next = new pg.Client(clientConfig);
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
        failures = 0;
        if (warned) {
          warned = false;
          options.logger?.info(
            { url: redactUrl(options.databaseUrl), channel },
            "change notifications are back",
          );
        }
        heartbeat(next);
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
      clearTimeout(heartbeatTimer);
      const last = client;
      client = undefined;
      last?.removeAllListeners();
      if (last !== undefined) await endClient(last);
    },
  };
}
