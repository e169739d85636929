/**
 * A PostgreSQL connection that goes silent under a statement with no query bound (the indexer's):
 * behind a stalled proxy or a dropped NAT entry the answer never comes, TCP keepalive is
 * answered by the middlebox, and the indexer used to wait for good. The connection is checked
 * with the server (silent-connection-watch.ts) and dropped when the server is doing nothing for
 * it or cannot be reached; a slow statement, or one waiting on a lock, is left alone.
 * Needs PostgreSQL at DATABASE_URL; fails, never skips, when it is not reachable.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { openDatabase } from "../../src/store/index.js";
import { API_POSTGRES_TIMEOUTS, createPostgresPool } from "../../src/store/postgres/connections.js";
import { uniqueApplicationName } from "../../src/store/postgres/silent-connection-watch.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { eventually } from "../setup/eventually.js";
import { waitUntilBlockedBy } from "../setup/postgres-observers.js";
import { postgresTarget, startTcpProxy, type TcpProxy } from "../setup/tcp-proxy.js";

/** Short bounds so a check happens within a second (production: 30 s and 10 s). */
const TEST_TIMEOUTS = { connectMs: 1000, silenceCheckMs: 400 };

/** `promise`'s outcome, or "hung" after `ms`: a statement nobody drops would wait for good. */
async function within(promise: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const outcome = promise.then(
    (value) => value ?? "done",
    (error: unknown) => error,
  );
  const hung = new Promise((resolve) => {
    timer = setTimeout(() => resolve("hung"), ms);
  });
  try {
    return await Promise.race([outcome, hung]);
  } finally {
    clearTimeout(timer);
  }
}

describe("PostgreSQL connection that goes silent under an unbounded statement", () => {
  let db: IsolatedDatabase;
  before(async () => {
    db = await setupIsolatedDatabase("postgres");
    await (await openDatabase(db.databaseUrl)).close(); // migrated
  });
  after(async () => {
    await db.cleanup();
  });

  async function withProxy(test: (proxy: TcpProxy, url: string) => Promise<void>): Promise<void> {
    const proxy = await startTcpProxy(postgresTarget(db.databaseUrl));
    try {
      await test(proxy, proxy.url(db.databaseUrl));
    } finally {
      proxy.swallow(false);
      await proxy.close();
    }
  }

  async function withProxiedPool(test: (pool: pg.Pool, proxy: TcpProxy) => Promise<void>) {
    await withProxy(async (proxy, url) => {
      const pooled = createPostgresPool({ url, max: 2, timeouts: TEST_TIMEOUTS });
      try {
        await test(pooled.pool, proxy);
      } finally {
        await proxy.close(); // first: ends a statement nothing dropped (the test failed then)
        await pooled.end();
      }
    });
  }

  it("error: the indexer's transaction on a frozen connection fails saying why; the next one works", async () => {
    await withProxy(async (proxy, url) => {
      const store = await openDatabase(url, { timeouts: TEST_TIMEOUTS });
      try {
        const error = await within(
          store.transaction(async (tx) => {
            await tx.indexer.getIndexerStatus();
            proxy.freeze(); // this statement (or the COMMIT) never gets an answer
            await tx.indexer.getIndexerStatus();
          }),
          8000,
        );
        assert.ok(error instanceof Error, `the transaction fails, got ${String(error)}`);
        assert.match(error.message, /database connection went silent/);
        assert.match(error.message, /server shows none running for it \(idle in transaction/);
        const next = await within(
          store.transaction(async (tx) => tx.indexer.getIndexerStatus()),
          8000,
        );
        assert.deepEqual(next, []);
      } finally {
        await proxy.close(); // first: ends a statement nothing dropped (the test failed then)
        await store.close();
      }
    });
  });

  it("error: a pool-level query on a frozen idle connection fails too (pool.query's callback path)", async () => {
    await withProxiedPool(async (pool, proxy) => {
      await pool.query("SELECT 1"); // leaves one idle pooled connection
      proxy.freeze();
      const error = await within(pool.query("SELECT 2"), 8000);
      assert.ok(error instanceof Error, `the query fails, got ${String(error)}`);
      assert.match(error.message, /database connection went silent/);
      assert.equal((await pool.query("SELECT 3 AS n")).rows[0].n, 3);
    });
  });

  it("behavior: the dropped connection's session is ended on the server, releasing its locks", async () => {
    // Dropping our socket ends nothing on the server when the path is what went silent: the
    // session would stay idle in transaction holding its locks (the indexer's advisory lock)
    // until the server's keepalive, two hours by default, and every later batch would wait.
    await withProxiedPool(async (pool, proxy) => {
      const held = await pool.connect();
      await held.query("BEGIN");
      await held.query("SELECT pg_advisory_xact_lock(4242)");
      proxy.freeze();
      const error = await within(held.query("SELECT 1"), 8000);
      held.release(true);
      assert.ok(error instanceof Error, `the statement fails, got ${String(error)}`);
      assert.match(error.message, /its session on the server is ended too/);
      const next = await within(
        pool.query("SELECT pg_advisory_xact_lock(4242) IS NOT NULL AS locked"),
        8000,
      );
      assert.ok(!(next instanceof Error), `the lock is free again, got ${String(next)}`);
      assert.notEqual(next, "hung", "the old session still holds the lock");
    });
  });

  it("error: a server that cannot be reached for the check counts as silent", async () => {
    await withProxiedPool(async (pool, proxy) => {
      await pool.query("SELECT 1");
      proxy.freeze();
      proxy.swallow(true); // the check's own connection gets no answer either
      const error = await within(pool.query("SELECT 2"), 8000);
      assert.ok(error instanceof Error, `the query fails, got ${String(error)}`);
      assert.match(error.message, /the server did not answer a check within 1.0 s/);
    });
  });

  it("behavior: a statement the server is still running is left alone, however long", async () => {
    await withProxiedPool(async (pool) => {
      const result = await within(pool.query("SELECT pg_sleep(1.5) IS NOT NULL AS slept"), 8000);
      assert.deepEqual((result as pg.QueryResult).rows, [{ slept: true }]);
    });
  });

  it("behavior: a statement still being sent (a big batch over a slow link) is left alone", async () => {
    await withProxiedPool(async (pool, proxy) => {
      await pool.query("SELECT 1");
      proxy.holdUploads(true); // the server sees the session idle until the statement arrives
      const big = "x".repeat(32 * 1024 * 1024);
      const sent = within(pool.query("SELECT length($1::text) AS n", [big]), 8000);
      // Passage of time: several silence checks (400 ms) go by, each skipping (nothing to see).
      await new Promise((resolve) => setTimeout(resolve, 1500));
      proxy.holdUploads(false);
      const result = await sent;
      assert.ok(!(result instanceof Error), `the statement succeeds, got ${String(result)}`);
      assert.deepEqual((result as pg.QueryResult).rows, [{ n: big.length }]);
    });
  });

  it("behavior: a statement waiting on another session's lock is left alone", async () => {
    const locker = new pg.Client({ connectionString: db.databaseUrl });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query("LOCK TABLE indexer_chains IN ACCESS EXCLUSIVE MODE");
      await withProxiedPool(async (pool, proxy) => {
        const waiting = within(pool.query("SELECT count(*)::int AS n FROM indexer_chains"), 8000);
        await waitUntilBlockedBy(locker, db.databaseUrl);
        // Three silence checks (each on a connection of its own, through the proxy) let it be.
        let early: unknown;
        void waiting.then((outcome) => {
          early = outcome;
        });
        const before = proxy.accepted();
        await eventually(5000, () => {
          assert.equal(early, undefined, `it ended under the lock: ${String(early)}`);
          assert.ok(proxy.accepted() >= before + 3, `${proxy.accepted() - before} checks`);
        });
        await locker.query("COMMIT");
        const result = await waiting;
        assert.ok(
          !(result instanceof Error),
          `the query waits and succeeds, got ${String(result)}`,
        );
        assert.deepEqual((result as pg.QueryResult).rows, [{ n: 0 }]);
      });
    } finally {
      await locker.end();
    }
  });

  it("behavior: the watched connections show as bridge-oracle in pg_stat_activity", async () => {
    await withProxiedPool(async (pool) => {
      const { rows } = await pool.query(
        "SELECT application_name AS name FROM pg_stat_activity WHERE pid = pg_backend_pid()",
      );
      assert.match(rows[0].name, /^bridge-oracle #[0-9a-f]{8}\.\d+$/);
    });
  });

  it("behavior: the API's pools (with a query bound) are not watched or renamed", async () => {
    await withProxy(async (_proxy, url) => {
      const pooled = createPostgresPool({ url, max: 1, timeouts: API_POSTGRES_TIMEOUTS });
      try {
        const { rows } = await pooled.pool.query(
          "SELECT application_name AS name FROM pg_stat_activity WHERE pid = pg_backend_pid()",
        );
        assert.doesNotMatch(rows[0].name, /#[0-9a-f]{8}\./);
      } finally {
        await pooled.end();
      }
    });
  });
});

describe("uniqueApplicationName", () => {
  it("default: bridge-oracle with a per-connection suffix, unique", () => {
    const a = uniqueApplicationName(undefined);
    const b = uniqueApplicationName(undefined);
    assert.match(a, /^bridge-oracle #[0-9a-f]{8}\.\d+$/);
    assert.notEqual(a, b);
  });

  it("behavior: keeps a configured name, as the server would store it (printable ASCII, 63 bytes)", () => {
    const name = uniqueApplicationName(`wallet-indexer-é-${"x".repeat(80)}`);
    assert.ok(name.startsWith("wallet-indexer-?-xxx"), name);
    assert.equal(name.length, 63);
    assert.match(name, / #[0-9a-f]{8}\.\d+$/);
  });
});
