/**
 * One delivery process per SQLite database (docs/webhooks.md, "Where delivery runs").
 *
 * Why: SQLite has one writer at a time and no row locks to share work with (no SKIP LOCKED), so
 * two delivery processes would claim the same deliveries and send each twice, and the process
 * that starts must be free to end every lease a killed predecessor left (delivery-worker.ts).
 * PostgreSQL needs no such lock: processes share the work through row locks.
 *
 * The lock is a row (webhook_delivery_lock) naming its holder (host and pid) with a heartbeat
 * every few seconds. A start finds it free, or held by a process that is gone (same host, pid
 * no longer running; or no heartbeat for HEARTBEAT_STALE_MS), and takes it; otherwise it is
 * refused with a DeliveryLockedError that says who holds it and why only one may run.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { DeliveryLockHolder } from "../store/webhook-repository.js";
import type { WebhookStore } from "../store/webhook-store.js";

export const HEARTBEAT_INTERVAL_MS = 2000;
/** A holder silent this long is taken for dead (another host, where its pid cannot be asked). */
export const HEARTBEAT_STALE_MS = 15_000;

export class DeliveryLockedError extends Error {
  constructor(holder: DeliveryLockHolder, now: number) {
    super(
      `another delivery process (pid ${holder.pid} on ${holder.host}, last heartbeat ` +
        `${Math.max(0, Math.round((now - holder.heartbeatAt) / 1000))} s ago) already delivers ` +
        "webhooks from this SQLite database. SQLite has a single writer and no row locks to " +
        "share deliveries between processes, so only one delivery process may run on it: stop " +
        "that one first (`bridge-oracle start` runs one too), or use PostgreSQL to run several",
    );
    this.name = "DeliveryLockedError";
  }
}

export interface DeliveryLock {
  /** Stops the heartbeat and frees the lock. */
  release(): Promise<void>;
}

function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the SQLite delivery lock (PostgreSQL: nothing to take). `onLost` is called when the
 * heartbeat finds the lock taken by someone else (this process was taken for dead).
 */
export async function acquireDeliveryLock(
  store: WebhookStore,
  options: { now?: () => number; onLost?: () => void } = {},
): Promise<DeliveryLock> {
  if (store.kind === "postgres") return { release: async () => {} };
  const now = options.now ?? Date.now;
  const me: DeliveryLockHolder = {
    holder: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
    host: hostname(),
    pid: process.pid,
    heartbeatAt: now(),
  };
  await store.transaction(async (webhooks) => {
    const current = await webhooks.readDeliveryLock();
    const at = now();
    if (current !== undefined) {
      const gone =
        (current.host === me.host && current.pid !== me.pid && !processRunning(current.pid)) ||
        at - current.heartbeatAt > HEARTBEAT_STALE_MS;
      if (!gone) throw new DeliveryLockedError(current, at);
    }
    await webhooks.writeDeliveryLock({ ...me, heartbeatAt: at });
    // Whatever a predecessor had in flight is ours to send again now.
    await webhooks.releaseAllClaims();
  });
  let released = false;
  const timer = setInterval(() => {
    void store.webhooks
      .heartbeatDeliveryLock(me.holder, now())
      .then((held) => {
        if (!held && !released) {
          released = true;
          clearInterval(timer);
          options.onLost?.();
        }
      })
      .catch(() => {});
  }, HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      await store.webhooks.releaseDeliveryLock(me.holder).catch(() => {});
    },
  };
}
