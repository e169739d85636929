/**
 * Webhook health in /metrics (docs/operations.md, "Metrics") moves with what happens, on SQLite
 * and PostgreSQL: changes pile up while no delivery process runs (fan-out backlog, age of the
 * oldest, no process alive); a delivery process starts (one alive by its heartbeat), sends them
 * (attempts by outcome, the latency histogram), a receiver that fails leaves its deliveries
 * pending and its subscription failing; the process stops (none alive again); a heartbeat that
 * went stale counts for nothing.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createApiMetrics } from "../../src/api/plugins/metrics.js";
import { WEBHOOK_METRIC_NAMES as NAMES } from "../../src/api/plugins/webhook-metrics.js";
import { WEBHOOK_CONFIG_DEFAULTS } from "../../src/config/webhook-config.js";
import { type Database, openDatabase } from "../../src/store/index.js";
import { webhookStoreOf } from "../../src/store/webhook-store.js";
import { DELIVERY_PROCESS_STALE_MS } from "../../src/webhooks/delivery-health.js";
import { startDeliveryService } from "../../src/webhooks/delivery-service.js";
import { createSubscription } from "../../src/webhooks/subscriptions.js";
import {
  type DatabaseBackend,
  type IsolatedDatabase,
  setupIsolatedDatabase,
} from "../setup/database.js";
import { eventually } from "../setup/eventually.js";
import { makeProcessingTransfer } from "../setup/transfer-fixtures.js";
import { startWebhookReceiver, type WebhookReceiver } from "../setup/webhook-receiver.js";

/** The exposition's samples, `name{labels}` (labels as written) -> value. */
function samples(body: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of body.split("\n")) {
    if (line.startsWith("#") || line.trim() === "") continue;
    const space = line.lastIndexOf(" ");
    out.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return out;
}

for (const backend of ["sqlite", "postgres"] as DatabaseBackend[]) {
  describe(`webhook metrics (${backend})`, () => {
    let db: IsolatedDatabase;
    let database: Database;
    let receiver: WebhookReceiver;
    let clock = Date.now();
    const metrics = () =>
      createApiMetrics({
        defaultMetrics: false,
        webhooks: { collect: (now, liveSince) => database.webhookHealth.read(now, liveSince) },
      });
    const scrape = async () => samples((await metrics().render()).body);
    const value = async (name: string) => {
      const found = (await scrape()).get(name);
      assert.ok(found !== undefined, `${name} is served`);
      return found;
    };

    before(async () => {
      db = await setupIsolatedDatabase(backend);
      database = await openDatabase(db.databaseUrl);
      receiver = await startWebhookReceiver(({ path }) => (path === "/fail" ? "fail" : "ok"));
    });
    after(async () => {
      await receiver?.close();
      await database?.close();
      await db?.cleanup();
    });

    it("default: nothing to report on a new database, and the read is up", async () => {
      const now = await scrape();
      assert.equal(now.get(NAMES.up), 1);
      assert.equal(now.get(NAMES.processes), 0);
      assert.equal(now.get(NAMES.pending), 0);
      assert.equal(now.get(NAMES.fanOutBacklog), 0);
      assert.equal(now.get(NAMES.oldestPendingAge), 0);
      assert.equal(now.get(`${NAMES.subscriptions}{status="active"}`), 0);
      assert.equal(now.get(`${NAMES.attempts}{outcome="delivered"}`), 0);
      assert.equal(now.get(`${NAMES.latency}_count`), 0);
    });

    it("behavior: a backlog builds while no delivery process runs, then drains; outcomes, latency and failing subscriptions show", {
      timeout: 60_000,
    }, async () => {
      const webhooks = webhookStoreOf(database);
      const subscribe = (path: string) =>
        createSubscription(
          webhooks,
          { ownerKeyId: 1, url: `${receiver.url}${path}` },
          { allowPrivateAddresses: true, now: clock },
        );
      await subscribe("/ok");
      const failing = await subscribe("/fail");
      await database.transfers.upsertTransfers([
        makeProcessingTransfer(),
        makeProcessingTransfer(),
        makeProcessingTransfer(),
      ]);
      // No delivery process: the changes wait, and the oldest one ages.
      assert.equal(await value(NAMES.fanOutBacklog), 3);
      assert.equal(await value(NAMES.processes), 0);
      await eventually(3000, async () => {
        assert.ok((await value(NAMES.oldestPendingAge)) >= 1, "the oldest change ages");
      });
      assert.equal(await value(`${NAMES.subscriptions}{status="active"}`), 2);

      const service = await startDeliveryService({
        database,
        // Retries an hour away: the failed deliveries stay pending, not due.
        config: {
          ...WEBHOOK_CONFIG_DEFAULTS,
          allowPrivateAddresses: true,
          timeoutMs: 2000,
          retryBaseMs: 3_600_000,
        },
      });
      try {
        assert.equal(await value(NAMES.processes), 1);
        await eventually(20_000, async () => {
          const now = await scrape();
          assert.equal(now.get(`${NAMES.attempts}{outcome="delivered"}`), 3);
          assert.equal(now.get(`${NAMES.attempts}{outcome="rejected"}`), 3);
        });
        const now = await scrape();
        assert.equal(now.get(`${NAMES.attempts}{outcome="error"}`), 0);
        assert.equal(now.get(NAMES.fanOutBacklog), 0);
        assert.equal(now.get(NAMES.pending), 3, "the failed ones wait for their retry");
        assert.equal(now.get(NAMES.due), 0);
        assert.ok((now.get(NAMES.oldestPendingAge) ?? 0) > 0, "the retries' wait shows");
        assert.equal(now.get(`${NAMES.latency}_count`), 3);
        assert.equal(now.get(`${NAMES.latency}_bucket{le="+Inf"}`), 3);
        assert.ok((now.get(`${NAMES.latency}_sum`) ?? 0) > 0, "latency sum");
        assert.ok(
          (now.get(`${NAMES.failing}{subscription="${failing.subscription.id}"}`) ?? -1) >= 0,
          "the failing subscription has its series",
        );
        assert.equal(
          [...now.keys()].filter((key) => key.startsWith(NAMES.failing)).length,
          1,
          "only the failing subscription",
        );
      } finally {
        await service.stop();
      }
      assert.equal(await value(NAMES.processes), 0, "a stopped process is no longer alive");
    });

    it("behavior: a delivery process whose heartbeat went stale is not alive", async () => {
      clock = Date.now();
      await database.webhookHealth.heartbeat(
        { process: "gone:1:x", host: "gone", pid: 1, startedAt: clock - 60_000 },
        clock - DELIVERY_PROCESS_STALE_MS - 1000,
        clock - 3_600_000,
      );
      await database.webhookHealth.heartbeat(
        { process: "alive:2:y", host: "alive", pid: 2, startedAt: clock },
        clock,
        clock - 3_600_000,
      );
      assert.equal(await value(NAMES.processes), 1);
      await database.webhookHealth.removeProcess("alive:2:y");
      assert.equal(await value(NAMES.processes), 0);
    });

    it("error: a read that fails leaves the webhook series out and says so", async () => {
      const broken = createApiMetrics({
        defaultMetrics: false,
        webhooks: { collect: () => Promise.reject(new Error("database down")) },
      });
      const now = samples((await broken.render()).body);
      assert.equal(now.get(NAMES.up), 0);
      assert.equal(now.get(NAMES.pending), undefined);
      assert.equal(now.get(`${NAMES.attempts}{outcome="delivered"}`), undefined);
    });
  });
}
