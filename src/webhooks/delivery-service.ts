/**
 * Everything a delivery process runs, for `bridge-oracle deliver` and inside `start`: the
 * webhook view of the caller's database, the SQLite delivery lock (delivery-lock.ts), the loop
 * (delivery-worker.ts) and the database's change subscription (Store.subscribeChanges: the
 * transfers channel of migration 0004 on PostgreSQL, the change log's sequence on SQLite) that
 * wakes the loop's fan-out as soon as a change commits; without a change the loop only looks
 * for due deliveries once per poll.
 */
import type { WebhookConfig } from "../config/webhook-config.js";
import type { Database } from "../store/database.js";
import type { StoreLogger } from "../store/types.js";
import { type WebhookStore, webhookStoreOf } from "../store/webhook-store.js";
import { startDeliveryHeartbeat } from "./delivery-health.js";
import { acquireDeliveryLock } from "./delivery-lock.js";
import { createDeliveryWorker, type DeliveryLogger } from "./delivery-worker.js";
import { DEFAULT_RETRY_POLICY } from "./retry-schedule.js";

export interface DeliveryService {
  readonly store: WebhookStore;
  /** Resolves when the loop stopped (after stop(), or when the SQLite lock was lost). */
  readonly done: Promise<void>;
  /** Stops the loop, waits for attempts in flight, frees the lock (the database stays open). */
  stop(): Promise<void>;
}

export async function startDeliveryService(options: {
  /** The caller's database; it closes it after stop(). */
  database: Database;
  config: WebhookConfig;
  logger?: DeliveryLogger & StoreLogger;
  /** Default DEFAULT_DELIVERY_POLL_MS (1 s). */
  pollMs?: number;
}): Promise<DeliveryService> {
  const { logger } = options;
  const store = webhookStoreOf(options.database);
  const abort = new AbortController();
  const lock = await acquireDeliveryLock(store, {
    onLost: () => {
      logger?.warn(
        {},
        "webhook delivery: another delivery process took over this database; stopping",
      );
      abort.abort();
    },
  });
  // The process's heartbeat for /metrics (delivery-health.ts), beside the SQLite lock's own.
  const heartbeat = await startDeliveryHeartbeat(options.database.webhookHealth).catch(
    async (error: unknown) => {
      await lock.release();
      throw error;
    },
  );
  const subscribeChanges = options.database.subscribeChanges;
  const worker = createDeliveryWorker({
    store,
    wokenByChanges: subscribeChanges !== undefined,
    ...(logger !== undefined ? { logger } : {}),
    timeoutMs: options.config.timeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, baseMs: options.config.retryBaseMs },
    allowPrivateAddresses: options.config.allowPrivateAddresses,
    secretBox: options.config.secretBox,
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
  });
  const unsubscribe = subscribeChanges?.(() => worker.wake());
  const done = worker.run(abort.signal);
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      abort.abort();
      await done;
      unsubscribe?.();
      await heartbeat.stop();
      await lock.release();
    })();
    return stopped;
  };
  return { store, done, stop };
}
