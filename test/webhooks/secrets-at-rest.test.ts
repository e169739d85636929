/**
 * With WEBHOOK_SECRETS_KEY_FILE, a read-only copy of the database is not enough to sign webhooks
 * or call a receiver (issue #41): the stored URL (with its Basic-auth credentials and ?token=) and
 * the signing secret are ciphertext, while the API, the CLI and delivery work as before with the
 * key. A process without the key shows and sends nothing of them. On SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError } from "../../src/config/env.js";
import { loadWebhookConfig } from "../../src/config/webhook-config.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { createDeliveryWorker } from "../../src/webhooks/delivery-worker.js";
import { verifySignature } from "../../src/webhooks/signature.js";
import { createSubscription, viewSubscription } from "../../src/webhooks/subscriptions.js";
import {
  type DatabaseBackend,
  type IsolatedDatabase,
  setupIsolatedDatabase,
} from "../setup/database.js";
import { makeProcessingTransfer } from "../setup/transfer-fixtures.js";
import { startWebhookReceiver, type WebhookReceiver } from "../setup/webhook-receiver.js";
import {
  openWebhookDatabase,
  type ClosableWebhookStore as WebhookStore,
} from "./webhook-database.js";

describe("WEBHOOK_SECRETS_KEY_FILE", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-key-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("error: a file that is missing or does not hold 64 hex digits is refused, naming the setting", async () => {
    const bad = join(dir, "bad.key");
    await writeFile(bad, "not a key\n");
    for (const path of [bad, join(dir, "missing.key")]) {
      assert.throws(
        () => loadWebhookConfig({ WEBHOOK_SECRETS_KEY_FILE: path }),
        (error: unknown) =>
          error instanceof ConfigError && error.setting === "WEBHOOK_SECRETS_KEY_FILE",
      );
    }
    assert.equal(loadWebhookConfig({}).secretBox.encrypts, false);
  });
});

for (const backend of ["sqlite", "postgres"] as DatabaseBackend[]) {
  describe(`webhook secrets at rest (${backend})`, () => {
    let dir: string;
    let db: IsolatedDatabase;
    let store: Store;
    let webhooks: WebhookStore;
    let receiver: WebhookReceiver;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), "bridge-oracle-key-"));
      db = await setupIsolatedDatabase(backend);
      store = await createStore({ databaseUrl: db.databaseUrl });
      webhooks = await openWebhookDatabase(db.databaseUrl);
      receiver = await startWebhookReceiver();
    });
    after(async () => {
      await receiver?.close();
      await webhooks?.close();
      await store?.close();
      await db?.cleanup();
      await rm(dir, { recursive: true, force: true });
    });

    it("behavior: stored as ciphertext, delivered signed and authenticated with the key, nothing without it", async () => {
      const keyFile = join(dir, "webhook-secrets.key");
      await writeFile(keyFile, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600 });
      const { secretBox } = loadWebhookConfig({ WEBHOOK_SECRETS_KEY_FILE: keyFile });
      const url = `${receiver.url.replace("http://", "http://hookuser:hunter2@")}/hook?token=t0k3n-42`;
      const created = await createSubscription(
        webhooks,
        { ownerKeyId: 1, url },
        { allowPrivateAddresses: true, now: Date.now(), secretBox },
      );
      assert.equal(created.subscription.url, `http://***@${receiver.url.slice(7)}/hook?token=***`);

      // What a copy of the database holds: no secret, no credential, no token.
      const rows = await webhooks.sql.all<{ url: string; secret: string }>(
        "SELECT url, secret FROM webhook_subscriptions",
      );
      const stored = JSON.stringify(rows);
      for (const part of [created.secret, "hunter2", "t0k3n-42", "hookuser"]) {
        assert.equal(stored.includes(part), false, `${part} is stored in clear: ${stored}`);
      }

      // The owner's view with the key; without it, a placeholder (never the ciphertext).
      const [subscription] = await webhooks.webhooks.listSubscriptions(1);
      assert.ok(subscription, "subscription");
      assert.equal(viewSubscription(subscription, secretBox).url, created.subscription.url);
      assert.match(
        viewSubscription(subscription).url,
        /stored encrypted; .*WEBHOOK_SECRETS_KEY_FILE/,
      );

      await store.transfers.upsertTransfers([makeProcessingTransfer()]);
      // A delivery process without the key fails the attempt without sending anything.
      await createDeliveryWorker({ store: webhooks, allowPrivateAddresses: true }).runOnce();
      assert.equal(receiver.requests.length, 0);
      const [failed] = await webhooks.webhooks.listDeliveries(subscription.id, { limit: 1 });
      assert.match(failed?.lastError ?? "", /no key to read them: set WEBHOOK_SECRETS_KEY_FILE/);

      // With the key: signed with the secret shown at creation, the credentials as Basic auth.
      await webhooks.webhooks.redeliver(failed?.id ?? 0, Date.now());
      await createDeliveryWorker({
        store: webhooks,
        allowPrivateAddresses: true,
        secretBox,
      }).runOnce();
      const [request] = receiver.requests;
      assert.ok(request, "delivered with the key");
      assert.equal(request.path, "/hook?token=t0k3n-42");
      assert.equal(
        request.headers.authorization,
        `Basic ${Buffer.from("hookuser:hunter2").toString("base64")}`,
      );
      const signature = String(request.headers["bridge-oracle-signature"]);
      assert.equal(
        verifySignature(created.secret, signature, request.body, Date.now() / 1000),
        true,
      );
    });
  });
}
