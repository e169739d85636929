/**
 * PostgreSQL's Store.changeCounter (src/store/postgres/change-listener.ts): it moves on commits
 * by any connection (NOTIFY from the transfers trigger), is undefined while it cannot hear them
 * (so nothing is cached), recovers from a killed connection, and is absent with a read replica.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { eventually } from "../setup/eventually.js";
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
    await eventually(2000, () => assert.ok((store.changeCounter?.() as number) > before));
  });

  it("behavior: a commit through the store itself moves it at once", async () => {
    await eventually(3000, () => assert.notEqual(store.changeCounter?.(), undefined));
    const before = store.changeCounter?.() as number;
    await store.transfers.upsertTransfers([makeTransfer()]);
    assert.ok((store.changeCounter?.() as number) > before);
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
      assert.ok(killed.rowCount !== null && killed.rowCount >= 1);
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
