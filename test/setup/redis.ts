/**
 * The real Redis of the suites that need one (REDIS_URL, default 127.0.0.1:6379): connected, or
 * a failure naming it (never a skip: CI runs these suites with Redis), with a fresh key prefix
 * per run so parallel and earlier runs never share counts, and a close that deletes its keys.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

export const REDIS_URL = process.env["REDIS_URL"] ?? "redis://127.0.0.1:6379";

export interface TestRedis {
  redis: Redis;
  keyPrefix: string;
  /** Deletes the keys under keyPrefix and disconnects. */
  close(): Promise<void>;
}

export async function connectTestRedis(): Promise<TestRedis> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on("error", () => {});
  await redis.connect().catch((error: unknown) => {
    throw new Error(`Redis is required at ${REDIS_URL} for this suite: ${String(error)}`);
  });
  const keyPrefix = `bridge-oracle-test:${randomBytes(6).toString("hex")}:`;
  return {
    redis,
    keyPrefix,
    async close() {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
  };
}
