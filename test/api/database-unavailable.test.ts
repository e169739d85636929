/**
 * A database that cannot be reached makes the list endpoint answer 503 50301 with Retry-After
 * (README "Errors"), not 500, and the endpoint recovers by itself when the database is back.
 * PostgreSQL is reached through a TCP proxy that the test takes down and brings back, or that
 * silences connections (a NAT that dropped them, a host that accepts and never answers): the
 * store's timeouts turn those into the same 503, naming the read replica when it is at fault.
 * The classifier is checked against errors the real drivers raise.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { createStore } from "../../src/store/index.js";
import {
  isStoreUnavailable,
  NoAnswerError,
  ReadReplicaError,
  readReplicaFailure,
} from "../../src/store/store-unavailable.js";
import {
  type IsolatedDatabase,
  postgresTestUrl,
  setupIsolatedDatabase,
} from "../setup/database.js";
import { eventually, within } from "../setup/eventually.js";
import { freePort } from "../setup/free-port.js";
import { postgresTarget, startTcpProxy } from "../setup/tcp-proxy.js";
import { makeTransfer } from "../setup/transfer-fixtures.js";
import { buildTestApp } from "./setup.js";

const PATH = "/api/oracle/bridge-transactions";

describe("list endpoint with the database unreachable", () => {
  it("error: PostgreSQL gone is 503 50301 with Retry-After; back again, answers resume", async () => {
    const db = await setupIsolatedDatabase("postgres");
    const proxy = await startTcpProxy(postgresTarget(db.databaseUrl));
    const store = await createStore({ databaseUrl: proxy.url(db.databaseUrl) });
    const record = makeTransfer({});
    await store.transfers.upsertTransfers([record]);
    const { app, logs } = await buildTestApp(store, { logLevel: "warn" });
    const get = (value: string) =>
      app.inject({
        method: "GET",
        url: PATH,
        query: { addressOrTxHash: value, pageNo: "1", pageSize: "10" },
      });
    try {
      const before = await get(record.from_address);
      assert.equal(before.statusCode, 200);
      assert.equal(before.json().data.total, 1);

      await proxy.down();
      const during = await get(record.source_tx_hash);
      assert.equal(during.statusCode, 503);
      assert.deepEqual(during.json(), {
        code: 50301,
        msg: "the database is unreachable; retry shortly",
        data: null,
      });
      assert.equal(during.headers["retry-after"], "1");
      assert.doesNotMatch(during.body, /ECONNREFUSED|127\.0\.0\.1|postgres/);
      assert.ok(
        logs.some((line) => Number(line.level) >= 50 && JSON.stringify(line).includes("50301")),
        "the outage is logged at error level with its code",
      );

      await proxy.up();
      const afterwards = await get(record.dest_tx_hash);
      assert.equal(afterwards.statusCode, 200);
      assert.equal(afterwards.json().data.total, 1);
    } finally {
      await app.close();
      await store.close();
      await proxy.down();
      await db.cleanup();
    }
  });
});

/** Short bounds, so a test sees in a second what the API's defaults (3 s / 5 s) do. */
const SHORT_TIMEOUTS = { connectMs: 500, queryMs: 500 };

function listRequest(app: FastifyInstance, value: string) {
  return app.inject({
    method: "GET",
    url: PATH,
    query: { addressOrTxHash: value, pageNo: "1", pageSize: "10" },
  });
}

describe("list endpoint with a database or read replica that never answers", () => {
  it("error: a connection the network silently dropped is 503 50301 within the query timeout; answers resume on a new one", async () => {
    const db = await setupIsolatedDatabase("postgres");
    const proxy = await startTcpProxy(postgresTarget(db.databaseUrl));
    const store = await createStore({
      databaseUrl: proxy.url(db.databaseUrl),
      timeouts: SHORT_TIMEOUTS,
    });
    const record = makeTransfer({});
    await store.transfers.upsertTransfers([record]);
    const { app } = await buildTestApp(store, { logLevel: "silent" });
    try {
      assert.equal((await listRequest(app, record.from_address)).statusCode, 200);

      proxy.freeze(); // the pool's open connections; new ones pass
      const during = await within(
        3000,
        "a list request on a silent connection",
        listRequest(app, record.source_tx_hash),
      );
      assert.equal(during.statusCode, 503);
      assert.deepEqual(during.json(), {
        code: 50301,
        msg: "the database is unreachable; retry shortly",
        data: null,
      });
      assert.equal(during.headers["retry-after"], "1");

      // The silent connection was discarded; any other idle one goes the same way.
      await eventually(5000, async () => {
        const response = await listRequest(app, record.dest_tx_hash);
        assert.equal(response.statusCode, 200, response.body);
      });
    } finally {
      await proxy.close(); // first: a request still waiting must not hold the store's close
      await app.close();
      await store.close();
      await db.cleanup();
    }
  });

  it("error: a read replica that refuses, never answers or lacks the schema is 503 50301 naming it, with Retry-After", async () => {
    const primary = await setupIsolatedDatabase("postgres");
    const empty = await setupIsolatedDatabase("postgres");
    const silent = await startTcpProxy(postgresTarget(primary.databaseUrl));
    silent.swallow(true);
    const unreachable = "the read replica (DATABASE_READ_URL) is unreachable; retry shortly";
    const cases: [string, string, string][] = [
      ["refusing", `postgres://postgres:secret@127.0.0.1:${await freePort()}/test`, unreachable],
      ["never answering", silent.url(primary.databaseUrl), unreachable],
      [
        "without the schema",
        empty.databaseUrl,
        "the read replica (DATABASE_READ_URL) is not migrated yet; retry shortly",
      ],
    ];
    try {
      for (const [label, readDatabaseUrl, msg] of cases) {
        const store = await createStore({
          databaseUrl: primary.databaseUrl,
          readDatabaseUrl,
          timeouts: SHORT_TIMEOUTS,
        });
        const { app } = await buildTestApp(store, { logLevel: "silent" });
        try {
          const response = await within(
            3000,
            `a list request with a read replica ${label}`,
            listRequest(app, makeTransfer({}).source_tx_hash),
          );
          assert.equal(response.statusCode, 503, `${label}: ${response.body}`);
          assert.deepEqual(response.json(), { code: 50301, msg, data: null }, label);
          assert.equal(response.headers["retry-after"], "1", label);
          assert.doesNotMatch(response.body, /secret|127\.0\.0\.1|relation/);
        } finally {
          await app.close();
          await within(5000, "closing the store", store.close());
        }
      }
    } finally {
      await silent.close();
      await primary.cleanup();
      await empty.cleanup();
    }
  });
});

describe("isStoreUnavailable", () => {
  let sqlite: IsolatedDatabase;
  before(async () => {
    sqlite = await setupIsolatedDatabase("sqlite");
  });
  after(async () => {
    await sqlite.cleanup();
  });

  it("behavior: a refused PostgreSQL connection is unavailable; a SQL error is not", async () => {
    const refused = new pg.Client({ host: "127.0.0.1", port: await freePort(), user: "postgres" });
    const connectError = await refused.connect().then(
      () => assert.fail("connected to a closed port"),
      (error: unknown) => error,
    );
    assert.equal(isStoreUnavailable(connectError), true);

    const client = new pg.Client({ connectionString: postgresTestUrl() });
    await client.connect();
    try {
      const syntaxError = await client.query("SELEC 1").then(
        () => assert.fail("bad SQL ran"),
        (error: unknown) => error,
      );
      assert.equal(isStoreUnavailable(syntaxError), false);
      // What a server shutdown does to a session: 57P01 admin_shutdown.
      const victim = new pg.Client({ connectionString: postgresTestUrl() });
      await victim.connect();
      victim.on("error", () => {});
      const pid = (await victim.query("SELECT pg_backend_pid() AS pid")).rows[0].pid as number;
      const killed = victim.query("SELECT pg_sleep(10)").then(
        () => assert.fail("the session survived"),
        (error: unknown) => error,
      );
      await client.query("SELECT pg_terminate_backend($1)", [pid]);
      assert.equal(isStoreUnavailable(await killed), true);
      await victim.end().catch(() => {});
    } finally {
      await client.end();
    }
  });

  it("behavior: pg's connect and query timeouts are unavailable", async () => {
    const silent = await startTcpProxy(postgresTarget(postgresTestUrl()));
    silent.swallow(true);
    const pool = new pg.Pool({
      connectionString: silent.url(postgresTestUrl()),
      connectionTimeoutMillis: 100,
    });
    const slow = new pg.Client({ connectionString: postgresTestUrl(), query_timeout: 100 });
    try {
      const connectError = await pool.query("SELECT 1").then(
        () => assert.fail("a silent server answered"),
        (error: unknown) => error,
      );
      assert.equal(isStoreUnavailable(connectError), true, String(connectError));
      await slow.connect();
      const queryError = await slow.query("SELECT pg_sleep(2)").then(
        () => assert.fail("no query timeout"),
        (error: unknown) => error,
      );
      assert.match(String(queryError), /Query read timeout/);
      assert.equal(isStoreUnavailable(queryError), true);
    } finally {
      await slow.end().catch(() => {});
      await pool.end();
      await silent.close();
    }
  });

  it("behavior: a read replica that is unreachable or lacks the schema is unavailable; one failing otherwise is not", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
      code: "ECONNREFUSED",
    });
    const noTable = Object.assign(new Error('relation "transfers" does not exist'), {
      code: "42P01",
    });
    const denied = Object.assign(new Error("permission denied for table transfers"), {
      code: "42501",
    });
    assert.equal(isStoreUnavailable(noTable), false, "on the primary a missing table is a bug");
    const unreachable = readReplicaFailure(refused);
    assert.ok(
      unreachable instanceof ReadReplicaError && unreachable.problem === "unreachable",
      'unreachable instanceof ReadReplicaError && unreachable.problem === "unreachable"',
    );
    const behind = readReplicaFailure(noTable);
    assert.ok(
      behind instanceof ReadReplicaError && behind.problem === "not migrated",
      'behind instanceof ReadReplicaError && behind.problem === "not migrated"',
    );
    assert.equal(isStoreUnavailable(unreachable), true);
    assert.equal(isStoreUnavailable(behind), true);
    assert.equal(readReplicaFailure(denied), denied, "any other failure stays as it is (500)");
    assert.equal(
      isStoreUnavailable(new ReadReplicaError("failing", "x", { cause: denied })),
      false,
    );
    assert.equal(isStoreUnavailable(new NoAnswerError("the database", 100)), true);
  });

  it("behavior: a locked SQLite database is unavailable; a SQL error is not", () => {
    const file = sqlite.databaseUrl;
    const holder = new Database(file);
    const other = new Database(file, { timeout: 0 });
    try {
      holder.exec("CREATE TABLE t (x)");
      holder.exec("BEGIN EXCLUSIVE");
      const busy = captured(() => other.prepare("SELECT * FROM t").all());
      assert.equal((busy as { code?: string }).code, "SQLITE_BUSY");
      assert.equal(isStoreUnavailable(busy), true);
      assert.equal(isStoreUnavailable(captured(() => other.prepare("SELEC 1"))), false);
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
      other.close();
    }
  });

  it("behavior: causes and aggregated errors are followed; anything else is not unavailable", () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
      code: "ECONNREFUSED",
    });
    assert.equal(isStoreUnavailable(new AggregateError([new Error("x"), refused])), true);
    assert.equal(isStoreUnavailable(new Error("wrapped", { cause: refused })), true);
    assert.equal(isStoreUnavailable(new Error("boom")), false);
    assert.equal(isStoreUnavailable(new TypeError("x is not a function")), false);
    assert.equal(isStoreUnavailable("ECONNREFUSED"), false);
    assert.equal(isStoreUnavailable(null), false);
  });
});

function captured(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return assert.fail("expected an error");
}
