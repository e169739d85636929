/**
 * The delivery loop in-process, on SQLite and PostgreSQL: changes of the change log fanned out
 * to matching subscriptions and POSTed signed; retries with the same event id and body; failed
 * after 24 hours and the subscription disabled; redelivery; one delivery process per SQLite
 * file, several sharing the work on PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { run as webhooksCli } from "../../src/cli/webhooks.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { acquireDeliveryLock, DeliveryLockedError } from "../../src/webhooks/delivery-lock.js";
import { createDeliveryWorker } from "../../src/webhooks/delivery-worker.js";
import { fanOutOnce } from "../../src/webhooks/fan-out.js";
import { DEFAULT_RETRY_POLICY } from "../../src/webhooks/retry-schedule.js";
import { verifySignature } from "../../src/webhooks/signature.js";
import { createSubscription } from "../../src/webhooks/subscriptions.js";
import {
  type DatabaseBackend,
  type IsolatedDatabase,
  setupIsolatedDatabase,
} from "../setup/database.js";
import { makeProcessingTransfer } from "../setup/transfer-fixtures.js";
import {
  type ReceiverAnswer,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../setup/webhook-receiver.js";
import {
  openWebhookDatabase,
  type ClosableWebhookStore as WebhookStore,
} from "./webhook-database.js";

const HOUR = 3_600_000;

interface EventBody {
  id: string;
  type: string;
  seq: number;
  data: { message_id: string; status: string };
}

for (const backend of ["sqlite", "postgres"] as DatabaseBackend[]) {
  describe(`webhook delivery (${backend})`, () => {
    let db: IsolatedDatabase;
    let store: Store;
    let webhooks: WebhookStore;
    let receiver: WebhookReceiver;
    let answer: (path: string) => ReceiverAnswer = () => "ok";
    let clock = Date.UTC(2026, 10, 26, 10);
    const worker = (overrides: Partial<Parameters<typeof createDeliveryWorker>[0]> = {}) =>
      createDeliveryWorker({
        store: webhooks,
        allowPrivateAddresses: true,
        timeoutMs: 500,
        now: () => clock,
        random: () => 0.5,
        ...overrides,
      });
    const subscribe = async (
      path: string,
      filter: { addresses?: string[]; txHashes?: string[] } = {},
    ) =>
      createSubscription(
        webhooks,
        { ownerKeyId: 1, url: `${receiver.url}${path}`, ...filter },
        { allowPrivateAddresses: true, now: clock },
      );
    const bodies = (path: string) =>
      receiver.requests.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as EventBody);

    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await createStore({ databaseUrl: db.databaseUrl });
      webhooks = await openWebhookDatabase(db.databaseUrl);
      receiver = await startWebhookReceiver(({ path }) => answer(path));
    });
    after(async () => {
      await receiver?.close();
      await webhooks?.close();
      await store?.close();
      await db?.cleanup();
    });

    it("default: each change of a matching transfer is POSTed once, signed, with its seq", async () => {
      const all = await subscribe("/all");
      const transfer = makeProcessingTransfer();
      const other = makeProcessingTransfer();
      const filtered = await subscribe("/one", { addresses: [transfer.from_address] });
      await store.transfers.upsertTransfers([transfer, other]);
      await store.transfers.upsertTransfers([
        { ...transfer, status: "Success", end_time: "2026-01-01 00:10:00" },
      ]);
      await worker().runOnce();
      const everything = bodies("/all");
      assert.deepEqual(
        everything.map((e) => [e.type, e.data.message_id, e.data.status]).sort(),
        [
          ["transfer.created", other.message_id, "Processing"],
          ["transfer.created", transfer.message_id, "Processing"],
          ["transfer.updated", transfer.message_id, "Success"],
        ].sort(),
      );
      for (const e of everything) assert.equal(e.id, `evt_${e.seq}`);
      const mine = bodies("/one");
      assert.deepEqual(
        mine.map((e) => e.data.message_id),
        [transfer.message_id, transfer.message_id],
      );
      const created = everything.find(
        (e) => e.type === "transfer.created" && e.data.message_id === transfer.message_id,
      );
      const updated = everything.find((e) => e.type === "transfer.updated");
      assert.ok(
        created && updated && updated.seq > created.seq,
        "created && updated && updated.seq > created.seq",
      );
      const request = receiver.requests.find((r) => r.path === "/all");
      assert.ok(request, "request");
      const signature = String(request.headers["bridge-oracle-signature"]);
      assert.equal(verifySignature(all.secret, signature, request.body, clock / 1000), true);
      assert.equal(verifySignature(filtered.secret, signature, request.body, clock / 1000), false);
      // Nothing more is due: a second round sends nothing.
      const before = receiver.requests.length;
      await worker().runOnce();
      assert.equal(receiver.requests.length, before);
      await webhooks.webhooks.deleteSubscription(all.subscription.id);
      await webhooks.webhooks.deleteSubscription(filtered.subscription.id);
    });

    it("behavior: a removed transfer is transfer.removed with its last state", async () => {
      const { subscription } = await subscribe("/removed");
      const transfer = makeProcessingTransfer();
      await store.transfers.upsertTransfers([transfer]);
      await (
        store.transfers as unknown as { deleteTransfers(ids: string[]): Promise<number> }
      ).deleteTransfers?.([transfer.message_id]);
      await worker().runOnce();
      // Deliveries are not ordered (docs/webhooks.md): compare in seq order.
      const types = bodies("/removed")
        .sort((a, b) => a.seq - b.seq)
        .map((e) => e.type);
      assert.deepEqual(types, ["transfer.created", "transfer.removed"]);
      await webhooks.webhooks.deleteSubscription(subscription.id);
    });

    it("behavior: a failed attempt is retried on schedule with the same event id and body", async () => {
      let failures = 2;
      answer = (path) => (path === "/retry" && failures-- > 0 ? "fail" : "ok");
      const { subscription } = await subscribe("/retry");
      await store.transfers.upsertTransfers([makeProcessingTransfer()]);
      await worker().runOnce();
      assert.equal(bodies("/retry").length, 1);
      const [delivery] = await webhooks.webhooks.listDeliveries(subscription.id, { limit: 5 });
      assert.equal(delivery?.status, "pending");
      // 5 s with equal jitter at random 0.5: 3.75 s after the failure.
      assert.equal(delivery?.nextAttemptAt, clock + 3750);
      await worker().runOnce();
      assert.equal(bodies("/retry").length, 1, "not due yet");
      clock += 3750;
      await worker().runOnce();
      clock += 7500;
      await worker().runOnce();
      const sent = receiver.requests.filter((r) => r.path === "/retry");
      assert.equal(sent.length, 3);
      assert.equal(new Set(sent.map((r) => r.body)).size, 1);
      assert.equal(new Set(sent.map((r) => r.headers["bridge-oracle-event-id"])).size, 1);
      const [done] = await webhooks.webhooks.listDeliveries(subscription.id, { limit: 5 });
      assert.equal(done?.status, "delivered");
      assert.equal(done?.attempts, 3);
      assert.equal((await webhooks.webhooks.listAttempts([done?.id ?? 0])).length, 3);
      // The operator's view shows each attempt with the start of the receiver's answer.
      let printed = "";
      const code = await webhooksCli(["deliveries", String(subscription.id)], {
        stdout: (text) => {
          printed += text;
        },
        stderr: (text) => {
          printed += text;
        },
        env: { DATABASE_URL: db.databaseUrl },
        now: () => new Date(clock),
      });
      assert.equal(code, 0, printed);
      assert.equal(
        printed.match(/ {2}500 {2}\d+ ms {2}HTTP 500 {2}answer "receiver failure"$/gm)?.length,
        2,
        printed,
      );
      assert.match(printed, / {2}200 {2}\d+ ms {2}answer "ok"$/m);
      answer = () => "ok";
      await webhooks.webhooks.deleteSubscription(subscription.id);
    });

    it("behavior: failing for 24 hours marks deliveries failed and disables the subscription", async () => {
      answer = (path) => (path === "/down" ? "fail" : "ok");
      const { subscription } = await subscribe("/down");
      await store.transfers.upsertTransfers([makeProcessingTransfer()]);
      const start = clock;
      await worker({ retry: { ...DEFAULT_RETRY_POLICY } }).runOnce();
      for (let i = 0; i < 60 && clock - start < 25 * HOUR; i++) {
        const due = await webhooks.webhooks.nextDueAt();
        if (due === undefined) break;
        clock = Math.max(clock, due);
        await worker().runOnce();
      }
      const [stored] = await webhooks.webhooks
        .listSubscriptions(1)
        .then((all) => all.filter((s) => s.id === subscription.id));
      assert.equal(stored?.status, "disabled");
      assert.match(stored?.disabledReason ?? "", /failed for 24 hours.*HTTP 500/);
      const [delivery] = await webhooks.webhooks.listDeliveries(subscription.id, { limit: 1 });
      assert.equal(delivery?.status, "failed");
      assert.ok((delivery?.attempts ?? 0) >= 30, `${delivery?.attempts} attempts`);
      // Disabled: new changes make no deliveries for it.
      await store.transfers.upsertTransfers([makeProcessingTransfer()]);
      await worker().runOnce();
      assert.equal(
        (await webhooks.webhooks.listDeliveries(subscription.id, { limit: 5 })).length,
        1,
      );
      answer = () => "ok";
      await webhooks.webhooks.deleteSubscription(subscription.id);
    });

    it("behavior: redeliver sends a delivered event again, same id and body", async () => {
      const { subscription } = await subscribe("/again");
      await store.transfers.upsertTransfers([makeProcessingTransfer()]);
      await worker().runOnce();
      const [delivery] = await webhooks.webhooks.listDeliveries(subscription.id, { limit: 1 });
      assert.equal(delivery?.status, "delivered");
      assert.equal(await webhooks.webhooks.redeliver(delivery?.id ?? 0, clock), true);
      await worker().runOnce();
      const sent = receiver.requests.filter((r) => r.path === "/again");
      assert.equal(sent.length, 2);
      assert.equal(sent[0]?.body, sent[1]?.body);
      await webhooks.webhooks.deleteSubscription(subscription.id);
    });

    if (backend === "sqlite") {
      it("error: a second delivery process on one SQLite file is refused, saying why", async () => {
        const first = await acquireDeliveryLock(webhooks);
        try {
          await assert.rejects(acquireDeliveryLock(webhooks), (error: unknown) => {
            assert.ok(error instanceof DeliveryLockedError, "error instanceof DeliveryLockedError");
            assert.match(
              error.message,
              /another delivery process \(pid \d+ on .*SQLite has a single writer.*use PostgreSQL/s,
            );
            return true;
          });
        } finally {
          await first.release();
        }
        const again = await acquireDeliveryLock(webhooks);
        await again.release();
      });
    } else {
      it("behavior: several delivery processes share the work; none sends a delivery twice", async () => {
        const { subscription } = await subscribe("/shared");
        await store.transfers.upsertTransfers(
          Array.from({ length: 40 }, () => makeProcessingTransfer()),
        );
        const others = await Promise.all([1, 2, 3].map(() => openWebhookDatabase(db.databaseUrl)));
        try {
          // Fanned out first, so every process finds deliveries to claim at once.
          await webhooks.transaction((repository, sql) =>
            fanOutOnce(repository, sql, { now: clock, batchSize: 100 }),
          );
          const results = await Promise.all(
            [webhooks, ...others].map((s) =>
              // Slots wide enough for one subscription to keep every process busy: the
              // sharing is what this test is about (the bound: delivery-slots.test.ts).
              worker({
                store: s,
                concurrency: 4,
                batchSize: 7,
                slots: { perSubscription: 40, perKey: 40 },
              }).runOnce(),
            ),
          );
          const sent = bodies("/shared");
          assert.equal(sent.length, 40);
          assert.equal(new Set(sent.map((e) => e.id)).size, 40);
          assert.ok(results.filter((r) => r.attempted > 0).length >= 2, JSON.stringify(results));
        } finally {
          await Promise.all(others.map((s) => s.close()));
        }
        await webhooks.webhooks.deleteSubscription(subscription.id);
      });
    }
  });
}
