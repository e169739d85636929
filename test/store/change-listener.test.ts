/**
 * PostgreSQL's Store.changeCounter (src/store/postgres/change-listener.ts): it moves on commits
 * by any connection (NOTIFY from the transfers trigger), is undefined while it cannot hear them
 * (so nothing is cached), recovers from a killed connection, and is absent with a read replica.
 * Its listening connection proves itself alive with a heartbeat, so one a network silently
 * dropped counts as lost too.
 */
import assert from "node:assert/strict";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import pg from "pg";
import { createStore } from "../../src/store/index.js";
import {
  type ChangeListener,
  createChangeListener,
} from "../../src/store/postgres/change-listener.js";
import type { Store } from "../../src/store/types.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { eventually, within } from "../setup/eventually.js";
import { postgresTarget, startTcpProxy, type TcpProxy } from "../setup/tcp-proxy.js";
import { makeTransfer } from "../setup/transfer-fixtures.js";

describe("PostgreSQL change counter", () => {
  let db: IsolatedDatabase;
  let store: Store;
  before(async () => {
    db = await setupIsolatedDatabase("postgres");
    store = await createStore({ databaseUrl: db.databaseUrl });
  });
  after(async () => {
    await store.close();
    await db.cleanup();
  });

  it("behavior: undefined until listening, then moves on another connection's commit", async () => {
    assert.equal(store.changeCounter?.(), undefined, "the first call only starts listening");
    await eventually(3000, () => assert.notEqual(store.changeCounter?.(), undefined));
    const before = store.changeCounter?.() as number;
    const client = new pg.Client({ connectionString: db.databaseUrl });
    await client.connect();
    try {
      await client.query("UPDATE transfers SET status = status WHERE false");
    } finally {
      await client.end();
    }
    await eventually(2000, () =>
      assert.ok((store.changeCounter?.() as number) > before, "the counter has not moved"),
    );
  });

  it("behavior: a commit through the store itself moves it at once", async () => {
    await eventually(3000, () => assert.notEqual(store.changeCounter?.(), undefined));
    const before = store.changeCounter?.() as number;
    await store.transfers.upsertTransfers([makeTransfer()]);
    assert.ok(
      (store.changeCounter?.() as number) > before,
      "(store.changeCounter?.() as number) > before",
    );
  });

  it("error: a killed listener connection turns caching off, then comes back and moves the counter", async () => {
    await eventually(3000, () => assert.notEqual(store.changeCounter?.(), undefined));
    const before = store.changeCounter?.() as number;
    const admin = new pg.Client({ connectionString: db.databaseUrl });
    await admin.connect();
    try {
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN bridge_oracle_transfers' AND pid <> pg_backend_pid()",
      );
      assert.ok(
        killed.rowCount !== null && killed.rowCount >= 1,
        "killed.rowCount !== null && killed.rowCount >= 1",
      );
    } finally {
      await admin.end();
    }
    await eventually(3000, () => assert.equal(store.changeCounter?.(), undefined));
    await eventually(5000, () => {
      const now = store.changeCounter?.();
      assert.ok(now !== undefined && now > before, `counter ${now} after ${before}`);
    });
  });

  it("boundary: with a read replica there is no counter (a refill could read old data)", async () => {
    const replicated = await createStore({
      databaseUrl: db.databaseUrl,
      readDatabaseUrl: db.databaseUrl,
    });
    try {
      assert.equal(replicated.changeCounter, undefined);
    } finally {
      await replicated.close();
    }
  });
});

/**
 * The listener through a TCP proxy that fails as networks do: a connection a NAT silently
 * dropped (open, nothing gets through) must count as lost, within the heartbeat, exactly like a
 * killed one; a server that accepts and never answers must not hold the listener for ever.
 */
describe("PostgreSQL change listener on a failing network", () => {
  let db: IsolatedDatabase;
  let proxy: TcpProxy;
  let opened: ChangeListener[] = [];
  before(async () => {
    db = await setupIsolatedDatabase("postgres");
    await (await createStore({ databaseUrl: db.databaseUrl })).close(); // migrated: the trigger
  });
  after(async () => {
    await db.cleanup();
  });
  beforeEach(async () => {
    proxy = await startTcpProxy(postgresTarget(db.databaseUrl));
  });
  afterEach(async () => {
    await proxy.close(); // first: a close still waiting on a frozen connection returns
    await Promise.all(opened.map((listener) => listener.close()));
    opened = [];
  });

  /** A listener through the proxy with short timings, and the warnings it logs. */
  function listen(connectTimeoutMs = 1000) {
    const warnings: string[] = [];
    const listener = createChangeListener({
      databaseUrl: proxy.url(db.databaseUrl),
      logger: { info: () => {}, warn: (_fields, message) => warnings.push(message) },
      retryMs: 50,
      connectTimeoutMs,
      heartbeatIntervalMs: 100,
      heartbeatTimeoutMs: 200,
    });
    opened.push(listener);
    return { listener, warnings };
  }

  /** A commit on another connection, straight to the database (the trigger notifies). */
  async function commitElsewhere(): Promise<void> {
    const client = new pg.Client({ connectionString: db.databaseUrl });
    await client.connect();
    try {
      await client.query("UPDATE transfers SET status = status WHERE false");
    } finally {
      await client.end();
    }
  }

  it("error: a silently dropped connection turns caching off within the heartbeat, warns once, then listens again", async () => {
    const { listener, warnings } = listen();
    listener.counter();
    await eventually(3000, () => assert.notEqual(listener.counter(), undefined));
    const before = listener.counter() as number;

    proxy.freeze();
    await commitElsewhere(); // never delivered on the frozen connection
    const frozenAt = performance.now();
    await eventually(2000, () => assert.equal(listener.counter(), undefined));
    // Heartbeat every 100 ms, 200 ms to answer: well under a second (scheduling slack).
    const deafAfter = performance.now() - frozenAt;
    assert.ok(deafAfter < 1000, `still counting ${Math.round(deafAfter)} ms after the freeze`);

    // A new connection gets through: listening again, and the counter moved (the missed commit).
    await eventually(3000, () => {
      const now = listener.counter();
      assert.ok(now !== undefined && now > before, `counter ${now} after ${before}`);
    });
    assert.equal(warnings.length, 1, warnings.join("; "));
    assert.match(warnings[0] as string, /lost the change notifications/);
    const again = listener.counter() as number;
    await commitElsewhere();
    // (A message of our own: a failing assert.ok without one parses the file each time.)
    await eventually(2000, () => {
      const now = listener.counter();
      assert.ok(now !== undefined && now > again, `counter ${now} after ${again}`);
    });
  });

  it("error: a server that accepts and never answers is given up on within the connect timeout and retried until it answers", async () => {
    proxy.swallow(true);
    const { listener, warnings } = listen(200);
    listener.counter();
    // Given up on and retried: three attempts, each accepted and never answered.
    await eventually(5000, () => assert.ok(proxy.accepted() >= 3, `${proxy.accepted()} attempts`));
    assert.equal(listener.counter(), undefined);
    proxy.swallow(false);
    await eventually(4000, () => assert.notEqual(listener.counter(), undefined));
    assert.equal(warnings.length, 1, "one warning for the outage, not one per attempt");
  });

  it("boundary: close() does not wait for a silent peer's goodbye", async () => {
    const { listener } = listen();
    listener.counter();
    await eventually(3000, () => assert.notEqual(listener.counter(), undefined));
    proxy.freeze();
    await within(3000, "close() with a frozen connection", listener.close());
    await eventually(1000, () => assert.equal(proxy.openConnections(), 0));
  });
});
