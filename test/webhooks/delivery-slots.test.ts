/**
 * One slow receiver cannot delay everyone's webhooks (issue #41): a subscription whose receiver
 * never answers holds at most its own slots (store/webhook-slots.ts) while another key's
 * subscription, due later, is delivered at once; the slots in use and the deliveries held back
 * are what /metrics reports. On SQLite and PostgreSQL, with real receivers on loopback.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createApiMetrics } from "../../src/api/plugins/metrics.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { readSlotUsage } from "../../src/store/webhook-slots.js";
import { createDeliveryWorker, DEFAULT_SLOT_LIMITS } from "../../src/webhooks/delivery-worker.js";
import { fanOutOnce } from "../../src/webhooks/fan-out.js";
import { createSubscription } from "../../src/webhooks/subscriptions.js";
import {
  type DatabaseBackend,
  type IsolatedDatabase,
  setupIsolatedDatabase,
} from "../setup/database.js";
import { waitForValue } from "../setup/eventually.js";
import { makeProcessingTransfer } from "../setup/transfer-fixtures.js";
import { startWebhookReceiver, type WebhookReceiver } from "../setup/webhook-receiver.js";
import {
  openWebhookDatabase,
  type ClosableWebhookStore as WebhookStore,
} from "./webhook-database.js";

/** Each attempt at the slow receiver hangs this long before it fails. */
const TIMEOUT_MS = 5000;

for (const backend of ["sqlite", "postgres"] as DatabaseBackend[]) {
  describe(`webhook delivery slots (${backend})`, () => {
    let db: IsolatedDatabase;
    let store: Store;
    let webhooks: WebhookStore;
    let receiver: WebhookReceiver;

    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await createStore({ databaseUrl: db.databaseUrl });
      webhooks = await openWebhookDatabase(db.databaseUrl);
      receiver = await startWebhookReceiver(({ path }) => (path === "/slow" ? "hang" : "ok"));
    });
    after(async () => {
      await receiver?.close();
      await webhooks?.close();
      await store?.close();
      await db?.cleanup();
    });

    const subscribe = (ownerKeyId: number, path: string) =>
      createSubscription(
        webhooks,
        { ownerKeyId, url: `${receiver.url}${path}` },
        { allowPrivateAddresses: true, now: Date.now() },
      );
    const fanOut = () =>
      webhooks.transaction((repository, sql) =>
        fanOutOnce(repository, sql, { now: Date.now(), batchSize: 500 }),
      );

    it("behavior: a receiver that never answers holds its own slots only; another key's deliveries keep their latency", {
      timeout: 30_000,
    }, async () => {
      // Key 1's receiver hangs, with 40 deliveries due first; key 2's 5 are due after them.
      await subscribe(1, "/slow");
      await store.transfers.upsertTransfers(
        Array.from({ length: 40 }, () => makeProcessingTransfer()),
      );
      await fanOut();
      const fastId = (await subscribe(2, "/fast")).subscription.id;
      await store.transfers.upsertTransfers(
        Array.from({ length: 5 }, () => makeProcessingTransfer()),
      );
      await fanOut();

      const worker = createDeliveryWorker({
        store: webhooks,
        allowPrivateAddresses: true,
        timeoutMs: TIMEOUT_MS,
        concurrency: 8, // all of them would go to the slow receiver's 40 without the bound
        pollMs: 50,
      });
      const stop = new AbortController();
      const started = Date.now();
      const running = worker.run(stop.signal);
      try {
        const fast = await waitForValue(async () => {
          const done = receiver.requests.filter((r) => r.path === "/fast");
          return done.length === 5 ? done : undefined;
        }, 10_000);
        const latest = Math.max(...fast.map((r) => r.at)) - started;
        // Well inside one attempt's time limit: nobody waited for the slow receiver's slots.
        assert.ok(
          latest < TIMEOUT_MS / 2,
          `key 2's deliveries took ${latest} ms (limit ${TIMEOUT_MS} ms)`,
        );
        const slow = receiver.requests.filter((r) => r.path === "/slow");
        assert.equal(slow.length, DEFAULT_SLOT_LIMITS.perSubscription, "slow attempts in flight");

        // What /metrics reports (plugins/metrics.ts, collectWebhookSlots), once key 2's
        // outcomes are recorded (their claims end then).
        await waitForValue(async () => {
          const fastDeliveries = await webhooks.webhooks.listDeliveries(fastId, { limit: 10 });
          return fastDeliveries.every((d) => d.status === "delivered") ? true : undefined;
        });
        const usage = await readSlotUsage(webhooks.webhooks.sql, Date.now(), DEFAULT_SLOT_LIMITS);
        assert.deepEqual(usage, {
          busy: DEFAULT_SLOT_LIMITS.perSubscription,
          maxPerSubscription: DEFAULT_SLOT_LIMITS.perSubscription,
          maxPerKey: DEFAULT_SLOT_LIMITS.perSubscription,
          heldBack: 45 - DEFAULT_SLOT_LIMITS.perSubscription, // the 5 later changes match it too
        });
        const { body } = await createApiMetrics({
          defaultMetrics: false,
          collectWebhookSlots: () =>
            readSlotUsage(webhooks.webhooks.sql, Date.now(), DEFAULT_SLOT_LIMITS),
        }).render();
        for (const line of [
          "bridge_oracle_webhook_slots_busy 4",
          'bridge_oracle_webhook_slots_busy_max{scope="subscription"} 4',
          'bridge_oracle_webhook_slots_busy_max{scope="key"} 4',
          "bridge_oracle_webhook_deliveries_held_back 41",
        ]) {
          assert.ok(body.split("\n").includes(line), `${line}\n${body}`);
        }
      } finally {
        stop.abort();
        await receiver.close(); // ends the hanging attempts
        await running;
      }
    });

    it("behavior: one key's subscriptions together hold at most the key's slots, each at most its own", async () => {
      const a = await subscribe(3, "/a");
      const b = await subscribe(3, "/b");
      await store.transfers.upsertTransfers(
        Array.from({ length: 5 }, () => makeProcessingTransfer()),
      );
      await fanOut();
      const limits = { perSubscription: 2, perKey: 3 };
      const now = Date.now() + 60 * TIMEOUT_MS; // every earlier attempt's lease and retry are over
      const claimed = await webhooks.webhooks.claimDue(now, now + 60_000, 32, limits);
      const count = (id: number) => claimed.filter((d) => d.subscriptionId === id).length;
      const [first, second] = [count(a.subscription.id), count(b.subscription.id)];
      assert.ok(first <= 2 && second <= 2 && first + second === 3, `${first} + ${second}`);
      // Key 1's and key 2's one subscription each: their own bound.
      assert.equal(claimed.length, 3 + 2 + 2, JSON.stringify(claimed.map((d) => d.subscriptionId)));
      // Claimed again at once: every slot is taken, nothing more goes out.
      assert.deepEqual(await webhooks.webhooks.claimDue(now, now + 60_000, 32, limits), []);
    });
  });
}
