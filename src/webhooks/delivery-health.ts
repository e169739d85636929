/**
 * What a delivery process writes for /metrics (docs/operations.md, "Metrics"): a heartbeat row
 * while it runs (webhook_delivery_processes), and running totals of its attempts by outcome and
 * of delivery latency, added in the transaction that records the attempts, so they are exact
 * whichever process sent what (webhook_delivery_counts). The API reads both on each scrape
 * (src/api/plugins/webhook-metrics.ts).
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { SqlExecutor } from "../store/backend.js";
import {
  createWebhookHealthRepository,
  type WebhookHealthRepository,
} from "../store/webhook-health-repository.js";
import type { AttemptOutcome } from "./post-webhook.js";

/** How often a delivery process writes its heartbeat. */
export const DELIVERY_HEARTBEAT_MS = 5000;
/** A process whose heartbeat is older than this is not counted as live. */
export const DELIVERY_PROCESS_STALE_MS = 15_000;
/** A killed process's row is deleted by the others' heartbeats after this long. */
const FORGET_AFTER_MS = 3_600_000;

/**
 * An attempt's outcome: `delivered` (a 2xx in time), `rejected` (the receiver answered with
 * another status), `error` (no answer: refused or reset connection, time limit, a refused
 * address).
 */
export const ATTEMPT_OUTCOMES = ["delivered", "rejected", "error"] as const;
export type AttemptOutcomeName = (typeof ATTEMPT_OUTCOMES)[number];

/**
 * Upper bounds (seconds) of the delivery latency histogram: from the change's commit (the
 * event's `createdAt`) to its 2xx, retries included, so up to the 24 hours of retries.
 */
export const LATENCY_BUCKETS = [
  0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400,
] as const;

/** Names of the running totals in webhook_delivery_counts. */
export const COUNT_NAMES = {
  attempts: (outcome: AttemptOutcomeName) => `attempts:${outcome}`,
  /** Deliveries whose latency fell in bucket i (not cumulative); index LATENCY_BUCKETS.length: +Inf. */
  latencyBucket: (i: number) => `latency_bucket:${i}`,
  latencySumMs: "latency_sum_ms",
  latencyCount: "latency_count",
} as const;

export function attemptOutcomeName(outcome: AttemptOutcome): AttemptOutcomeName {
  if (outcome.ok) return "delivered";
  return outcome.status === undefined ? "error" : "rejected";
}

/** The commit time of the change an event body carries (its `createdAt`), epoch ms. */
function committedAt(body: string): number | undefined {
  const match = /"createdAt":"(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)"/.exec(body);
  if (match === null) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}

export interface FinishedAttempt {
  readonly outcome: AttemptOutcome;
  readonly delivery: { readonly body: string };
  /** When the outcome was known, epoch ms. */
  readonly at: number;
}

/** The running totals a batch of finished attempts adds. */
export function attemptCounts(attempts: readonly FinishedAttempt[]): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (name: string, value: number) => counts.set(name, (counts.get(name) ?? 0) + value);
  for (const attempt of attempts) {
    add(COUNT_NAMES.attempts(attemptOutcomeName(attempt.outcome)), 1);
    if (!attempt.outcome.ok) continue;
    const since = committedAt(attempt.delivery.body);
    if (since === undefined) continue;
    const ms = Math.max(0, attempt.at - since);
    let i = 0;
    while (i < LATENCY_BUCKETS.length && ms / 1000 > (LATENCY_BUCKETS[i] as number)) i++;
    add(COUNT_NAMES.latencyBucket(i), 1);
    add(COUNT_NAMES.latencySumMs, ms);
    add(COUNT_NAMES.latencyCount, 1);
  }
  return counts;
}

/** Adds a batch's totals on `sql`, the transaction that records the batch's outcomes. */
export async function recordAttemptCounts(
  sql: SqlExecutor,
  attempts: readonly FinishedAttempt[],
): Promise<void> {
  if (attempts.length === 0) return;
  await createWebhookHealthRepository(sql).addCounts(attemptCounts(attempts));
}

export interface DeliveryHeartbeat {
  /** Stops the heartbeat and deletes this process's row. */
  stop(): Promise<void>;
}

/**
 * Writes this process's heartbeat now and every DELIVERY_HEARTBEAT_MS. A failed write is
 * retried at the next beat (the delivery loop reports the database's failures itself).
 */
export async function startDeliveryHeartbeat(
  health: WebhookHealthRepository,
  options: { now?: () => number; intervalMs?: number } = {},
): Promise<DeliveryHeartbeat> {
  const now = options.now ?? Date.now;
  const row = {
    process: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
    host: hostname(),
    pid: process.pid,
    startedAt: now(),
  };
  const beat = () => {
    const at = now();
    return health.heartbeat(row, at, at - FORGET_AFTER_MS);
  };
  await beat();
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beat().catch(() => {});
  }, options.intervalMs ?? DELIVERY_HEARTBEAT_MS);
  timer.unref();
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        clearInterval(timer);
        await beating;
        await health.removeProcess(row.process).catch(() => {});
      })();
      return stopped;
    },
  };
}
