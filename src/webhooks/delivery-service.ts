/**
 * Everything a delivery process runs, for `bridge-oracle deliver` and inside `start`: the
 * webhook store, the SQLite delivery lock (delivery-lock.ts), the loop (delivery-worker.ts) and,
 * on PostgreSQL, a LISTEN on the transfers channel (migration 0004) that wakes the loop as soon
 * as a change commits instead of at the next poll.
 */
import type { WebhookConfig } from "../config/webhook-config.js";
import { createChangeListener } from "../store/postgres/change-listener.js";
import type { StoreLogger } from "../store/types.js";
import { openWebhookStore, type WebhookStore } from "../store/webhook-store.js";
import { acquireDeliveryLock } from "./delivery-lock.js";
import { createDeliveryWorker, type DeliveryLogger } from "./delivery-worker.js";
import { DEFAULT_RETRY_POLICY } from "./retry-schedule.js";

export interface DeliveryService {
  readonly store: WebhookStore;
  /** Resolves when the loop stopped (after stop(), or when the SQLite lock was lost). */
  readonly done: Promise<void>;
  /** Stops the loop, waits for attempts in flight, frees the lock, closes the store. */
  stop(): Promise<void>;
}

export async function startDeliveryService(options: {
  databaseUrl: string;
  config: WebhookConfig;
  logger?: DeliveryLogger & StoreLogger;
  /** Default 200 ms. */
  pollMs?: number;
}): Promise<DeliveryService> {
  const { logger } = options;
  const store = await openWebhookStore({
    databaseUrl: options.databaseUrl,
    ...(logger !== undefined ? { logger } : {}),
  });
  const abort = new AbortController();
  let lock: Awaited<ReturnType<typeof acquireDeliveryLock>>;
  try {
    lock = await acquireDeliveryLock(store, {
      onLost: () => {
        logger?.warn(
          {},
          "webhook delivery: another delivery process took over this database; stopping",
        );
        abort.abort();
      },
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const worker = createDeliveryWorker({
    store,
    ...(logger !== undefined ? { logger } : {}),
    timeoutMs: options.config.timeoutMs,
    retry: { ...DEFAULT_RETRY_POLICY, baseMs: options.config.retryBaseMs },
    allowPrivateAddresses: options.config.allowPrivateAddresses,
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
  });
  const listener =
    store.kind === "postgres"
      ? createChangeListener({
          databaseUrl: options.databaseUrl,
          onChange: () => worker.wake(),
          lostMessage: "webhook delivery: lost the change notifications; polling",
          ...(logger !== undefined ? { logger } : {}),
        })
      : undefined;
  listener?.counter(); // starts listening
  const done = worker.run(abort.signal);
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= (async () => {
      abort.abort();
      await done;
      await listener?.close();
      await lock.release();
      await store.close();
    })();
    return stopped;
  };
  return { store, done, stop };
}
