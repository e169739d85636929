/**
 * Webhook health in /metrics (docs/operations.md, "Metrics"): the backlog, how old its oldest
 * delivery is, the delivery processes alive by their heartbeats, subscriptions by status and
 * those failing, and the running totals of attempts by outcome and of delivery latency. All
 * read from the database on each scrape (store/webhook-health-repository.ts, written by the
 * delivery processes: webhooks/delivery-health.ts), so any API process reports them, whichever
 * process delivers; when the read fails or is slow the scrape answers without them.
 */
import { Gauge, type Registry } from "prom-client";
import type { WebhookHealth } from "../../store/webhook-health-repository.js";
import {
  ATTEMPT_OUTCOMES,
  COUNT_NAMES,
  DELIVERY_PROCESS_STALE_MS,
  LATENCY_BUCKETS,
} from "../../webhooks/delivery-health.js";
import { withTimeout } from "./with-timeout.js";

export const WEBHOOK_METRIC_NAMES = {
  pending: "bridge_oracle_webhook_deliveries_pending",
  due: "bridge_oracle_webhook_deliveries_due",
  fanOutBacklog: "bridge_oracle_webhook_fanout_backlog_changes",
  oldestPendingAge: "bridge_oracle_webhook_oldest_pending_age_seconds",
  processes: "bridge_oracle_webhook_delivery_processes",
  subscriptions: "bridge_oracle_webhook_subscriptions",
  failing: "bridge_oracle_webhook_subscription_failing_seconds",
  attempts: "bridge_oracle_webhook_attempts_total",
  latency: "bridge_oracle_webhook_delivery_latency_seconds",
  up: "bridge_oracle_webhook_status_up",
} as const;

export interface WebhookMetricsOptions {
  /** Reads the webhook health; `liveSince`: heartbeats at or after it count as live. */
  readonly collect: (now: number, liveSince: number) => Promise<WebhookHealth>;
  /** Default 2000 ms. */
  readonly timeoutMs?: number;
  readonly now?: () => number;
}

/** Registers the webhook series on `registry`; returns what to await before each scrape. */
export function registerWebhookMetrics(
  registry: Registry,
  options: WebhookMetricsOptions,
  log?: { warn(fields: object, msg: string): void },
): () => Promise<void> {
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 2000;
  let health: WebhookHealth | undefined;
  let at = 0;

  const series = (
    name: string,
    help: string,
    type: "gauge" | "counter" | "histogram",
    values: (h: WebhookHealth) => MetricValue[],
  ) =>
    registry.registerMetric(
      collected(name, help, type, () =>
        health === undefined ? [] : values(health),
      ) as unknown as Parameters<Registry["registerMetric"]>[0],
    );
  const one = (value: number): MetricValue[] => [{ value, labels: {} }];
  series(
    WEBHOOK_METRIC_NAMES.pending,
    "Webhook deliveries not yet delivered or failed (due now or waiting for a retry)",
    "gauge",
    (h) => one(h.pending),
  );
  series(
    WEBHOOK_METRIC_NAMES.due,
    "Webhook deliveries due now, waiting for a delivery process (not for their retry time)",
    "gauge",
    (h) => one(h.due),
  );
  series(
    WEBHOOK_METRIC_NAMES.fanOutBacklog,
    "Changes committed but not yet made into webhook deliveries (0 while no subscription is active)",
    "gauge",
    (h) => one(h.fanOutBacklog),
  );
  series(
    WEBHOOK_METRIC_NAMES.oldestPendingAge,
    "Seconds the oldest waiting webhook work has waited: a pending delivery since it was made, or a change not yet fanned out since its commit (0 when none)",
    "gauge",
    (h) => one(h.oldestPendingAt === undefined ? 0 : Math.max(0, (at - h.oldestPendingAt) / 1000)),
  );
  series(
    WEBHOOK_METRIC_NAMES.processes,
    `Webhook delivery processes alive (a heartbeat within the last ${DELIVERY_PROCESS_STALE_MS / 1000} s)`,
    "gauge",
    (h) => one(h.liveProcesses),
  );
  series(
    WEBHOOK_METRIC_NAMES.subscriptions,
    "Webhook subscriptions by status (active, disabled)",
    "gauge",
    (h) => [
      { value: h.activeSubscriptions, labels: { status: "active" } },
      { value: h.disabledSubscriptions, labels: { status: "disabled" } },
    ],
  );
  series(
    WEBHOOK_METRIC_NAMES.failing,
    "Seconds since every attempt of the active subscription (label subscription, its id) began failing; only failing ones",
    "gauge",
    (h) =>
      h.failing.map((f) => ({
        value: Math.max(0, (at - f.failingSince) / 1000),
        labels: { subscription: String(f.subscriptionId) },
      })),
  );
  series(
    WEBHOOK_METRIC_NAMES.attempts,
    "Webhook delivery attempts by outcome: delivered (2xx in time), rejected (another status), error (no answer)",
    "counter",
    (h) =>
      ATTEMPT_OUTCOMES.map((outcome) => ({
        value: h.counts.get(COUNT_NAMES.attempts(outcome)) ?? 0,
        labels: { outcome },
      })),
  );
  series(
    WEBHOOK_METRIC_NAMES.latency,
    "Seconds from a change's commit to its webhook's 2xx, retries included",
    "histogram",
    (h) => latencyValues(WEBHOOK_METRIC_NAMES.latency, h),
  );
  const up = new Gauge({
    name: WEBHOOK_METRIC_NAMES.up,
    help: "1 when this scrape could read the webhook health from the database, 0 when it could not",
    registers: [registry],
  });

  return async () => {
    at = now();
    try {
      health = await withTimeout(options.collect(at, at - DELIVERY_PROCESS_STALE_MS), timeoutMs);
      up.set(1);
    } catch (error) {
      health = undefined;
      up.set(0);
      log?.warn({ err: error }, "metrics: cannot read the webhook health");
    }
  };
}

interface MetricValue {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** A metric whose values are computed at scrape time (the shape Registry.registerMetric takes). */
function collected(
  name: string,
  help: string,
  type: "gauge" | "counter" | "histogram",
  values: () => MetricValue[],
) {
  return {
    name,
    help,
    type,
    aggregator: "sum" as const,
    async get() {
      return { name, help, type, aggregator: "sum" as const, values: values() };
    },
    reset() {},
  };
}

/** The latency histogram's samples from the running totals (buckets stored not cumulative). */
function latencyValues(name: string, health: WebhookHealth): MetricValue[] {
  const values: MetricValue[] = [];
  let cumulative = 0;
  for (let i = 0; i <= LATENCY_BUCKETS.length; i++) {
    cumulative += health.counts.get(COUNT_NAMES.latencyBucket(i)) ?? 0;
    const le = i < LATENCY_BUCKETS.length ? (LATENCY_BUCKETS[i] as number) : "+Inf";
    values.push({ value: cumulative, labels: { le }, metricName: `${name}_bucket` });
  }
  values.push({
    value: (health.counts.get(COUNT_NAMES.latencySumMs) ?? 0) / 1000,
    labels: {},
    metricName: `${name}_sum`,
  });
  values.push({
    value: health.counts.get(COUNT_NAMES.latencyCount) ?? 0,
    labels: {},
    metricName: `${name}_count`,
  });
  return values;
}
