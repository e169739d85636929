/**
 * The auth and rate-limit plugins inside the real app (buildApp), wired as `serve` should wire
 * them: the list endpoint over a real store, plus a stand-in router route that requires a key.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/api/app.js";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { registerRateLimit } from "../../src/api/plugins/rate-limit.js";
import { loadConfig } from "../../src/config/env.js";
import { type Database, openDatabase } from "../../src/store/index.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { runKeys } from "./cli-io.js";

const LIST =
  "/api/oracle/bridge-transactions?addressOrTxHash=0x52908400098527886E0F7030069857D2E4169EE7&pageNo=1&pageSize=10";

describe("auth and rate limit in buildApp", () => {
  let db: IsolatedDatabase;
  let store: Database;
  let app: FastifyInstance;
  let key: string;

  before(async () => {
    db = await setupIsolatedDatabase("sqlite");
    store = await openDatabase(db.databaseUrl);
    key = (await runKeys(db.databaseUrl, "create", "--name", "integrator")).lastLine;
    const config = loadConfig({ DATABASE_URL: db.databaseUrl, LOG_LEVEL: "silent" });
    app = await buildApp({
      config,
      store,
      plugins: [
        (root) => registerApiKeyAuth(root, { repository: store.apiKeys }),
        (root) =>
          registerRateLimit(root, {
            anonymousPerMinute: 2,
            keyPerMinute: 4,
            redisUrl: config.redisUrl,
          }),
        (root) => {
          root.post("/api/oracle/router", { config: { apiKey: "required" } }, async () => ({
            code: 0,
            msg: "success",
            data: {},
          }));
        },
      ],
    });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await store?.close();
    await db?.cleanup();
  });

  it("default: the router refuses a request without a key (401 40101) and accepts the key", async () => {
    const missing = await app.inject({ method: "POST", url: "/api/oracle/router", payload: {} });
    assert.equal(missing.statusCode, 401);
    assert.equal(missing.json().code, 40101);
    assert.ok(missing.headers["x-request-id"], 'missing.headers["x-request-id"]');
    const ok = await app.inject({
      method: "POST",
      url: "/api/oracle/router",
      headers: { authorization: key },
      payload: {},
    });
    assert.equal(ok.statusCode, 200);
  });

  it("behavior: the list needs no key; the anonymous budget runs out with 429 42901", async () => {
    // The router request above without a key used 1 of the address's 2.
    const first = await app.inject({ url: LIST });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers["x-ratelimit-limit"], "2");
    assert.equal(first.headers["x-ratelimit-remaining"], "0");
    const limited = await app.inject({ url: LIST });
    assert.equal(limited.statusCode, 429);
    assert.deepEqual(Object.keys(limited.json()), ["code", "msg", "data"]);
    assert.equal(limited.json().code, 42901);
    assert.ok(
      Number(limited.headers["retry-after"]) >= 1,
      'Number(limited.headers["retry-after"]) >= 1',
    );
    assert.ok(limited.headers["x-request-id"], 'limited.headers["x-request-id"]');
  });

  it("behavior: a valid key raises the list's limit; a bad key is refused", async () => {
    const keyed = await app.inject({ url: LIST, headers: { authorization: `Bearer ${key}` } });
    assert.equal(keyed.statusCode, 200, keyed.body);
    assert.equal(keyed.headers["x-ratelimit-limit"], "4");
    // This address is out of budget, but the bad key is what the client must fix: 401 (docs/http-api.md, "Errors").
    const bad = await app.inject({ url: LIST, headers: { authorization: "bo_not-a-key" } });
    assert.equal(bad.statusCode, 401, bad.body);
    assert.equal(bad.json().code, 40102);
    const elsewhere = await app.inject({
      url: LIST,
      remoteAddress: "203.0.113.9",
      headers: { authorization: "bo_not-a-key" },
    });
    assert.equal(elsewhere.statusCode, 401);
    assert.equal(elsewhere.json().code, 40102);
    assert.equal(elsewhere.headers["x-ratelimit-remaining"], "1", "counted against its address");
  });
});
