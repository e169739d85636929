import assert from "node:assert/strict";
import { createServer, type Server, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { createRedisRateLimitCounter } from "./redis-rate-limit-counter.js";

/**
 * A server that speaks just enough of the Redis protocol to let a client connect (every command
 * answers +OK, start()'s check script answers 1) but never answers a hit's script: a Redis that
 * is up yet stalled.
 */
function startStalledRedis(): Promise<{ server: Server; url: string; scripts: () => number }> {
  let scripts = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("data", (chunk) => {
      for (const [, args, name] of chunk
        .toString("latin1")
        .matchAll(/\*(\d+)\r\n\$\d+\r\n([^\r]*)\r\n/g)) {
        if (!/^EVAL(SHA)?$/i.test(name ?? "")) socket.write("+OK\r\n");
        // EVALSHA sha numkeys db: the check, which has no key.
        else if (args === "4") socket.write(":1\r\n");
        else scripts += 1;
      }
    });
  });
  server.on("close", () => {
    for (const socket of sockets) socket.destroy();
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `redis://:hunter2@127.0.0.1:${port}`, scripts: () => scripts });
    });
  });
}

describe("createRedisRateLimitCounter against a stalled Redis", () => {
  let stalled: Awaited<ReturnType<typeof startStalledRedis>>;
  before(async () => {
    stalled = await startStalledRedis();
  });
  after(() => {
    stalled.server.close();
  });

  it("behavior: a stalled hit times out, later hits skip Redis for a pause, counts stay local", async () => {
    const warnings: string[] = [];
    const counter = createRedisRateLimitCounter({
      url: stalled.url,
      commandTimeoutMs: 50,
      pauseAfterFailureMs: 300,
      logger: { warn: (_f, message) => warnings.push(message), info: () => {} },
    });
    try {
      await counter.start?.();
      const started = performance.now();
      assert.deepEqual(await counter.hit("ip:1", 60_000), { count: 1, resetInMs: 60_000 });
      // A timer counts from the event loop's cached time, which lags behind performance.now()
      // when the loop is busy: under load the 50 ms timeout can fire after 40 ms of wall time.
      // Not answering at once is what matters.
      assert.ok(performance.now() - started >= 25, "the first hit waited for the timeout");
      assert.equal(stalled.scripts(), 1);

      const paused = performance.now();
      for (let i = 2; i <= 20; i++) assert.equal((await counter.hit("ip:1", 60_000)).count, i);
      assert.ok(performance.now() - paused < 40, "paused hits do not wait for Redis");
      assert.equal(stalled.scripts(), 1, "no script sent during the pause");
      assert.equal(warnings.length, 1, "one warning per outage");
      assert.equal(
        warnings[0],
        `Redis ${stalled.url.replace("hunter2", "***")} unavailable (no answer within 50 ms; reconnecting); counting rate limits per process until a shared count succeeds`,
      );

      // Passage of time: the 300 ms pause ends.
      await new Promise((resolve) => setTimeout(resolve, 320));
      assert.equal((await counter.hit("ip:1", 60_000)).count, 21);
      assert.equal(stalled.scripts(), 2, "Redis is tried again after the pause");
    } finally {
      await counter.close();
    }
  });
});
