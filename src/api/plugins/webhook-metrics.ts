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
import type { CollectedMetric } from "./request-stats.js";
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

  const gauge = (name: string, help: string, value: (h: WebhookHealth) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        if (health !== undefined) this.set(value(health));
      },
    });
  gauge(
    WEBHOOK_METRIC_NAMES.pending,
    "Webhook deliveries not yet delivered or failed (due now or waiting for a retry)",
    (h) => h.pending,
  );
  gauge(
    WEBHOOK_METRIC_NAMES.due,
    "Webhook deliveries due now, waiting for a delivery process (not for their retry time)",
    (h) => h.due,
  );
  gauge(
    WEBHOOK_METRIC_NAMES.fanOutBacklog,
    "Changes committed but not yet made into webhook deliveries (0 while no subscription is active)",
    (h) => h.fanOutBacklog,
  );
  gauge(
    WEBHOOK_METRIC_NAMES.oldestPendingAge,
    "Seconds the oldest waiting webhook work has waited: a pending delivery since it was made, or a change not yet fanned out since its commit (0 when none)",
    (h) => (h.oldestPendingAt === undefined ? 0 : Math.max(0, (at - h.oldestPendingAt) / 1000)),
  );
  gauge(
    WEBHOOK_METRIC_NAMES.processes,
    `Webhook delivery processes alive (a heartbeat within the last ${DELIVERY_PROCESS_STALE_MS / 1000} s)`,
    (h) => h.liveProcesses,
  );
  new Gauge({
    name: WEBHOOK_METRIC_NAMES.subscriptions,
    help: "Webhook subscriptions by status (active, disabled)",
    labelNames: ["status"],
    registers: [registry],
    collect() {
      this.reset();
      if (health === undefined) return;
      this.set({ status: "active" }, health.activeSubscriptions);
      this.set({ status: "disabled" }, health.disabledSubscriptions);
    },
  });
  new Gauge({
    name: WEBHOOK_METRIC_NAMES.failing,
    help: "Seconds since every attempt of the active subscription (label subscription, its id) began failing; only failing ones",
    labelNames: ["subscription"],
    registers: [registry],
    collect() {
      this.reset();
      for (const f of health?.failing ?? []) {
        this.set(
          { subscription: String(f.subscriptionId) },
          Math.max(0, (at - f.failingSince) / 1000),
        );
      }
    },
  });
  const up = new Gauge({
    name: WEBHOOK_METRIC_NAMES.up,
    help: "1 when this scrape could read the webhook health from the database, 0 when it could not",
    registers: [registry],
  });
  for (const metric of [attemptsCounter(() => health), latencyHistogram(() => health)]) {
    registry.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0]);
  }

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

function attemptsCounter(current: () => WebhookHealth | undefined): CollectedMetric {
  return {
    name: WEBHOOK_METRIC_NAMES.attempts,
    help: "Webhook delivery attempts by outcome: delivered (2xx in time), rejected (another status), error (no answer)",
    type: "counter",
    aggregator: "sum",
    async get() {
      const health = current();
      const values =
        health === undefined
          ? []
          : ATTEMPT_OUTCOMES.map((outcome) => ({
              value: health.counts.get(COUNT_NAMES.attempts(outcome)) ?? 0,
              labels: { outcome },
            }));
      return { name: this.name, help: this.help, type: this.type, aggregator: "sum", values };
    },
    reset() {},
  };
}

function latencyHistogram(current: () => WebhookHealth | undefined): CollectedMetric {
  return {
    name: WEBHOOK_METRIC_NAMES.latency,
    help: "Seconds from a change's commit to its webhook's 2xx, retries included",
    type: "histogram",
    aggregator: "sum",
    async get() {
      const health = current();
      const name = this.name;
      const values: {
        value: number;
        labels: Record<string, string | number>;
        metricName: string;
      }[] = [];
      if (health !== undefined) {
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
      }
      return { name, help: this.help, type: this.type, aggregator: "sum", values };
    },
    reset() {},
  };
}
