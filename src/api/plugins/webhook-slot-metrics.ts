/**
 * The webhook delivery slots at /metrics (docs/webhooks.md, "Delivery slots"): how many
 * deliveries are in flight in all delivery processes, the most one subscription and one API key
 * hold, and how many due deliveries wait because theirs hold all their slots. Read from the
 * database on each scrape (the delivery processes have no HTTP server of their own), once for
 * the three gauges. A failed read leaves the gauges without series for that scrape.
 */
import { Gauge, type Registry } from "prom-client";
import type { SlotUsage } from "../../store/webhook-slots.js";

export const WEBHOOK_SLOT_METRIC_NAMES = {
  webhookSlotsBusy: "bridge_oracle_webhook_slots_busy",
  webhookSlotsBusyMax: "bridge_oracle_webhook_slots_busy_max",
  webhookDeliveriesHeldBack: "bridge_oracle_webhook_deliveries_held_back",
} as const;

/** One read serves the gauges of one scrape (prom-client collects them concurrently). */
const READ_REUSE_MS = 250;

export function registerWebhookSlotMetrics(
  registry: Registry,
  collect: () => Promise<SlotUsage>,
  log?: { warn(fields: object, msg: string): void },
): void {
  let last: { at: number; usage: Promise<SlotUsage | undefined> } | undefined;
  const read = (): Promise<SlotUsage | undefined> => {
    const now = Date.now();
    if (last === undefined || now - last.at > READ_REUSE_MS) {
      last = {
        at: now,
        usage: collect().catch((error: unknown) => {
          log?.warn({ err: error }, "metrics: cannot read the webhook delivery slots");
          return undefined;
        }),
      };
    }
    return last.usage;
  };
  new Gauge({
    name: WEBHOOK_SLOT_METRIC_NAMES.webhookSlotsBusy,
    help: "Webhook deliveries in flight now (claimed, lease running), in all delivery processes",
    registers: [registry],
    async collect() {
      this.reset();
      const usage = await read();
      if (usage !== undefined) this.set(usage.busy);
    },
  });
  new Gauge({
    name: WEBHOOK_SLOT_METRIC_NAMES.webhookSlotsBusyMax,
    help: "The most delivery slots one subscription (scope=subscription) or one API key's subscriptions together (scope=key) hold now",
    labelNames: ["scope"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const usage = await read();
      if (usage === undefined) return;
      this.set({ scope: "subscription" }, usage.maxPerSubscription);
      this.set({ scope: "key" }, usage.maxPerKey);
    },
  });
  new Gauge({
    name: WEBHOOK_SLOT_METRIC_NAMES.webhookDeliveriesHeldBack,
    help: "Due webhook deliveries waiting because their subscription or API key holds all its delivery slots (a slow or dead receiver)",
    registers: [registry],
    async collect() {
      this.reset();
      const usage = await read();
      if (usage !== undefined) this.set(usage.heldBack);
    },
  });
}
