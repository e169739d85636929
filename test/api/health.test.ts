import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { ApiError } from "../../src/errors.js";
import { createStore } from "../../src/store/index.js";
import { setupIsolatedDatabase } from "../setup/database.js";
import { postgresTarget, startTcpProxy } from "../setup/tcp-proxy.js";
import { createFakeStore } from "./fake-store.js";
import { buildTestApp, setupApi } from "./setup.js";

describe("GET /healthz and /readyz", () => {
  it("default: healthz answers ok", async () => {
    const { app } = await buildTestApp(createFakeStore());
    try {
      const response = await app.inject({ method: "GET", url: "/healthz" });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), { code: 0, msg: "success", data: { status: "ok" } });
    } finally {
      await app.close();
    }
  });

  it("default: readyz answers ok when a real SQLite store answers", async () => {
    const harness = await setupApi("sqlite", []);
    try {
      const response = await harness.app.inject({ method: "GET", url: "/readyz" });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), {
        code: 0,
        msg: "success",
        data: { status: "ok", database: "ok" },
      });
    } finally {
      await harness.close();
    }
  });

  it("error: readyz is 503 when the SQLite file was deleted or replaced under the process", async () => {
    // Regression: the process kept using the deleted file and answered ready; what it wrote
    // from then on was gone at the next start.
    const db = await setupIsolatedDatabase("sqlite");
    const store = await createStore({ databaseUrl: db.databaseUrl });
    const { app } = await buildTestApp(store, { logLevel: "silent" });
    try {
      assert.equal((await app.inject({ url: "/readyz" })).statusCode, 200);
      await rm(db.databaseUrl);
      const gone = await app.inject({ url: "/readyz" });
      assert.equal(gone.statusCode, 503);
      assert.deepEqual(gone.json(), {
        code: 50301,
        msg: "not ready: the SQLite database file (DATABASE_URL) was deleted or replaced after this process opened it; restart it",
        data: null,
      });
      await writeFile(db.databaseUrl, ""); // another file at the same path
      assert.equal((await app.inject({ url: "/readyz" })).statusCode, 503);
    } finally {
      await app.close();
      await store.close();
      await db.cleanup();
    }
  });

  it("error: readyz is 503 50301 when the database is unreachable; healthz stays 200", async () => {
    const store = createFakeStore({
      ping: async () => {
        throw new Error("connect ECONNREFUSED 10.0.0.5:5432 password=hunter2");
      },
    });
    const { app, logs } = await buildTestApp(store);
    try {
      const response = await app.inject({ method: "GET", url: "/readyz" });
      assert.equal(response.statusCode, 503);
      assert.deepEqual(response.json(), {
        code: 50301,
        msg: "not ready: the database is unreachable",
        data: null,
      });
      assert.doesNotMatch(response.body, /ECONNREFUSED|hunter2/);
      const errorLines = logs.filter((l) => Number(l.level) >= 50);
      assert.equal(errorLines.length, 1);
      assert.match(JSON.stringify(errorLines[0]), /ECONNREFUSED/);
      // One line per probe, without a stack trace (probes come every few seconds).
      assert.doesNotMatch(JSON.stringify(errorLines[0]), /\\n\s+at /);
      assert.equal((await app.inject({ method: "GET", url: "/healthz" })).statusCode, 200);
    } finally {
      await app.close();
    }
  });

  it("error: readyz is 503 when the database does not answer in time", async () => {
    const store = createFakeStore({ ping: () => new Promise(() => {}) });
    const { app } = await buildTestApp(store, { readinessTimeoutMs: 50 });
    try {
      const response = await app.inject({ method: "GET", url: "/readyz" });
      assert.equal(response.statusCode, 503);
      assert.match((response.json() as { msg: string }).msg, /database is unreachable.*50 ms/);
    } finally {
      await app.close();
    }
  });

  it("behavior: extra readiness checks add their data, or make readyz fail with their message", async () => {
    const router = [
      { chainId: 71001, name: "devnet-a", blockNumber: "122", ageMs: 180, fresh: true },
      { chainId: 71002, name: "devnet-b", blockNumber: null, ageMs: null, fresh: false },
    ];
    const ok = await buildTestApp(createFakeStore(), {
      readinessChecks: [
        { name: "router", check: async () => router },
        // The indexer's check reports nothing while no indexer has written chain rows.
        { name: "indexer", check: async () => undefined },
      ],
    });
    try {
      const response = await ok.app.inject({ method: "GET", url: "/readyz" });
      assert.deepEqual(response.json(), {
        code: 0,
        msg: "success",
        data: { status: "ok", database: "ok", router },
      });
    } finally {
      await ok.app.close();
    }
    const failing = await buildTestApp(createFakeStore(), {
      readinessChecks: [
        {
          name: "router",
          check: async () => {
            throw new ApiError("serviceUnavailable", "not ready: devnet-a lags 900 blocks");
          },
        },
        {
          name: "indexer",
          check: async () => {
            throw new Error("internal detail");
          },
        },
      ],
    });
    try {
      const response = await failing.app.inject({ method: "GET", url: "/readyz" });
      assert.equal(response.statusCode, 503);
      assert.equal((response.json() as { code: number }).code, 50301);
      assert.match(response.body, /not ready: (devnet-a lags 900 blocks|indexer is not ready)/);
      assert.doesNotMatch(response.body, /internal detail/);
    } finally {
      await failing.app.close();
    }
  });

  it("error: a readiness check whose key /readyz's schema does not declare is refused at build", async () => {
    // The serialiser writes only declared keys: such a check's report would vanish silently.
    const check = async () => [{ chain: "devnet-a", lag: 2 }];
    for (const [checks, message] of [
      [
        [{ name: "chains", check }],
        /readiness check "chains" has no property in \/readyz's schema/,
      ],
      [[{ name: "database", check }], /readiness check "database" is given twice/],
      [
        [
          { name: "router", check },
          { name: "router", check },
        ],
        /readiness check "router" is given twice/,
      ],
    ] as const) {
      await assert.rejects(
        buildTestApp(createFakeStore(), { logLevel: "silent", readinessChecks: checks }),
        message,
      );
    }
  });

  it("error: readyz is 503 when the read replica is unreachable or lacks the schema; 200 when it serves", async () => {
    const primary = await setupIsolatedDatabase("postgres");
    const empty = await setupIsolatedDatabase("postgres");
    // The same schema under another URL string: a separate read pool, as a real replica has.
    const sameData = new URL(primary.databaseUrl);
    sameData.searchParams.set("application_name", "replica");
    const unreachable = "postgres://postgres:secret@127.0.0.1:1/test";
    const cases: [string, string, number, string][] = [
      ["serving", sameData.toString(), 200, "success"],
      [
        "unreachable",
        unreachable,
        503,
        "not ready: the read replica (DATABASE_READ_URL) is unreachable or not migrated",
      ],
      [
        "no schema",
        empty.databaseUrl,
        503,
        "not ready: the read replica (DATABASE_READ_URL) is unreachable or not migrated",
      ],
    ];
    try {
      for (const [label, readDatabaseUrl, status, msg] of cases) {
        const store = await createStore({ databaseUrl: primary.databaseUrl, readDatabaseUrl });
        const { app } = await buildTestApp(store, { logLevel: "silent" });
        try {
          const response = await app.inject({ method: "GET", url: "/readyz" });
          assert.equal(response.statusCode, status, `${label}: ${response.body}`);
          assert.equal((response.json() as { msg: string }).msg, msg, label);
          assert.doesNotMatch(response.body, /secret|127\.0\.0\.1/);
        } finally {
          await app.close();
          await store.close();
        }
      }
    } finally {
      await primary.cleanup();
      await empty.cleanup();
    }
  });
  it("error: readyz names the read replica when it is the one giving no answer, and the database when the primary is", async () => {
    const primary = await setupIsolatedDatabase("postgres");
    const proxy = await startTcpProxy(postgresTarget(primary.databaseUrl));
    const timeouts = { connectMs: 5000, queryMs: 5000 }; // longer than the probe's 300 ms
    try {
      // A replica that accepts connections and never answers; the primary answers.
      proxy.swallow(true);
      const replicated = await createStore({
        databaseUrl: primary.databaseUrl,
        readDatabaseUrl: proxy.url(primary.databaseUrl),
        timeouts,
      });
      const withReplica = await buildTestApp(replicated, {
        logLevel: "silent",
        readinessTimeoutMs: 300,
      });
      try {
        const response = await withReplica.app.inject({ method: "GET", url: "/readyz" });
        assert.equal(response.statusCode, 503);
        assert.equal(
          (response.json() as { msg: string }).msg,
          "not ready: the read replica (DATABASE_READ_URL) is unreachable (no answer within 300 ms)",
        );
      } finally {
        await withReplica.app.close();
        await proxy.close(); // lets the replica's pending connects fail
        await replicated.close();
      }

      // The primary itself behind a connection gone silent: the database is named.
      await proxy.up();
      proxy.swallow(false);
      const direct = await createStore({ databaseUrl: proxy.url(primary.databaseUrl), timeouts });
      const alone = await buildTestApp(direct, { logLevel: "silent", readinessTimeoutMs: 300 });
      try {
        assert.equal((await alone.app.inject({ method: "GET", url: "/readyz" })).statusCode, 200);
        proxy.freeze();
        const response = await alone.app.inject({ method: "GET", url: "/readyz" });
        assert.equal(response.statusCode, 503);
        assert.equal(
          (response.json() as { msg: string }).msg,
          "not ready: the database is unreachable (no answer within 300 ms)",
        );
      } finally {
        await alone.app.close();
        await proxy.close();
        await direct.close();
      }
    } finally {
      await proxy.close();
      await primary.cleanup();
    }
  });

  it("behavior: /readyz/router is 200 with the router's chains while it can quote, 503 otherwise", async () => {
    const router = [
      { chainId: 71001, name: "devnet-a", blockNumber: "122", ageMs: 180, fresh: true },
    ];
    let stale = false;
    const quoting = await buildTestApp(createFakeStore(), {
      readinessChecks: [
        {
          name: "router",
          check: async () => {
            if (stale)
              throw new ApiError("serviceUnavailable", "not ready: devnet-a read 20 s ago");
            return router;
          },
        },
      ],
    });
    try {
      const ready = await quoting.app.inject({ method: "GET", url: "/readyz/router" });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json(), { code: 0, msg: "success", data: { status: "ok", router } });
      stale = true;
      const notReady = await quoting.app.inject({ method: "GET", url: "/readyz/router" });
      assert.equal(notReady.statusCode, 503);
      assert.equal(notReady.json().msg, "not ready: devnet-a read 20 s ago");
    } finally {
      await quoting.app.close();
    }
    // No router registry: /readyz is ready (lists work), quotes' probe is not.
    const listOnly = await buildTestApp(createFakeStore());
    try {
      assert.equal((await listOnly.app.inject({ url: "/readyz" })).statusCode, 200);
      const response = await listOnly.app.inject({ url: "/readyz/router" });
      assert.equal(response.statusCode, 503);
      assert.deepEqual(response.json(), {
        code: 50301,
        msg: "not ready to quote: no chains configured for routing on this process (set ROUTER_CONFIG)",
        data: null,
      });
    } finally {
      await listOnly.app.close();
    }
  });
});
