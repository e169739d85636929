/**
 * Store.subscribeChanges and changeCounter tell of commits that changed transfers, and only of
 * those (issue #42): a transaction that writes only webhook bookkeeping (what the delivery loop
 * commits each round) neither calls the subscribers nor moves the SQLite counter, so a delivery
 * process subscribed to the changes does not wake itself; a transfer written through this store
 * or by another connection still calls them. On SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Database, openDatabase } from "../../src/store/index.js";
import { DEFAULT_SLOT_LIMITS } from "../../src/webhooks/delivery-worker.js";
import {
  createOwnPostgresDatabase,
  type DatabaseBackend,
  type IsolatedDatabase,
  setupIsolatedDatabase,
} from "../setup/database.js";
import { eventually } from "../setup/eventually.js";
import { makeProcessingTransfer } from "../setup/transfer-fixtures.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of ["sqlite", "postgres"] as DatabaseBackend[]) {
  describe(`change subscription (${backend})`, () => {
    let db: IsolatedDatabase;
    let database: Database;
    let other: Database;
    let calls = 0;
    let unsubscribe: () => void = () => {};

    before(async () => {
      // PostgreSQL: a database of its own, as NOTIFY reaches every schema of a database.
      db =
        backend === "sqlite"
          ? await setupIsolatedDatabase(backend)
          : await createOwnPostgresDatabase().then((own) => ({
              backend,
              databaseUrl: own.url,
              cleanup: () => own.drop(),
            }));
      database = await openDatabase(db.databaseUrl);
      other = await openDatabase(db.databaseUrl);
      unsubscribe = (database.subscribeChanges as (listener: () => void) => () => void)(() => {
        calls++;
      });
      // PostgreSQL: the listening connection calls once when it is up (anything may have
      // changed while it was not): wait for that call.
      if (backend === "postgres") {
        await eventually(10_000, () => assert.ok(calls > 0, "the listener is up"));
      }
    });
    after(async () => {
      unsubscribe();
      await other?.close();
      await database?.close();
      await db?.cleanup();
    });

    it("behavior: webhook bookkeeping alone calls no subscriber", async () => {
      const before = calls;
      const counter = database.changeCounter?.();
      for (let i = 0; i < 20; i++) {
        await database.transaction(async (tx) => {
          const cursor = await tx.webhooks.lockFanOutCursor();
          await tx.webhooks.setFanOutCursor(cursor ?? 0);
        });
        await database.webhooks.claimDue(Date.now(), Date.now() + 1000, 10, DEFAULT_SLOT_LIMITS);
      }
      await sleep(300); // past SQLite's 50 ms poll and a NOTIFY round trip
      assert.equal(calls, before, "no call after 40 commits without a transfer change");
      if (backend === "sqlite") assert.equal(database.changeCounter?.(), counter);
    });

    it("behavior: a transfer committed here or by another connection calls them", async () => {
      let before = calls;
      await database.transfers.upsertTransfers([makeProcessingTransfer()]);
      await eventually(3000, () => assert.ok(calls > before, "called after this store's commit"));
      before = calls;
      await other.transfers.upsertTransfers([makeProcessingTransfer()]);
      await eventually(3000, () => assert.ok(calls > before, "called after another's commit"));
    });
  });
}
