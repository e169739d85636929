/**
 * Listening for real: graceful close (in-flight requests finish, new connections are refused)
 * and the `serve` command (config errors, start, SIGTERM -> exit code 0, store closed; a
 * PostgreSQL that never answers fails the start, or a request, within its timeouts).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startServer } from "../../src/api/server.js";
import { run } from "../../src/cli/serve.js";
import { loadConfig } from "../../src/config/env.js";
import type { ListTransfersResult } from "../../src/store/types.js";
import { captureStderr } from "../setup/capture-stderr.js";
import { setupIsolatedDatabase } from "../setup/database.js";
import { eventually, waitForValue, within } from "../setup/eventually.js";
import { freePort } from "../setup/free-port.js";
import { postgresTarget, startTcpProxy } from "../setup/tcp-proxy.js";
import { createFakeStore } from "./fake-store.js";

const LIST = "/api/oracle/bridge-transactions?addressOrTxHash=abc&pageNo=1&pageSize=5";

/** A server whose list requests wait until `release` answers them. */
async function serverWithHeldList() {
  let answer: (result: ListTransfersResult) => void = () => {};
  const store = createFakeStore({
    listTransfers: () =>
      new Promise<ListTransfersResult>((resolve) => {
        answer = resolve;
      }),
  });
  const server = await startServer({
    config: loadConfig({ LOG_LEVEL: "silent" }),
    store,
    port: 0,
  });
  return { store, server, release: (result: ListTransfersResult) => answer(result) };
}

describe("startServer", () => {
  it("behavior: close lets an in-flight request finish, then refuses connections", async () => {
    const { store, server, release } = await serverWithHeldList();
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const inFlight = fetch(`${server.url}${LIST}`);
    await waitForValue(async () => (store.calls.length === 1 ? true : undefined));
    const closed = server.close();
    release({ total: 0, items: [] });
    const response = await inFlight;
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), {
      code: 0,
      msg: "success",
      data: { data: [], total: 0, page: { page: 1, pageSize: 5 } },
    });
    await closed;
    await assert.rejects(fetch(`${server.url}/healthz`));
  });

  it("behavior: a kept-alive connection whose request is answered after close began is closed then, not when the client drops it", async () => {
    const { store, server, release } = await serverWithHeldList();
    const inFlight = fetch(`${server.url}${LIST}`); // fetch keeps connections alive
    await waitForValue(async () => (store.calls.length === 1 ? true : undefined));
    const closed = server.close();
    // Close is under way once the server no longer listens.
    await eventually(2000, () => assert.equal(server.app.server.listening, false));
    release({ total: 0, items: [] });
    const response = await inFlight;
    assert.equal(response.status, 200);
    await response.text();
    await within(2000, "close after the last answer", closed);
  });
});

describe("bridge-oracle serve", () => {
  it("error: a bad setting prints the rule and exits 1", async () => {
    const { value, stderr } = await captureStderr(() => run([], { env: { PORT: "abc" } }));
    assert.equal(value, 1);
    assert.match(stderr, /PORT must be an integer from 1 to 65535, got 'abc'/);
  });

  it("error: unexpected arguments exit 1", async () => {
    const { value, stderr } = await captureStderr(() => run(["--port", "1"]));
    assert.equal(value, 1);
    assert.match(stderr, /serve takes no arguments/);
  });

  it("default: serves on SQLite with rate limits and exits 0 on SIGTERM after closing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-serve-"));
    try {
      const port = await freePort();
      const env = {
        PORT: String(port),
        DATABASE_URL: join(dir, "db.sqlite"),
        // An empty devnet dir: a developer's running devnet must not add a router to /readyz.
        DEVNET_DIR: dir,
        LOG_LEVEL: "silent",
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: "1",
      };
      const exitCode = run([], { env });
      let stopped = false;
      try {
        const body = await waitForValue(async () => {
          const response = await fetch(`http://127.0.0.1:${port}/readyz`);
          return response.status === 200 ? await response.json() : undefined;
        });
        assert.deepEqual(body, { code: 0, msg: "success", data: { status: "ok", database: "ok" } });
        // Rate limits are wired (probes are exempt, so polling /readyz used none of the budget).
        const list = await fetch(`http://127.0.0.1:${port}${LIST}`);
        assert.equal(list.status, 200);
        assert.equal(list.headers.get("x-ratelimit-limit"), "1");
        const limited = await fetch(`http://127.0.0.1:${port}${LIST}`);
        assert.equal(limited.status, 429);
        assert.equal(((await limited.json()) as { code: number }).code, 42901);
        assert.ok(limited.headers.get("retry-after"), 'limited.headers.get("retry-after")');
        process.kill(process.pid, "SIGTERM");
        stopped = true;
        assert.equal(await exitCode, 0);
        await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`));
        assert.equal(process.listenerCount("SIGTERM"), 0, "signal handlers removed");
      } finally {
        // A failed assertion above must not leave the server running and the test hanging.
        if (!stopped) {
          process.kill(process.pid, "SIGTERM");
          await exitCode;
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("error: a port in use exits 1 with the reason", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-serve-"));
    try {
      const address = blocker.address();
      assert.ok(
        typeof address === "object" && address !== null,
        'typeof address === "object" && address !== null',
      );
      const { value, stderr } = await captureStderr(() =>
        run([], {
          env: {
            PORT: String(address.port),
            DATABASE_URL: join(dir, "db.sqlite"),
            LOG_LEVEL: "silent",
          },
          stopSignal: new Promise(() => {}),
        }),
      );
      assert.equal(value, 1);
      assert.match(stderr, /cannot listen on 127\.0\.0\.1:\d+ \(HOST, PORT\): .*EADDRINUSE/);
      // Refused before anything is created (it used to leave a new, empty database behind).
      assert.equal(existsSync(join(dir, "db.sqlite")), false);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
      await rm(dir, { recursive: true, force: true });
    }
  });
  it("error: a DATABASE_URL that accepts and never answers stops serve within the connect timeout, naming the database", async () => {
    const db = await setupIsolatedDatabase("postgres");
    const proxy = await startTcpProxy(postgresTarget(db.databaseUrl));
    proxy.swallow(true);
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-serve-"));
    const port = await freePort();
    try {
      const { value, stderr } = await captureStderr(() =>
        within(
          5000,
          "serve starting on a silent database",
          run([], {
            env: {
              PORT: String(port),
              DATABASE_URL: proxy.url(db.databaseUrl),
              DEVNET_DIR: dir,
              LOG_LEVEL: "silent",
            },
            stopSignal: new Promise(() => {}),
            databaseTimeouts: { connectMs: 500, queryMs: 500 },
          }),
        ),
      );
      assert.equal(value, 1);
      assert.match(
        stderr,
        /^cannot open the database postgres:\/\/postgres@127\.0\.0\.1:\d+\/.*no answer within 500 ms while connecting/,
      );
    } finally {
      await proxy.close();
      await rm(dir, { recursive: true, force: true });
      await db.cleanup();
    }
  });

  it("behavior: SIGTERM while a list request waits on a silent connection: it gets a 503, serve exits 0 and closes every database connection", async () => {
    const inFlightAddress = "in-flight-at-the-stop"; // the request's address, seen in its query
    const db = await setupIsolatedDatabase("postgres");
    const proxy = await startTcpProxy(postgresTarget(db.databaseUrl));
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-serve-"));
    let stop: (signal: string) => void = () => {};
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const exitCode = run([], {
      env: {
        PORT: String(port),
        DATABASE_URL: proxy.url(db.databaseUrl),
        DEVNET_DIR: dir,
        LOG_LEVEL: "silent",
      },
      stopSignal: new Promise((resolve) => {
        stop = resolve;
      }),
      databaseTimeouts: { connectMs: 500, queryMs: 1000 },
    });
    try {
      await waitForValue(async () => ((await fetch(`${base}/readyz`)).ok ? true : undefined));
      assert.equal((await fetch(`${base}${LIST}`)).status, 200);

      proxy.freeze(); // every database connection serve has open, the listeners' too
      const inFlight = fetch(
        `${base}/api/oracle/bridge-transactions?addressOrTxHash=${inFlightAddress}&pageNo=1&pageSize=5`,
      );
      // The stop comes once the request's query went into a frozen connection.
      await eventually(5000, () =>
        assert.ok(proxy.swallowedText().includes(inFlightAddress), "no query sent yet"),
      );
      stop("SIGTERM");
      const response = await within(5000, "the in-flight request", inFlight);
      assert.equal(response.status, 503);
      assert.equal(((await response.json()) as { code: number }).code, 50301);
      assert.equal(await within(8000, "serve shutting down", exitCode), 0);
      await eventually(2000, () => assert.equal(proxy.openConnections(), 0));
    } finally {
      stop("SIGTERM");
      await proxy.close(); // a serve still waiting on its connections gets to finish
      await exitCode;
      await rm(dir, { recursive: true, force: true });
      await db.cleanup();
    }
  });
});
