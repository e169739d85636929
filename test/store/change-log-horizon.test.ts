/**
 * History nobody subscribed to (migration 0013, src/store/change-log-horizon.ts): the writers of
 * history write no change-log rows before the first stream or webhook subscription, and log as
 * before once there is one; every other writer always logs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { predatesSubscriptions } from "../../src/store/change-log-horizon.js";
import { type Database, openDatabase } from "../../src/store/index.js";
import { setupIsolatedDatabase } from "../setup/database.js";
import { makeTransfer } from "../setup/transfer-fixtures.js";

describe("predatesSubscriptions", () => {
  const heads = JSON.stringify({ 1: 1000, 2: 50 });
  it("a batch whose blocks and finality depth stay at or below the chain's head then", () => {
    assert.equal(
      predatesSubscriptions(heads, { chainId: 1, throughBlock: 900, finalityDepth: 100 }),
      true,
    );
    assert.equal(
      predatesSubscriptions(heads, { chainId: 1, throughBlock: 901, finalityDepth: 100 }),
      false,
    );
    assert.equal(
      predatesSubscriptions(heads, { chainId: 2, throughBlock: 51, finalityDepth: 0 }),
      false,
    );
  });
  it("a chain the indexer had not stored then, or no batch at all (a roll-back), is not history", () => {
    assert.equal(
      predatesSubscriptions(heads, { chainId: 3, throughBlock: 1, finalityDepth: 0 }),
      false,
    );
    assert.equal(
      predatesSubscriptions("{}", { chainId: 1, throughBlock: 1, finalityDepth: 0 }),
      false,
    );
    assert.equal(predatesSubscriptions(heads, undefined), false);
  });
});

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`change-log horizon (${backend})`, () => {
    let db: Awaited<ReturnType<typeof setupIsolatedDatabase>>;
    let store: Database;
    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await openDatabase(db.databaseUrl);
    });
    after(async () => {
      await store?.close();
      await db?.cleanup();
    });

    const importHistory = (records: ReturnType<typeof makeTransfer>[]) =>
      store.transaction((tx) =>
        tx.withHistoryUnlogged(() => tx.transferWrites.upsertTransfers(records)),
      );

    it("before any subscription: history is stored unlogged, other writes are logged", async () => {
      const counter = store.changeCounter?.();
      const history = makeTransfer();
      assert.equal((await importHistory([history])).inserted, 1);
      assert.equal(await store.transferChanges.latestSeq(), 0, "no change-log row for history");
      const got = await store.transfers.getTransfer(history.message_id);
      assert.equal(got?.message_id, history.message_id, "the record itself is stored");
      if (backend === "sqlite") {
        assert.notEqual(store.changeCounter?.(), counter, "the list cache still hears of it");
      }
      const typed = makeTransfer();
      await store.transfers.upsertTransfers([typed]);
      const { changes } = await store.transferChanges.changesSince(0);
      assert.deepEqual(
        changes.map((c) => c.messageId),
        [typed.message_id],
        "a write that is not history is logged",
      );
    });

    it("after the first subscription, history is logged too", async () => {
      await store.transferChanges.markSubscribed();
      const before = await store.transferChanges.latestSeq();
      const record = makeTransfer();
      await importHistory([record]);
      const { changes } = await store.transferChanges.changesSince(before);
      assert.deepEqual(
        changes.map((c) => [c.messageId, c.type]),
        [[record.message_id, "created"]],
      );
    });
  });
}

describe("change-log horizon (postgres): the first subscription waits", () => {
  let db: Awaited<ReturnType<typeof setupIsolatedDatabase>>;
  let writer: Database;
  let api: Database;
  before(async () => {
    db = await setupIsolatedDatabase("postgres");
    writer = await openDatabase(db.databaseUrl);
    api = await openDatabase(db.databaseUrl);
  });
  after(async () => {
    await api?.close();
    await writer?.close();
    await db?.cleanup();
  });

  it("for a transaction writing history unlogged, so it subscribes after that commit", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => {};
    const writing = new Promise<void>((resolve) => {
      started = resolve;
    });
    const record = makeTransfer();
    const importing = writer.transaction((tx) =>
      tx.withHistoryUnlogged(async () => {
        await tx.transferWrites.upsertTransfers([record]);
        started();
        await held;
      }),
    );
    await writing;
    let subscribed = false;
    const subscribing = api.transferChanges.markSubscribed().then(() => {
      subscribed = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(subscribed, false, "the subscription waits for the history's commit");
    release();
    await importing;
    await subscribing;
    assert.equal(await api.transferChanges.latestSeq(), 0, "the history before it stays unlogged");
    const later = makeTransfer();
    await writer.transaction((tx) =>
      tx.withHistoryUnlogged(() => tx.transferWrites.upsertTransfers([later])),
    );
    const { changes } = await api.transferChanges.changesSince(0);
    assert.deepEqual(
      changes.map((c) => c.messageId),
      [later.message_id],
    );
  });
});
