/**
 * recentSettlements (the router's duration estimates read it in the background): the `Success`
 * records among the latest `limit` stored, newest first, on both backends.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { makeProcessingTransfer, makeTransfer } from "../setup/transfer-fixtures.js";

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`recentSettlements (${backend})`, () => {
    let db: IsolatedDatabase;
    let store: Store;
    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await createStore({ databaseUrl: db.databaseUrl });
    });
    after(async () => {
      await store?.close();
      await db?.cleanup();
    });

    it("default: Success records among the latest stored, newest first; limits checked", async () => {
      const a = makeTransfer({
        start_time: "2026-11-26 10:00:00",
        end_time: "2026-11-26 10:00:09",
      });
      const pending = makeProcessingTransfer();
      const b = makeTransfer({
        start_time: "2026-11-26 10:01:00",
        end_time: "2026-11-26 10:01:30",
      });
      const failed = makeTransfer({ status: "Failed" });
      // One write each, in this order: ids grow with it.
      for (const record of [a, pending, b, failed]) await store.transfers.upsertTransfers([record]);
      const read = store.transfers.recentSettlements!;
      assert.deepEqual(await read(10), [
        {
          sourceContract: b.source_contract,
          sourceChainName: b.source_chain_name,
          destChainName: b.dest_chain_name,
          startTime: b.start_time,
          endTime: b.end_time,
        },
        {
          sourceContract: a.source_contract,
          sourceChainName: a.source_chain_name,
          destChainName: a.dest_chain_name,
          startTime: a.start_time,
          endTime: a.end_time,
        },
      ]);
      // The latest two are b and the failed one: only b.
      assert.deepEqual(
        (await read(2)).map((s) => s.startTime),
        [b.start_time],
      );
      await assert.rejects(read(0), RangeError);
      await assert.rejects(read(100_001), RangeError);
    });
  });
}
