/**
 * The delivery loop (docs/webhooks.md, "Delivery"): fan out new changes into deliveries, claim
 * the due ones, send each (post-webhook.ts), record the outcome; again when woken (a change was
 * committed: the store's change subscription) or after `pollMs`.
 *
 * Idle cost: with `wokenByChanges` the fan-out (a transaction) runs only after a wake, so an idle
 * round is one claim statement per `pollMs`; the loop's own commits never wake it (the store
 * tells only of commits that changed transfers, Store.subscribeChanges).
 *
 * At least once: a claim is a lease (claimed_until), not a lock held across the send. A process
 * that dies mid-send leaves the claim to expire, and the delivery is sent again, with the same
 * event id and body. On SQLite the one delivery process (delivery-lock.ts) ends every lease at
 * its start instead of waiting for them.
 *
 * Failure bookkeeping: a failed attempt is retried on the retry schedule (retry-schedule.ts) for
 * 24 hours, then marked failed. A subscription whose attempts have all failed for
 * `disableAfterMs` (24 hours) since its last success is disabled with the reason.
 */

import { CLEAR_SECRET_BOX, type SecretBox } from "../secret-box.js";
import type { SqlExecutor } from "../store/backend.js";
import type { ClaimedDelivery, WebhookRepository } from "../store/webhook-repository.js";
import { formatWebhookTime } from "../store/webhook-repository.js";
import type { SlotLimits } from "../store/webhook-slots.js";
import type { WebhookStore } from "../store/webhook-store.js";
import { recordAttemptCounts } from "./delivery-health.js";
import { type ChangeReader, fanOutOnce } from "./fan-out.js";
import { type AttemptOutcome, DEFAULT_WEBHOOK_TIMEOUT_MS, postWebhook } from "./post-webhook.js";
import { DEFAULT_RETRY_POLICY, nextAttemptAt, type RetryPolicy } from "./retry-schedule.js";

export interface DeliveryLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  debug?(fields: object, message: string): void;
}

export interface DeliveryWorkerOptions {
  readonly store: WebhookStore;
  readonly logger?: DeliveryLogger;
  /** A 2xx within this long delivers. Default 10 s (WEBHOOK_TIMEOUT_MS). */
  readonly timeoutMs?: number;
  readonly retry?: RetryPolicy;
  /** Disable a subscription whose deliveries failed this long without a success. Default 24 h. */
  readonly disableAfterMs?: number;
  readonly allowPrivateAddresses?: boolean;
  /**
   * Longest pause between two rounds when nothing wakes the loop: deliveries that become due (a
   * retry, a redeliver, another process's fan-out) are claimed within it. Default 1000 ms.
   */
  readonly pollMs?: number;
  /**
   * The caller calls wake() after every commit that may have changed transfers (the store's
   * change subscription): the fan-out then runs only after a wake (and in the first round);
   * otherwise in every round. Default false.
   */
  readonly wokenByChanges?: boolean;
  /** Attempts in flight at once. Default 32. */
  readonly concurrency?: number;
  /**
   * The slots one subscription, and one API key's subscriptions together, may hold at once
   * (store/webhook-slots.ts). Default DEFAULT_SLOT_LIMITS.
   */
  readonly slots?: SlotLimits;
  /** Changes fanned out per transaction. Default 500. */
  readonly batchSize?: number;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly readChanges?: ChangeReader;
  /** Reads URLs and secrets stored encrypted (WEBHOOK_SECRETS_KEY_FILE); default in clear. */
  readonly secretBox?: SecretBox;
  /** Sends one attempt; default postWebhook (tests count or fail sends). */
  readonly send?: typeof postWebhook;
}

export interface DeliveryWorker {
  /** Runs until `signal` aborts; then waits for attempts in flight (each bounded by the timeout). */
  run(signal: AbortSignal): Promise<void>;
  /** Starts the next round now (a change was committed). */
  wake(): void;
  /** One round, for tests: fan out everything, then send what is due and wait for it. */
  runOnce(): Promise<{ fannedOut: number; attempted: number }>;
}

/** An attempt's outcome waiting to be recorded. */
interface Finished {
  readonly delivery: ClaimedDelivery;
  readonly outcome: AttemptOutcome;
  readonly startedAt: number;
  readonly at: number;
  settle(error: unknown, disabledReason: string | undefined): void;
}

/**
 * A slow receiver holds a slot for up to the time limit per attempt: 4 per subscription and 8
 * per key leave at least 24 of the 32 slots to other keys' receivers whatever one key's do.
 */
export const DEFAULT_SLOT_LIMITS: SlotLimits = { perSubscription: 4, perKey: 8 };
export const DEFAULT_DELIVERY_POLL_MS = 1000;

/** How long a claim lasts beyond the attempt's own time limit. */
const LEASE_MARGIN_MS = 1000;

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { store, logger } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const retry = options.retry ?? DEFAULT_RETRY_POLICY;
  const disableAfterMs = options.disableAfterMs ?? retry.windowMs;
  const pollMs = options.pollMs ?? DEFAULT_DELIVERY_POLL_MS;
  const concurrency = options.concurrency ?? 32;
  const slots = options.slots ?? DEFAULT_SLOT_LIMITS;
  const secretBox = options.secretBox ?? CLEAR_SECRET_BOX;
  const batchSize = options.batchSize ?? 500;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const send = options.send ?? postWebhook;
  // Twice the time limit: a claim outlives its attempt even when recording the outcome is slow.
  const leaseMs = 2 * timeoutMs + LEASE_MARGIN_MS;
  const inFlight = new Set<Promise<void>>();
  let wakeUp: (() => void) | undefined;
  let woken = false;
  /** A change may wait in the log (always true without `wokenByChanges`). */
  let changesPending = true;

  async function fanOut(): Promise<number> {
    let total = 0;
    for (;;) {
      const result = await store.transaction((webhooks: WebhookRepository, sql: SqlExecutor) =>
        fanOutOnce(webhooks, sql, {
          now: now(),
          batchSize,
          ...(options.readChanges !== undefined ? { readChanges: options.readChanges } : {}),
        }),
      );
      total += result.deliveries;
      if (!result.more) return total;
    }
  }

  /** One attempt's outcome, recorded; returns why its subscription was disabled, if it was. */
  async function recordOutcome(
    webhooks: WebhookRepository,
    item: Finished,
  ): Promise<string | undefined> {
    const { delivery, outcome, startedAt, at } = item;
    await webhooks.recordAttempt({
      deliveryId: delivery.id,
      attemptedAt: formatWebhookTime(startedAt),
      responseStatus: outcome.status ?? null,
      error: outcome.error ?? null,
      durationMs: outcome.durationMs,
      responseBody: outcome.responseBody,
    });
    if (outcome.ok) {
      await webhooks.markDelivered(delivery.id, at, outcome.status as number);
      await webhooks.noteSubscriptionSuccess(delivery.subscriptionId);
      return undefined;
    }
    const next = nextAttemptAt(
      retry,
      delivery.attempts + 1,
      delivery.firstAttemptAt ?? startedAt,
      at,
      random,
    );
    await webhooks.markFailedAttempt(delivery.id, at, {
      status: outcome.status ?? null,
      error: outcome.error ?? "failed",
      nextAttemptAt: next,
    });
    const failingSince = await webhooks.noteSubscriptionFailure(delivery.subscriptionId, at);
    if (failingSince === undefined || at - failingSince < disableAfterMs) return undefined;
    const reason =
      `every delivery attempt failed for ${Math.round(disableAfterMs / 3_600_000)} hours` +
      ` since ${formatWebhookTime(failingSince)} UTC; last: ${outcome.error ?? "failed"}`;
    await webhooks.disableSubscription(delivery.subscriptionId, reason, at);
    return reason;
  }

  // Outcomes are recorded in batches: every outcome that finished while the previous batch was
  // being written goes into the next transaction. On SQLite each transaction takes the file's
  // one write lock, which the indexer needs too; one per attempt made both wait.
  const finished: Finished[] = [];
  let flushing = false;

  function flush(): void {
    if (flushing || finished.length === 0) return;
    flushing = true;
    const batch = finished.splice(0);
    store
      .transaction(async (webhooks, sql) => {
        const reasons: (string | undefined)[] = [];
        for (const item of batch) reasons.push(await recordOutcome(webhooks, item));
        await recordAttemptCounts(sql, batch);
        return reasons;
      })
      .then(
        (reasons) => {
          for (const [i, item] of batch.entries()) item.settle(undefined, reasons[i]);
        },
        (error: unknown) => {
          for (const item of batch) item.settle(error, undefined);
        },
      )
      .finally(() => {
        flushing = false;
        flush();
      });
  }

  /** The attempt, or a failed outcome without sending when the URL or secret cannot be read. */
  async function sendOne(delivery: ClaimedDelivery, startedAt: number): Promise<AttemptOutcome> {
    let url: string;
    let secret: string;
    try {
      url = secretBox.open("url", delivery.url);
      secret = secretBox.open("secret", delivery.secret);
    } catch (error) {
      return {
        ok: false,
        status: undefined,
        error: (error as Error).message,
        responseBody: "",
        durationMs: 0,
      };
    }
    return send(
      {
        url,
        secret,
        eventId: delivery.eventId,
        eventType: delivery.eventType,
        body: delivery.body,
        timestamp: Math.floor(startedAt / 1000),
      },
      { timeoutMs, allowPrivateAddresses: options.allowPrivateAddresses ?? false },
    );
  }

  async function attempt(delivery: ClaimedDelivery): Promise<void> {
    const startedAt = now();
    const outcome = await sendOne(delivery, startedAt);
    const disabledReason = await new Promise<string | undefined>((resolve, reject) => {
      finished.push({
        delivery,
        outcome,
        startedAt,
        at: now(),
        settle: (error, reason) => (error === undefined ? resolve(reason) : reject(error)),
      });
      flush();
    });
    if (disabledReason !== undefined) {
      logger?.warn(
        { subscription: delivery.subscriptionId, reason: disabledReason },
        "webhook subscription disabled",
      );
    } else if (!outcome.ok) {
      logger?.debug?.(
        {
          subscription: delivery.subscriptionId,
          event: delivery.eventId,
          error: outcome.error,
        },
        "webhook attempt failed",
      );
    }
  }

  function start(delivery: ClaimedDelivery): void {
    const running: Promise<void> = attempt(delivery)
      .catch((error: unknown) => {
        // The outcome could not be recorded: the lease runs out and the delivery is sent again.
        logger?.warn(
          { subscription: delivery.subscriptionId, event: delivery.eventId, err: String(error) },
          "webhook attempt not recorded; it will be retried when its claim expires",
        );
      })
      .finally(() => {
        inFlight.delete(running);
        startRound(); // a slot is free: claim what is due
      });
    inFlight.add(running);
  }

  async function claimAndSend(): Promise<number> {
    const free = concurrency - inFlight.size;
    if (free <= 0) return 0;
    const at = now();
    const claimed = await store.webhooks.claimDue(at, at + leaseMs, free, slots);
    for (const delivery of claimed) start(delivery);
    return claimed.length;
  }

  function startRound(): void {
    woken = true;
    wakeUp?.();
  }

  function wake(): void {
    changesPending = true;
    startRound();
  }

  function pause(signal: AbortSignal): Promise<void> {
    if (woken || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, pollMs);
      wakeUp = done;
      signal.addEventListener("abort", done, { once: true });
    });
  }

  return {
    wake,
    async run(signal) {
      let failing = false;
      while (!signal.aborted) {
        woken = false;
        const fanOutNow = changesPending;
        if (options.wokenByChanges === true) changesPending = false;
        try {
          if (fanOutNow) await fanOut();
          await claimAndSend();
          if (failing) logger?.info({}, "webhook delivery: the database answers again");
          failing = false;
        } catch (error) {
          if (fanOutNow) changesPending = true; // the fan-out may not have run
          if (!failing) {
            logger?.warn({ err: String(error) }, "webhook delivery round failed; retrying");
          }
          failing = true;
        }
        await pause(signal);
      }
      await Promise.all(inFlight);
    },
    async runOnce() {
      const fannedOut = await fanOut();
      let attempted = 0;
      for (;;) {
        const claimed = await claimAndSend();
        attempted += claimed;
        if (claimed === 0 && inFlight.size === 0) break;
        await Promise.race(inFlight);
      }
      return { fannedOut, attempted };
    },
  };
}
