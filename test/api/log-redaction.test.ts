/**
 * No API key or webhook secret reaches the log (issue #41): keys sent in the query string, in the
 * Authorization header and in the body, valid or not, and the secret a subscription is given,
 * through the real app's logger at debug level (Fastify's request lines included).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/api/app.js";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { loadConfig } from "../../src/config/env.js";
import { generateApiKey } from "../../src/keys/api-key.js";
import { createStore, type Database } from "../../src/store/index.js";
import { webhookStoreOf } from "../../src/store/webhook-store.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";

const ADDRESS = "addressOrTxHash=0x52908400098527886e0f7030069857d2e4169ee7&pageNo=1&pageSize=10";

describe("log redaction (#41)", () => {
  let db: IsolatedDatabase;
  let store: Database;
  let app: FastifyInstance;
  const lines: string[] = [];
  const valid = generateApiKey();
  const unknown = generateApiKey().key; // shaped like ours, never stored

  before(async () => {
    db = await setupIsolatedDatabase("sqlite");
    store = await createStore({ databaseUrl: db.databaseUrl });
    await store.apiKeys.createKey({ name: "alice", ...valid, createdAt: new Date() });
    app = await buildApp({
      config: loadConfig({ DATABASE_URL: db.databaseUrl, LOG_LEVEL: "trace" }),
      store,
      logDestination: { write: (line) => void lines.push(line) },
      plugins: [(root) => registerApiKeyAuth(root, { repository: store.apiKeys })],
      router: {
        router: undefined,
        state: { current: () => ({ chains: new Map() }) },
        maxStateAgeMs: 1000,
      },
      webhooks: {
        store: webhookStoreOf(store),
        allowPrivateAddresses: false,
        resolve: async () => ["93.184.215.14"],
      },
    });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await store?.close();
    await db?.cleanup();
  });

  function assertNoSecret(secrets: readonly string[]): void {
    assert.ok(lines.length > 0, "the app logged nothing: the capture does not work");
    for (const secret of secrets) {
      const leaked = lines.filter((line) => line.includes(secret));
      assert.deepEqual(leaked, [], `${secret.slice(0, 8)}... reached the log`);
    }
  }

  it("error: a key in the query string is not logged (the issue's request, and other names)", async () => {
    const start = lines.length;
    for (const [url, status] of [
      [`/api/oracle/router?apiKey=${unknown}`, 401],
      [`/api/oracle/router?apiKey=${valid.key}`, 401],
      [`/api/oracle/bridge-transactions?${ADDRESS}&key=${valid.key}`, 200],
      [`/api/oracle/bridge-transactions?access_token=plain-token-4711&${ADDRESS}`, 200],
      [`/api/oracle/bridge-transactions?${ADDRESS}&x=${unknown}`, 200],
    ] as const) {
      const method = url.startsWith("/api/oracle/router") ? "POST" : "GET";
      const answer = await app.inject({
        method,
        url,
        ...(method === "POST" ? { payload: {} } : {}),
      });
      assert.equal(answer.statusCode, status, `${url}: ${answer.body}`);
    }
    assertNoSecret([valid.key, unknown, "plain-token-4711"]);
    const urls = lines
      .slice(start)
      .map((line) => JSON.parse(line) as { req?: { url?: string } })
      .flatMap((line) => (line.req?.url === undefined ? [] : [line.req.url]));
    assert.ok(urls.includes("/api/oracle/router?apiKey=***"), urls.join("\n"));
    assert.ok(
      urls.includes(`/api/oracle/bridge-transactions?access_token=***&${ADDRESS}`),
      urls.join("\n"),
    );
  });

  it("error: a key in the Authorization header is not logged, accepted or refused", async () => {
    for (const authorization of [valid.key, `Bearer ${unknown}`, `Basic ${unknown}`, unknown]) {
      await app.inject({ url: "/api/oracle/webhooks", headers: { authorization } });
    }
    assertNoSecret([valid.key, unknown]);
  });

  it("error: a key or secret in a body (valid JSON or not) is not logged, nor the secret given out", async () => {
    const headers = { authorization: valid.key, "content-type": "application/json" };
    for (const payload of [
      `{"apiKey":"${unknown}"`,
      `${unknown}`,
      `{"url":"${unknown}"}`,
      `{"url":"https://hooks.example/h?token=${unknown}","extra":"${valid.key}"}`,
    ]) {
      const answer = await app.inject({
        method: "POST",
        url: "/api/oracle/webhooks",
        headers,
        payload,
      });
      assert.equal(answer.statusCode, 400, answer.body);
    }
    const created = await app.inject({
      method: "POST",
      url: "/api/oracle/webhooks",
      headers,
      payload: { url: "https://hooks.example/h?token=receiver-token-99" },
    });
    assert.equal(created.statusCode, 200, created.body);
    const { secret, url } = created.json().data as { secret: string; url: string };
    assert.equal(url, "https://hooks.example/h?token=***");
    assertNoSecret([valid.key, unknown, secret, "receiver-token-99"]);
  });
});
