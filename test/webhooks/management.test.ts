/**
 * Webhook subscriptions managed through /api/oracle/webhooks (each key sees only its own:
 * another key's subscription is 404 and cannot be deleted) and through `bridge-oracle webhooks`,
 * on SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/api/app.js";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { run as webhooksCli } from "../../src/cli/webhooks.js";
import { loadConfig } from "../../src/config/env.js";
import type { Database } from "../../src/store/index.js";
import { createStore } from "../../src/store/index.js";
import { runKeys } from "../keys/cli-io.js";
import {
  type DatabaseBackend,
  type IsolatedDatabase,
  setupIsolatedDatabase,
} from "../setup/database.js";
import {
  openWebhookDatabase,
  type ClosableWebhookStore as WebhookStore,
} from "./webhook-database.js";

async function cli(env: Record<string, string>, ...args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await webhooksCli(args, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    env,
    now: () => new Date(),
  });
  return { code, stdout, stderr, lastLine: stdout.trimEnd().split("\n").at(-1) ?? "" };
}

for (const backend of ["sqlite", "postgres"] as DatabaseBackend[]) {
  describe(`webhook subscriptions (${backend})`, () => {
    let db: IsolatedDatabase;
    let store: Database;
    let webhookStore: WebhookStore;
    let app: FastifyInstance;
    let alice: string;
    let bob: string;
    const env = () => ({ DATABASE_URL: db.databaseUrl, WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true" });

    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await createStore({ databaseUrl: db.databaseUrl });
      alice = (await runKeys(db.databaseUrl, "create", "--name", "alice")).lastLine;
      bob = (await runKeys(db.databaseUrl, "create", "--name", "bob")).lastLine;
      webhookStore = await openWebhookDatabase(db.databaseUrl);
      const config = loadConfig({ DATABASE_URL: db.databaseUrl, LOG_LEVEL: "silent" });
      app = await buildApp({
        config,
        store,
        plugins: [(root) => registerApiKeyAuth(root, { repository: store.apiKeys })],
        webhooks: {
          store: webhookStore,
          allowPrivateAddresses: false,
          resolve: async (host) => (host === "inside.example" ? ["10.0.0.1"] : ["93.184.215.14"]),
        },
      });
      await app.ready();
    });
    after(async () => {
      await app?.close();
      await webhookStore?.close();
      await store?.close();
      await db?.cleanup();
    });

    const create = (key: string, payload: object) =>
      app.inject({
        method: "POST",
        url: "/api/oracle/webhooks",
        headers: { authorization: key },
        payload,
      });

    it("default: a key creates a subscription and sees the secret once", async () => {
      const created = await create(alice, {
        url: "https://user:pw@hooks.example/bridge",
        addresses: ["0x52908400098527886E0F7030069857D2E4169EE7"],
      });
      assert.equal(created.statusCode, 200, created.body);
      const data = created.json().data;
      assert.match(data.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.equal(data.status, "active");
      assert.equal(data.url, "https://***@hooks.example/bridge");
      assert.deepEqual(data.filter, {
        addresses: ["0x52908400098527886e0f7030069857d2e4169ee7"],
        txHashes: [],
      });
      const listed = await app.inject({
        url: "/api/oracle/webhooks",
        headers: { authorization: alice },
      });
      assert.equal(listed.statusCode, 200);
      assert.equal(listed.json().data.length, 1);
      assert.equal(listed.body.includes(data.secret), false);
      assert.equal(listed.body.includes("pw@"), false);
      const one = await app.inject({
        url: `/api/oracle/webhooks/${data.id}`,
        headers: { authorization: alice },
      });
      assert.equal(one.statusCode, 200);
      assert.equal(one.json().data.id, data.id);
    });

    it("behavior: another key's subscription is invisible and undeletable (404)", async () => {
      const created = (await create(alice, { url: "https://hooks.example/a" })).json().data;
      const bobList = await app.inject({
        url: "/api/oracle/webhooks",
        headers: { authorization: bob },
      });
      assert.deepEqual(bobList.json().data, []);
      for (const [method, url] of [
        ["GET", `/api/oracle/webhooks/${created.id}`],
        ["DELETE", `/api/oracle/webhooks/${created.id}`],
        ["GET", `/api/oracle/webhooks/${created.id}/deliveries`],
        ["POST", `/api/oracle/webhooks/${created.id}/deliveries/1/redeliver`],
      ] as const) {
        const answer = await app.inject({ method, url, headers: { authorization: bob } });
        assert.equal(answer.statusCode, 404, `${method} ${url}`);
        assert.equal(answer.json().code, 40401);
      }
      const still = await app.inject({
        url: `/api/oracle/webhooks/${created.id}`,
        headers: { authorization: alice },
      });
      assert.equal(still.statusCode, 200);
      const deleted = await app.inject({
        method: "DELETE",
        url: `/api/oracle/webhooks/${created.id}`,
        headers: { authorization: alice },
      });
      assert.deepEqual(deleted.json().data, { id: created.id, deleted: true });
      const gone = await app.inject({
        url: `/api/oracle/webhooks/${created.id}`,
        headers: { authorization: alice },
      });
      assert.equal(gone.statusCode, 404);
    });

    it("error: no key 401; bad URLs, private addresses and filters 400", async () => {
      const anonymous = await app.inject({ url: "/api/oracle/webhooks" });
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().code, 40101);
      for (const [payload, message] of [
        [{}, /url is required/],
        [{ url: "ftp://hooks.example/x" }, /http or https/],
        [{ url: "http://127.0.0.1:8080/x" }, /127\.0\.0\.1/],
        [{ url: "https://inside.example/x" }, /10\.0\.0\.1/],
        // IPv6 forms carrying a loopback or metadata address (#41); the parser writes ::7f00:1.
        [{ url: "http://[::127.0.0.1]:39443/" }, /::7f00:1/],
        [{ url: "http://[64:ff9b::a9fe:a9fe]/" }, /64:ff9b::a9fe:a9fe/],
        [{ url: "http://[::ffff:0:a9fe:a9fe]/" }, /::ffff:0:a9fe:a9fe/],
        [{ url: "https://hooks.example/x", addresses: ["nope nope"] }, /addresses/],
        [{ url: "https://hooks.example/x", extra: 1 }, /extra/],
        // Wrong types are refused, not coerced (["u"] -> "u", "a" -> ["a"], 123 -> "123").
        [{ url: ["https://hooks.example/x"] }, /^url must be a string$/],
        [
          {
            url: "https://hooks.example/x",
            addresses: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
          },
          /^addresses must be an array/,
        ],
        [{ url: "https://hooks.example/x", addresses: null }, /^addresses must be an array/],
        [
          { url: "https://hooks.example/x", txHashes: [123, true] },
          /^txHashes\.0 must be a string$/,
        ],
      ] as const) {
        const answer = await create(alice, payload);
        assert.equal(answer.statusCode, 400, JSON.stringify(payload));
        assert.equal(answer.json().code, 40001);
        assert.match(answer.json().msg, message);
      }
    });

    it("error: a POST without a body is 400 40002", async () => {
      const answer = await app.inject({
        method: "POST",
        url: "/api/oracle/webhooks",
        headers: { authorization: alice },
      });
      assert.equal(answer.statusCode, 400);
      assert.equal(answer.json().code, 40002);
    });

    it("error: a bad id, status, limit or repeated parameter is named with its rule", async () => {
      for (const [url, message] of [
        ["/api/oracle/webhooks/abc", /^id must be a positive whole number of at most 16 digits$/],
        [
          "/api/oracle/webhooks/1/deliveries?status=bogus",
          /^status must be one of pending, delivered, failed$/,
        ],
        [
          "/api/oracle/webhooks/1/deliveries?limit=abc",
          /^limit must be a whole number written in digits$/,
        ],
        ["/api/oracle/webhooks/1/deliveries?limit=1&limit=2", /^limit must be given once$/],
      ] as const) {
        const answer = await app.inject({ url, headers: { authorization: alice } });
        assert.equal(answer.statusCode, 400, url);
        assert.equal(answer.json().code, 40001, url);
        assert.match(answer.json().msg, message, url);
      }
    });

    it("behavior: the CLI creates (secret on the last line), lists, shows deliveries and deletes", async () => {
      const created = await cli(
        env(),
        "create",
        "--key",
        "bob",
        "--url",
        "http://127.0.0.1:9/hook",
        "--tx-hash",
        `0x${"ab".repeat(32)}`,
      );
      assert.equal(created.code, 0, created.stderr);
      assert.match(created.lastLine, /^whsec_/);
      const id = /subscription (\d+)/.exec(created.stdout)?.[1];
      assert.ok(id, "id");
      const listed = await cli(env(), "list", "--key", "bob");
      assert.equal(listed.code, 0);
      assert.match(
        listed.stdout,
        new RegExp(`^${id} .*http://127\\.0\\.0\\.1:9/hook.*active$`, "m"),
      );
      assert.equal(listed.stdout.includes(created.lastLine), false);
      // Bob's API view has it too; Alice's does not.
      const viaApi = await app.inject({
        url: `/api/oracle/webhooks/${id}`,
        headers: { authorization: bob },
      });
      assert.equal(viaApi.statusCode, 200);
      const deliveries = await cli(env(), "deliveries", id as string);
      assert.equal(deliveries.code, 0);
      assert.match(deliveries.stdout, /no deliveries/);
      assert.equal((await cli(env(), "delete", id as string)).code, 0);
      const again = await cli(env(), "delete", id as string);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /no webhook subscription/);
    });

    it("behavior: the CLI lists a revoked key's subscriptions by its name", async () => {
      await runKeys(db.databaseUrl, "create", "--name", "dave");
      const created = await cli(env(), "create", "--key", "dave", "--url", "http://127.0.0.1:9/d");
      assert.equal(created.code, 0, created.stderr);
      const id = /subscription (\d+)/.exec(created.stdout)?.[1] as string;
      assert.equal((await runKeys(db.databaseUrl, "revoke", "dave")).code, 0);
      const listed = await cli(env(), "list", "--key", "dave");
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, new RegExp(`^${id} .*http://127\\.0\\.0\\.1:9/d`, "m"));
      const nobody = await cli(env(), "list", "--key", "nobody");
      assert.equal(nobody.code, 1);
      assert.match(nobody.stderr, /no API key has the name or prefix 'nobody'/);
      assert.equal((await cli(env(), "delete", id)).code, 0);
    });

    it("error: the CLI refuses a private address without the setting, an unknown key, bad usage", async () => {
      const privateUrl = await cli(
        { DATABASE_URL: db.databaseUrl },
        "create",
        "--key",
        "bob",
        "--url",
        "http://127.0.0.1:9/",
      );
      assert.equal(privateUrl.code, 1);
      assert.match(privateUrl.stderr, /private, loopback or link-local/);
      const unknown = await cli(env(), "create", "--key", "carol", "--url", "http://127.0.0.1:9/");
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no active API key/);
      const usage = await cli(env(), "create", "--url", "http://127.0.0.1:9/");
      assert.equal(usage.code, 1);
      assert.match(usage.stderr, /needs --key KEY and --url URL/);
      assert.equal((await cli(env(), "redeliver", "999")).code, 1);
    });
  });
}
