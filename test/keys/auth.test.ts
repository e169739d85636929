import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { generateApiKey } from "../../src/keys/api-key.js";
import { createApiKeyCache } from "../../src/keys/api-key-cache.js";
import { eventually } from "../setup/eventually.js";
import { createMemoryApiKeyRepository } from "./memory-api-key-repository.js";
import { buildTinyApp } from "./tiny-app.js";

export async function issue(
  repository: ReturnType<typeof createMemoryApiKeyRepository>,
  name: string,
) {
  const generated = generateApiKey();
  const record = await repository.createKey({ name, ...generated, createdAt: new Date() });
  return { key: generated.key, record };
}

const routerBody = { sourceChain: "1", destChain: "2" };

describe("auth plugin", async () => {
  const repository = createMemoryApiKeyRepository();
  const alice = await issue(repository, "alice");
  const app: FastifyInstance = await buildTinyApp({
    auth: { repository, refreshIntervalMs: 50, lastUsedFlushIntervalMs: 60_000 },
  });
  after(() => app.close());

  function router(authorization?: string) {
    return app.inject({
      method: "POST",
      url: "/api/oracle/router",
      headers: authorization === undefined ? {} : { authorization },
      payload: routerBody,
    });
  }

  it("default: a bare key is accepted on the router", async () => {
    const response = await router(alice.key);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { code: 0, msg: "success", data: { key: "alice" } });
  });

  it("behavior: 'Bearer <key>' is accepted too", async () => {
    const response = await router(`Bearer ${alice.key}`);
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().data.key, "alice");
  });

  it("error: no Authorization header on the router is 401 40101", async () => {
    const response = await router();
    assert.equal(response.statusCode, 401);
    const body = response.json();
    assert.equal(body.code, 40101);
    assert.equal(body.data, null);
    assert.match(body.msg, /Authorization/);
  });

  it("error: a blank header or a bare 'Bearer' is a missing key (40101)", async () => {
    assert.equal((await router("  ")).json().code, 40101);
    assert.equal((await router("Bearer")).json().code, 40101);
  });

  it("error: an unknown key is 401 40102, and its body is never parsed", async () => {
    const unknown = generateApiKey().key;
    const response = await app.inject({
      method: "POST",
      url: "/api/oracle/router",
      headers: { authorization: unknown, "content-type": "application/json" },
      payload: "{not json",
    });
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().code, 40102);
    assert.match(
      response.json().msg,
      new RegExp(`unknown or revoked API key '${unknown.slice(0, 11)}`),
    );
    assert.doesNotMatch(response.json().msg, new RegExp(unknown.slice(11)));
  });

  it("behavior: the list endpoint needs no key, accepts a valid one, refuses a bad one", async () => {
    const anonymous = await app.inject({ url: "/api/oracle/bridge-transactions" });
    assert.equal(anonymous.statusCode, 200);
    assert.equal(anonymous.json().data.key, null);
    const keyed = await app.inject({
      url: "/api/oracle/bridge-transactions",
      headers: { authorization: `Bearer ${alice.key}` },
    });
    assert.equal(keyed.json().data.key, "alice");
    const bad = await app.inject({
      url: "/api/oracle/bridge-transactions",
      headers: { authorization: "bo_nope" },
    });
    assert.equal(bad.statusCode, 401);
    assert.equal(bad.json().code, 40102);
  });

  it("behavior: an unknown path stays 404 even with a bad key", async () => {
    const response = await app.inject({ url: "/nope", headers: { authorization: "bo_nope" } });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, 40401);
  });

  it("behavior: a key created while the app runs works after the next refresh", async () => {
    const bob = await issue(repository, "bob");
    await eventually(2000, async () =>
      assert.equal((await router(bob.key)).json().data?.key, "bob"),
    );
  });

  it("behavior: a revoked key is refused within the refresh interval", async () => {
    const carol = await issue(repository, "carol");
    await eventually(2000, async () => assert.equal((await router(carol.key)).statusCode, 200));
    await repository.revokeKey(carol.record.id, new Date());
    await eventually(2000, async () => {
      const response = await router(carol.key);
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().code, 40102);
    });
  });
});

describe("auth plugin and the store", () => {
  it("behavior: requests make no store call; uses are written later in one batch", async () => {
    const repository = createMemoryApiKeyRepository();
    const alice = await issue(repository, "alice");
    const cache = createApiKeyCache({
      repository,
      refreshIntervalMs: 60_000,
      lastUsedFlushIntervalMs: 60_000,
    });
    await cache.start();
    const app = await buildTinyApp({ auth: { cache } });
    try {
      const before = repository.totalCalls();
      for (let i = 0; i < 50; i++) {
        const response = await app.inject({
          method: "POST",
          url: "/api/oracle/router",
          headers: { authorization: i % 2 === 0 ? alice.key : "bo_unknown" },
          payload: routerBody,
        });
        assert.equal(response.statusCode, i % 2 === 0 ? 200 : 401);
        await app.inject({ url: "/api/oracle/bridge-transactions" });
      }
      assert.equal(repository.totalCalls(), before, "no repository call while serving");
      assert.equal((await repository.listKeys())[0]?.lastUsedAt, null);
      await cache.flushLastUsed();
      assert.equal(repository.calls.get("recordKeyUses"), 1);
      assert.notEqual((await repository.listKeys())[0]?.lastUsedAt, null);
    } finally {
      await app.close();
      await cache.close();
    }
  });

  it("error: an Authorization value that is not a key of ours is refused without being remembered or quoted", async () => {
    // Regression: every made-up value (up to 16 KB) was hashed and kept in the memo (10,000 of
    // them: 160 MB), and the 40102 message quoted its first 11 characters ('Basic dXNlc...').
    const repository = createMemoryApiKeyRepository();
    await issue(repository, "alice");
    const cache = createApiKeyCache({ repository, refreshIntervalMs: 60_000 });
    await cache.start();
    const app = await buildTinyApp({ auth: { cache } });
    try {
      for (let i = 0; i < 100; i++) {
        const response = await app.inject({
          url: "/api/oracle/bridge-transactions",
          headers: { authorization: `${"x".repeat(1000)}${i}` },
        });
        assert.equal(response.statusCode, 401);
      }
      assert.equal(cache.remembered, 0);
      const basic = await app.inject({
        url: "/api/oracle/bridge-transactions",
        headers: { authorization: "Basic dXNlcjpwYXNzd29yZA==" },
      });
      assert.equal(basic.json().code, 40102);
      assert.match(basic.json().msg, /does not hold an API key of this service \(bo_ followed/);
      assert.doesNotMatch(basic.json().msg, /dXNl|Basic/);
      // A well-formed unknown key is remembered (a repeat costs no hash) and quoted by prefix.
      const unknown = generateApiKey().key;
      const refused = await app.inject({
        url: "/api/oracle/bridge-transactions",
        headers: { authorization: unknown },
      });
      assert.match(refused.json().msg, new RegExp(`'${unknown.slice(0, 11)}\\.\\.\\.'`));
      assert.equal(cache.remembered, 1);
    } finally {
      await app.close();
      await cache.close();
    }
  });

  it("behavior: while the store is down the last loaded keys keep working", async () => {
    const repository = createMemoryApiKeyRepository();
    const alice = await issue(repository, "alice");
    const warnings: string[] = [];
    const cache = createApiKeyCache({
      repository,
      refreshIntervalMs: 60_000,
      logger: { warn: (_fields, message) => warnings.push(message) },
    });
    await cache.start();
    repository.failWith = new Error("database unreachable");
    await cache.refresh();
    await cache.refresh();
    assert.equal(warnings.length, 1, "one warning per outage");
    assert.equal(cache.authenticate(alice.key)?.name, "alice");
    repository.failWith = undefined;
    await cache.close();
  });

  it("error: the app does not start when the keys cannot be loaded", async () => {
    const repository = createMemoryApiKeyRepository();
    repository.failWith = new Error("database unreachable");
    await assert.rejects(buildTinyApp({ auth: { repository } }), /database unreachable/);
  });
});
