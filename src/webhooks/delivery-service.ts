/**
 * Everything a delivery process runs, for `bridge-oracle deliver` and inside `start`: the
 * webhook view of the caller's database, the SQLite delivery lock (delivery-lock.ts), the loop (delivery-worker.ts) and,
 * on PostgreSQL, the database's change subscription (the transfers channel of migration 0004)
 * that wakes the loop as soon as a change commits instead of at the next poll.
 */
import type { WebhookConfig } from "../config/webhook-config.js";
import type { Database } from "../store/database.js";
import type { StoreLogger } from "../store/types.js";
import { type WebhookStore, webhookStoreOf } from "../store/webhook-store.js";
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
  /** Default 200 ms. */
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
  const worker = createDeliveryWorker({
    store,
    ...(logger !== undefined ? { logger } : {}),
    timeoutMs: options.config.timeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, baseMs: options.config.retryBaseMs },
    allowPrivateAddresses: options.config.allowPrivateAddresses,
    secretBox: options.config.secretBox,
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
  });
  const unsubscribe =
    store.kind === "postgres"
      ? options.database.subscribeChanges?.(() => worker.wake())
      : undefined;
  const done = worker.run(abort.signal);
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      abort.abort();
      await done;
      unsubscribe?.();
      await lock.release();
    })();
    return stopped;
  };
  return { store, done, stop };
}
