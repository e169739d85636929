/**
 * The Redis rate-limit counter against the real Redis (REDIS_URL, default
 * redis://127.0.0.1:6379): a database the server does not have, and a connection that stops
 * answering while Redis itself stays healthy (through a TCP proxy that freezes its live
 * connections and forwards new ones).
 */
import assert from "node:assert/strict";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { Redis } from "ioredis";
import {
  createRedisRateLimitCounter,
  type RateLimitCounterLogger,
} from "../../src/keys/redis-rate-limit-counter.js";
import { connectTestRedis, REDIS_URL, type TestRedis } from "../setup/redis.js";

function collectingLogger() {
  const warnings: string[] = [];
  const infos: string[] = [];
  const logger: RateLimitCounterLogger = {
    warn: (_fields, message) => warnings.push(message),
    info: (_fields, message) => infos.push(message),
  };
  return { logger, warnings, infos };
}

/** REDIS_URL with another database number. */
function withDatabase(url: string, db: number): string {
  const parsed = new URL(url);
  parsed.pathname = `/${db}`;
  return parsed.toString();
}

/** A TCP proxy to `target` whose freeze() stops forwarding on every live connection, both ways. */
async function startFreezableProxy(target: URL) {
  const sockets = new Set<Socket>();
  const live: { client: Socket; upstream: Socket }[] = [];
  let connections = 0;
  const server: Server = createServer((client) => {
    connections += 1;
    const upstream = createConnection({
      host: target.hostname,
      port: Number(target.port || 6379),
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
    live.push({ client, upstream });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const url = new URL(REDIS_URL);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    connections: () => connections,
    /** The connections stay open; nothing more is read or forwarded on them (a stall). */
    freeze() {
      for (const { client, upstream } of live.splice(0)) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("createRedisRateLimitCounter against the real Redis", () => {
  let testRedis: TestRedis;
  let redis: Redis;
  let keyPrefix: string;

  before(async () => {
    testRedis = await connectTestRedis();
    ({ redis, keyPrefix } = testRedis);
  });
  after(() => testRedis.close());

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
      assert.deepEqual(counter.sharing?.(), { redis: url, shared: false });
      assert.deepEqual(warnings, [
        `Redis ${url} unavailable at start (it answered ERR DB index is out of range); counting rate limits per process until a shared count succeeds`,
      ]);
    } finally {
      await counter.close();
      await db0.del(`${keyPrefix}ip:1`);
      db0.disconnect();
    }
  });

  it("behavior: a connection that stops answering is replaced; sharing resumes without slow hits", async () => {
    const proxy = await startFreezableProxy(new URL(REDIS_URL));
    const { logger, warnings, infos } = collectingLogger();
    const counter = createRedisRateLimitCounter({
      url: proxy.url,
      keyPrefix,
      commandTimeoutMs: 100,
      pauseAfterFailureMs: 200,
      logger,
    });
    const key = `${keyPrefix}stall`;
    try {
      await counter.start?.();
      assert.equal((await counter.hit("stall", 60_000)).count, 1);
      assert.equal(await redis.get(key), "1");

      proxy.freeze();
      const slow: number[] = [];
      let resumed = false;
      const deadline = performance.now() + 3_000;
      while (!resumed && performance.now() < deadline) {
        const started = performance.now();
        await counter.hit("stall", 60_000);
        const took = performance.now() - started;
        if (took >= 90) slow.push(Math.round(took));
        resumed = (await redis.get(key)) === "2";
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(resumed, "a hit reached Redis again");
      assert.equal(slow.length, 1, `only the hit that met the stall waited (slow: ${slow})`);
      assert.equal(proxy.connections(), 2, "through a new connection");
      assert.deepEqual(warnings, [
        `Redis ${proxy.url} unavailable (no answer within 100 ms; reconnecting); counting rate limits per process until a shared count succeeds`,
      ]);
      assert.deepEqual(infos, [
        `Redis ${proxy.url} answers again; rate limits are shared across processes`,
      ]);
      assert.deepEqual(counter.sharing?.(), { redis: proxy.url, shared: true });
    } finally {
      await counter.close();
      await proxy.close();
    }
  });
});
