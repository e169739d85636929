/**
 * The webhook alerts of docs/prometheus-alerts.yml fire when they should and stay quiet when
 * they should not, by `promtool test rules` (Debian's prometheus package; .ci/run installs it)
 * over synthetic series: no delivery process while subscriptions are active, work due for a
 * delivery process growing for 15 minutes, a subscription failing for over an hour.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { stringify } from "yaml";

const root = resolve(import.meta.dirname, "../..");

const tests = [
  {
    interval: "1m",
    input_series: [
      { series: "bridge_oracle_webhook_delivery_processes", values: "0x20" },
      { series: 'bridge_oracle_webhook_subscriptions{status="active"}', values: "2x20" },
    ],
    alert_rule_test: [
      { eval_time: "3m", alertname: "BridgeOracleWebhookNoDeliveryProcess", exp_alerts: [] },
      {
        eval_time: "10m",
        alertname: "BridgeOracleWebhookNoDeliveryProcess",
        exp_alerts: [
          {
            exp_labels: { severity: "page" },
            exp_annotations: {
              summary:
                "webhook subscriptions are active but no delivery process (bridge-oracle deliver) is alive",
              runbook_url: "docs/operations.md#bridgeoraclewebhooknodeliveryprocess",
            },
          },
        ],
      },
    ],
  },
  {
    // A delivery process alive, or no active subscription: quiet.
    interval: "1m",
    input_series: [
      { series: "bridge_oracle_webhook_delivery_processes", values: "1x20" },
      { series: 'bridge_oracle_webhook_subscriptions{status="active"}', values: "2x20" },
    ],
    alert_rule_test: [
      { eval_time: "15m", alertname: "BridgeOracleWebhookNoDeliveryProcess", exp_alerts: [] },
    ],
  },
  {
    interval: "1m",
    input_series: [
      { series: "bridge_oracle_webhook_delivery_processes", values: "0x20" },
      { series: 'bridge_oracle_webhook_subscriptions{status="active"}', values: "0x20" },
    ],
    alert_rule_test: [
      { eval_time: "15m", alertname: "BridgeOracleWebhookNoDeliveryProcess", exp_alerts: [] },
    ],
  },
  {
    // Due work growing by one a minute: fires once it has been above 0 and growing for 15
    // minutes, and held for 5 more.
    interval: "1m",
    input_series: [
      { series: "bridge_oracle_webhook_deliveries_due", values: "0+1x40" },
      { series: "bridge_oracle_webhook_fanout_backlog_changes", values: "0x40" },
    ],
    alert_rule_test: [
      { eval_time: "12m", alertname: "BridgeOracleWebhookBacklogGrowing", exp_alerts: [] },
      {
        eval_time: "30m",
        alertname: "BridgeOracleWebhookBacklogGrowing",
        exp_alerts: [
          {
            exp_labels: { severity: "page" },
            exp_annotations: {
              summary:
                "webhook work waiting for a delivery process keeps growing (never under 15 for 15 minutes)",
              runbook_url: "docs/operations.md#bridgeoraclewebhookbackloggrowing",
            },
          },
        ],
      },
    ],
  },
  {
    // A steady backlog that delivery keeps up with (flat): quiet.
    interval: "1m",
    input_series: [
      { series: "bridge_oracle_webhook_deliveries_due", values: "3x40" },
      { series: "bridge_oracle_webhook_fanout_backlog_changes", values: "0x40" },
    ],
    alert_rule_test: [
      { eval_time: "30m", alertname: "BridgeOracleWebhookBacklogGrowing", exp_alerts: [] },
    ],
  },
  {
    // Failing since 50 minutes before the start: over an hour at 10 minutes, firing 5 later.
    interval: "1m",
    input_series: [
      {
        series: 'bridge_oracle_webhook_subscription_failing_seconds{subscription="7"}',
        values: "3000+60x30",
      },
    ],
    alert_rule_test: [
      { eval_time: "12m", alertname: "BridgeOracleWebhookSubscriptionFailing", exp_alerts: [] },
      {
        eval_time: "20m",
        alertname: "BridgeOracleWebhookSubscriptionFailing",
        exp_alerts: [
          {
            exp_labels: { severity: "ticket", subscription: "7" },
            exp_annotations: {
              summary: "every delivery to webhook subscription 7 has failed for 1h 10m 0s",
              runbook_url: "docs/operations.md#bridgeoraclewebhooksubscriptionfailing",
            },
          },
        ],
      },
    ],
  },
];

describe("prometheus-alerts.yml: the webhook alerts (promtool test rules)", () => {
  it("default: each fires when it should and stays quiet otherwise", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-alerts-"));
    try {
      const file = join(dir, "webhook-alerts.test.yml");
      await writeFile(
        file,
        stringify({
          rule_files: [join(root, "docs/prometheus-alerts.yml")],
          evaluation_interval: "1m",
          tests,
        }),
      );
      let output: string;
      try {
        output = execFileSync("promtool", ["test", "rules", file], {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        });
      } catch (error) {
        const failure = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
        if (failure.code === "ENOENT") {
          throw new Error("promtool is not installed: `apt-get install prometheus` (.ci/run does)");
        }
        throw new Error(`promtool test rules failed:\n${failure.stdout}${failure.stderr}`);
      }
      assert.match(output, /SUCCESS/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
