import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import type { Redis } from "ioredis";
import { clientBucket, decimal } from "../../src/api/plugins/rate-limit.js";
import { generateApiKey } from "../../src/keys/api-key.js";
import { createLogCollector } from "../api/setup.js";
import { connectTestRedis, REDIS_URL, type TestRedis } from "../setup/redis.js";
import { createMemoryApiKeyRepository } from "./memory-api-key-repository.js";
import { buildTinyApp } from "./tiny-app.js";

const LIST = "/api/oracle/bridge-transactions";

async function keyedRepository() {
  const repository = createMemoryApiKeyRepository();
  const generated = generateApiKey();
  await repository.createKey({ name: "alice", ...generated, createdAt: new Date() });
  return { repository, key: generated.key };
}

function list(app: FastifyInstance, authorization?: string) {
  return app.inject({ url: LIST, headers: authorization === undefined ? {} : { authorization } });
}

describe("rate limit in memory", async () => {
  const { repository, key } = await keyedRepository();
  const app = await buildTinyApp({
    auth: { repository },
    rateLimit: { anonymousPerMinute: 3, keyPerMinute: 5 },
  });
  after(() => app.close());

  it("default: the N+1th request of a client address is 429 42901 with Retry-After", async () => {
    for (let i = 1; i <= 3; i++) {
      const response = await list(app);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers["x-ratelimit-limit"], "3");
      assert.equal(response.headers["x-ratelimit-remaining"], String(3 - i));
    }
    const limited = await list(app);
    assert.equal(limited.statusCode, 429);
    const body = limited.json();
    assert.equal(body.code, 42901);
    assert.equal(body.data, null);
    const retryAfter = Number(limited.headers["retry-after"]);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.match(body.msg, /rate limit of 3 requests per minute exceeded for this client address/);
    assert.match(body.msg, new RegExp(`retry after ${retryAfter} s`));
    assert.match(body.msg, /valid API key get 5 per minute/);
    assert.equal(limited.headers["x-ratelimit-remaining"], "0");
  });

  it("behavior: a valid key has its own, higher budget", async () => {
    for (let i = 1; i <= 5; i++) {
      const response = await list(app, key);
      assert.equal(response.statusCode, 200, `keyed request ${i}`);
      assert.equal(response.headers["x-ratelimit-limit"], "5");
    }
    const limited = await list(app, `Bearer ${key}`);
    assert.equal(limited.statusCode, 429);
    assert.match(limited.json().msg, /for API key 'alice' \(bo_/);
  });

  it("behavior: refused requests (no key on the router) count against the address", async () => {
    const response = await app.inject({ method: "POST", url: "/api/oracle/router", payload: {} });
    assert.equal(response.statusCode, 429, "the exhausted address is limited before auth");
  });

  it("behavior: an unknown or revoked key from an address over its limit is 401 40102, not 429", async () => {
    // The address used its 3 requests above: the key, not the limit, is what the client must fix.
    for (const authorization of [generateApiKey().key, "Basic dXNlcjpwYXNz"]) {
      const response = await list(app, authorization);
      assert.equal(response.statusCode, 401, response.body);
      assert.equal(response.json().code, 40102);
      assert.equal(response.headers["x-ratelimit-remaining"], "0", "still counted");
    }
    const anonymous = await list(app);
    assert.equal(anonymous.statusCode, 429);
  });

  it("behavior: an exempt route is never limited and carries no limit headers", async () => {
    const response = await app.inject({ url: "/healthz" });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["x-ratelimit-limit"], undefined);
  });
});

describe("rate limit windows and settings", () => {
  it("behavior: the budget comes back when the window ends", async () => {
    const { repository } = await keyedRepository();
    const app = await buildTinyApp({
      auth: { repository },
      rateLimit: { anonymousPerMinute: 1, windowMs: 300 },
    });
    try {
      assert.equal((await list(app)).statusCode, 200);
      const limited = await list(app);
      assert.equal(limited.statusCode, 429);
      assert.equal(limited.headers["retry-after"], "1");
      assert.match(limited.json().msg, /1 requests per 0.3 s/);
      // Passage of time: the 300 ms window ends.
      await new Promise((resolve) => setTimeout(resolve, 350));
      assert.equal((await list(app)).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  it("behavior: the 429 suggests a key only when a key gets a higher limit", async () => {
    const { repository } = await keyedRepository();
    const app = await buildTinyApp({
      auth: { repository },
      rateLimit: { anonymousPerMinute: 1, keyPerMinute: 1 },
    });
    try {
      assert.equal((await list(app)).statusCode, 200);
      const limited = await list(app);
      assert.equal(limited.statusCode, 429);
      assert.match(limited.json().msg, /exceeded for this client address; retry after \d+ s$/);
    } finally {
      await app.close();
    }
  });

  it("behavior: a limit of 0 means unlimited", async () => {
    const { repository } = await keyedRepository();
    const app = await buildTinyApp({ auth: { repository }, rateLimit: { anonymousPerMinute: 0 } });
    try {
      for (let i = 0; i < 20; i++) assert.equal((await list(app)).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  it("error: a negative or fractional limit stops the app from starting", async () => {
    const { repository } = await keyedRepository();
    await assert.rejects(
      buildTinyApp({ auth: { repository }, rateLimit: { keyPerMinute: -1 } }),
      /keyPerMinute must be a non-negative integer/,
    );
    await assert.rejects(
      buildTinyApp({ auth: { repository }, rateLimit: { anonymousPerMinute: 1.5 } }),
      /anonymousPerMinute must be a non-negative integer/,
    );
  });

  it("behavior: IPv6 clients are counted by /64, IPv4 by address", () => {
    assert.equal(clientBucket("203.0.113.7"), "203.0.113.7");
    assert.equal(clientBucket("::ffff:203.0.113.7"), "203.0.113.7");
    assert.equal(clientBucket("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
    assert.equal(clientBucket("2001:0db8:0001:0002::9"), "2001:db8:1:2::/64");
    assert.equal(clientBucket("2001:db8::1"), "2001:db8:0:0::/64");
    assert.equal(clientBucket("::1"), "0:0:0:0::/64");
  });
});

describe("rate limit shared through Redis", () => {
  let testRedis: TestRedis;
  let redis: Redis;
  let redisKeyPrefix: string;

  before(async () => {
    testRedis = await connectTestRedis();
    ({ redis, keyPrefix: redisKeyPrefix } = testRedis);
  });
  after(() => testRedis.close());

  it("default: two app instances share one limit per client address", async () => {
    const { repository } = await keyedRepository();
    const options = { anonymousPerMinute: 4, redisUrl: REDIS_URL, redisKeyPrefix };
    const first = await buildTinyApp({ auth: { repository }, rateLimit: options });
    const second = await buildTinyApp({ auth: { repository }, rateLimit: options });
    try {
      const statuses: number[] = [];
      const remaining: string[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await list(i % 2 === 0 ? first : second);
        statuses.push(response.statusCode);
        remaining.push(String(response.headers["x-ratelimit-remaining"]));
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 429]);
      assert.deepEqual(remaining, ["3", "2", "1", "0", "0"]);
      const limited = await list(second);
      assert.equal(limited.json().code, 42901);
      const retryAfter = Number(limited.headers["retry-after"]);
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
      const ttl = await redis.pttl(`${redisKeyPrefix}ip:127.0.0.1`);
      assert.ok(ttl > 0 && ttl <= 60_000, `the window key expires (pttl ${ttl})`);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("behavior: the shared window ends and the budget comes back", async () => {
    const { repository, key } = await keyedRepository();
    const options = { keyPerMinute: 2, windowMs: 400, redisUrl: REDIS_URL, redisKeyPrefix };
    const first = await buildTinyApp({ auth: { repository }, rateLimit: options });
    const second = await buildTinyApp({ auth: { repository }, rateLimit: options });
    try {
      assert.equal((await list(first, key)).statusCode, 200);
      assert.equal((await list(second, key)).statusCode, 200);
      assert.equal((await list(first, key)).statusCode, 429);
      // Passage of time: the 400 ms window ends.
      await new Promise((resolve) => setTimeout(resolve, 450));
      assert.equal((await list(second, key)).statusCode, 200);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it("behavior: with Redis unreachable requests are still answered and limited per process", async () => {
    const { repository } = await keyedRepository();
    const app = await buildTinyApp({
      auth: { repository },
      rateLimit: { anonymousPerMinute: 2, redisUrl: "redis://127.0.0.1:1" },
    });
    try {
      assert.equal((await list(app)).statusCode, 200);
      assert.equal((await list(app)).statusCode, 200);
      const limited = await list(app);
      assert.equal(limited.statusCode, 429);
      assert.ok(
        Number(limited.headers["retry-after"]) >= 1,
        'Number(limited.headers["retry-after"]) >= 1',
      );
    } finally {
      await app.close();
    }
  });
});

describe("rate limit startup line and Redis warnings", () => {
  it("behavior: with Redis unreachable at start the line says per process; the warning names the Redis, password masked", async () => {
    const { repository } = await keyedRepository();
    const collector = createLogCollector();
    const app = await buildTinyApp({
      auth: { repository },
      rateLimit: { anonymousPerMinute: 2, redisUrl: "redis://:hunter2@127.0.0.1:1/3" },
      logDestination: collector.destination,
    });
    try {
      const line = collector.logs.find((log) => log["anonymousPerMinute"] === 2);
      assert.equal(line?.["shared"], false);
      assert.equal(line?.["redis"], "redis://:***@127.0.0.1:1/3");
      assert.equal(
        line?.["msg"],
        "rate limits counted per process until Redis redis://:***@127.0.0.1:1/3 answers, then shared",
      );
      const warnings = collector.logs.filter((log) => log["level"] === 40);
      assert.equal(warnings.length, 1);
      assert.match(
        String(warnings[0]?.["msg"]),
        /^Redis redis:\/\/:\*\*\*@127\.0\.0\.1:1\/3 unavailable at start \(.*ECONNREFUSED.*\); counting rate limits per process until a shared count succeeds$/,
      );
      assert.equal((await list(app)).statusCode, 200);
      assert.ok(
        !JSON.stringify(collector.logs).includes("hunter2"),
        "the password is never logged",
      );
    } finally {
      await app.close();
    }
  });

  it("default: with Redis answering at start the line says shared", async () => {
    const { repository } = await keyedRepository();
    const collector = createLogCollector();
    const app = await buildTinyApp({
      auth: { repository },
      rateLimit: { anonymousPerMinute: 3, redisUrl: REDIS_URL },
      logDestination: collector.destination,
    });
    try {
      const line = collector.logs.find((log) => log["anonymousPerMinute"] === 3);
      assert.equal(line?.["shared"], true);
      assert.equal(line?.["msg"], `rate limits shared through Redis ${REDIS_URL}`);
      assert.equal(collector.logs.filter((log) => log["level"] === 40).length, 0);
    } finally {
      await app.close();
    }
  });

  it("default: without REDIS_URL the line says per process", async () => {
    const { repository } = await keyedRepository();
    const collector = createLogCollector();
    const app = await buildTinyApp({
      auth: { repository },
      rateLimit: { anonymousPerMinute: 4 },
      logDestination: collector.destination,
    });
    try {
      const line = collector.logs.find((log) => log["anonymousPerMinute"] === 4);
      assert.equal(line?.["shared"], false);
      assert.equal(line?.["msg"], "rate limits counted per process");
    } finally {
      await app.close();
    }
  });
});

describe("decimal (rate-limit header values)", () => {
  it("behavior: the text String() gives, for every non-negative safe integer", () => {
    for (const n of [0, -0, 1, 9, 10, 1200, 1_000_000_000, Number.MAX_SAFE_INTEGER]) {
      assert.equal(decimal(n), String(Math.abs(n)));
    }
    fc.assert(fc.property(fc.maxSafeNat(), (n) => decimal(n) === String(n)));
  });
});
