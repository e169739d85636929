/**
 * CORS_ORIGINS: a browser dApp on a listed origin can preflight and call both endpoints and read
 * every answer (errors from the request gate included); other origins, and every origin when
 * CORS_ORIGINS is unset, get no CORS headers.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { registerRateLimit } from "../../src/api/plugins/rate-limit.js";
import { loadConfig } from "../../src/config/env.js";
import { type Database, openDatabase } from "../../src/store/index.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { buildTestApp } from "./setup.js";

const DAPP = "https://dapp.example";
const LIST =
  "/api/oracle/bridge-transactions?addressOrTxHash=0x70997970C51812dc3A010C7d01b50e0d17dc79C8&pageNo=1&pageSize=10";

describe("CORS", () => {
  let db: IsolatedDatabase;
  let store: Database;
  before(async () => {
    db = await setupIsolatedDatabase("sqlite");
    store = await openDatabase(db.databaseUrl);
  });
  after(async () => {
    await store.close();
    await db.cleanup();
  });

  async function app(
    corsOrigins: string | undefined,
    anonymousPerMinute = 10,
  ): Promise<FastifyInstance> {
    const config = loadConfig({
      LOG_LEVEL: "silent",
      DATABASE_URL: db.databaseUrl,
      CORS_ORIGINS: corsOrigins,
    });
    const { app } = await buildTestApp(store, {
      config,
      plugins: [
        (root) => registerApiKeyAuth(root, { repository: store.apiKeys }),
        (root) => registerRateLimit(root, { anonymousPerMinute, keyPerMinute: 0 }),
      ],
      router: {
        router: undefined,
        state: { current: () => ({ chains: new Map() }) },
        maxStateAgeMs: 1000,
      },
    });
    return app;
  }

  it("default: a listed origin may preflight the router with an Authorization header and read the answers", async () => {
    const a = await app(`${DAPP},http://localhost:3000`);
    try {
      const preflight = await a.inject({
        method: "OPTIONS",
        url: "/api/oracle/router",
        headers: {
          origin: DAPP,
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization,content-type",
        },
      });
      assert.equal(preflight.statusCode, 204, preflight.body);
      assert.equal(preflight.headers["access-control-allow-origin"], DAPP);
      assert.match(String(preflight.headers["access-control-allow-headers"]), /authorization/);
      assert.match(String(preflight.headers["access-control-allow-methods"]), /POST/);
      assert.equal(preflight.headers["access-control-max-age"], "600");

      const list = await a.inject({ url: LIST, headers: { origin: DAPP } });
      assert.equal(list.statusCode, 200);
      assert.equal(list.headers["access-control-allow-origin"], DAPP);
      assert.match(String(list.headers["access-control-expose-headers"]), /x-request-id/);
      // An error answered by the request gate (no key on the router) is readable too.
      const refused = await a.inject({
        method: "POST",
        url: "/api/oracle/router",
        headers: { origin: DAPP },
        payload: {},
      });
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.headers["access-control-allow-origin"], DAPP);

      const other = await a.inject({ url: LIST, headers: { origin: "https://evil.example" } });
      assert.equal(other.headers["access-control-allow-origin"], undefined);
    } finally {
      await a.close();
    }
  });

  it("behavior: a preflight goes through the request gate: it has a request id and counts against the address's rate limit", async () => {
    const a = await app(DAPP, 2);
    const preflight = () =>
      a.inject({
        method: "OPTIONS",
        url: "/api/oracle/router",
        headers: { origin: DAPP, "access-control-request-method": "POST" },
      });
    try {
      const first = await preflight();
      assert.equal(first.statusCode, 204, first.body);
      assert.equal(first.headers["content-length"], "0");
      assert.equal(first.body, "");
      assert.equal(typeof first.headers["x-request-id"], "string");
      assert.equal(first.headers["x-ratelimit-remaining"], "1");
      assert.equal(first.headers["access-control-allow-origin"], DAPP);
      const second = await preflight();
      assert.equal(second.statusCode, 204);
      assert.equal(second.headers["x-ratelimit-remaining"], "0");
      // The limit (2 a minute here) is spent: like any request, the next one is refused.
      const third = await preflight();
      assert.equal(third.statusCode, 429, third.body);
      assert.equal(JSON.parse(third.body).code, 42901);
      assert.equal(third.headers["access-control-allow-origin"], DAPP);
    } finally {
      await a.close();
    }
  });

  it("behavior: CORS_ORIGINS=* allows any origin", async () => {
    const a = await app("*");
    try {
      const list = await a.inject({ url: LIST, headers: { origin: "https://any.example" } });
      assert.equal(list.headers["access-control-allow-origin"], "*");
    } finally {
      await a.close();
    }
  });

  it("default: without CORS_ORIGINS no CORS header is sent and a preflight is 405", async () => {
    const a = await app(undefined);
    try {
      const list = await a.inject({ url: LIST, headers: { origin: DAPP } });
      assert.equal(list.headers["access-control-allow-origin"], undefined);
      const preflight = await a.inject({
        method: "OPTIONS",
        url: "/api/oracle/router",
        headers: { origin: DAPP, "access-control-request-method": "POST" },
      });
      assert.equal(preflight.statusCode, 405);
    } finally {
      await a.close();
    }
  });

  it("error: an origin with a path or not http(s) is refused at start", () => {
    for (const bad of [
      "https://dapp.example/",
      "dapp.example",
      "ftp://x.example",
      "https://a.example,",
    ]) {
      assert.throws(() => loadConfig({ CORS_ORIGINS: bad }), /CORS_ORIGINS must be \* or origins/);
    }
  });
});
