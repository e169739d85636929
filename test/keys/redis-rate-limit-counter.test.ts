/**
 * The Redis rate-limit counter against the real Redis (REDIS_URL, default
 * redis://127.0.0.1:6379): a database the server does not have.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import {
  createRedisRateLimitCounter,
  type RateLimitCounterLogger,
} from "../../src/keys/redis-rate-limit-counter.js";

const REDIS_URL = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379";

function collectingLogger() {
  const warnings: string[] = [];
  const logger: RateLimitCounterLogger = {
    warn: (_fields, message) => warnings.push(message),
    info: () => {},
  };
  return { logger, warnings };
}

/** REDIS_URL with another database number. */
function withDatabase(url: string, db: number): string {
  const parsed = new URL(url);
  parsed.pathname = `/${db}`;
  return parsed.toString();
}

describe("createRedisRateLimitCounter against the real Redis", () => {
  let redis: Redis;
  // A fresh prefix per run: parallel runs and earlier runs never share counts with this one.
  const keyPrefix = `bridge-oracle-test:${randomBytes(6).toString("hex")}:`;

  before(async () => {
    redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
    redis.on("error", () => {});
    // Fails (does not skip) when Redis is absent: CI runs this suite with Redis.
    await redis.connect().catch((error: unknown) => {
      throw new Error(`Redis is required at ${REDIS_URL} for this suite: ${String(error)}`);
    });
  });
  after(async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  });

  it("error: a database the server does not have is counted per process, never in database 0", async () => {
    const [, databases] = (await redis.config("GET", "databases")) as [string, string];
    const url = withDatabase(REDIS_URL, Number(databases));
    // Database 0 is where ioredis stays when its SELECT fails; it is only looked at here.
    const db0 = new Redis(withDatabase(REDIS_URL, 0), { maxRetriesPerRequest: 0 });
    const { logger, warnings } = collectingLogger();
    const counter = createRedisRateLimitCounter({ url, keyPrefix, logger });
    try {
      await counter.start?.();
      for (let i = 1; i <= 3; i++) assert.equal((await counter.hit("ip:1", 60_000)).count, i);
      assert.equal(await db0.exists(`${keyPrefix}ip:1`), 0, "nothing was counted in database 0");
      assert.equal(warnings.length, 1, "one warning");
    } finally {
      await counter.close();
      await db0.del(`${keyPrefix}ip:1`);
      db0.disconnect();
    }
  });
});
