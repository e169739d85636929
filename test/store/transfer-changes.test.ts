/**
 * The change log (migration 0007, src/store/transfer-change-repository.ts) on both backends:
 * every write path appends the record in the API's shape in the writer's transaction, in commit
 * order; reads, matching and pruning.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { createStore } from "../../src/store/index.js";
import type { TransferChange } from "../../src/store/transfer-change-repository.js";
import type { Store, TransferMaintenanceRepository } from "../../src/store/types.js";
import { type DatabaseBackend, setupIsolatedDatabase } from "../setup/database.js";
import { makeProcessingTransfer, makeTransfer } from "../setup/transfer-fixtures.js";

async function changesOf(store: Store, messageId: string): Promise<TransferChange[]> {
  const all: TransferChange[] = [];
  let after = 0;
  for (;;) {
    const page = await store.transferChanges.changesSince(after, { limit: 1000 });
    all.push(...page.changes);
    if (page.changes.length === 0) break;
    after = page.scannedThrough;
  }
  return all.filter((change) => change.messageId === messageId);
}

/** The list endpoint's record of `messageId`, as the API serialises it. */
async function listed(store: Store, record: BridgeTransaction): Promise<BridgeTransaction> {
  const { items } = await store.transfers.listTransfers({
    match: { kind: "evmHash", value: record.message_id },
    offset: 0,
    limit: 1,
    sortField: "created_at",
    sortOrder: "desc",
  });
  assert.ok(items[0], "the record is listed");
  return items[0];
}

/** A statement on a connection of its own, not through the store. */
async function rawStatement(databaseUrl: string, backend: DatabaseBackend, sql: string) {
  if (backend === "sqlite") {
    const db = new Database(databaseUrl);
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`transfer change log (${backend})`, () => {
    let db: Awaited<ReturnType<typeof setupIsolatedDatabase>>;
    let store: Store;
    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await createStore({ databaseUrl: db.databaseUrl });
    });
    after(async () => {
      await store?.close();
      await db?.cleanup();
    });

    it("default: created, updated and removed changes carry the list endpoint's record", async () => {
      const sent = makeProcessingTransfer({ source_token_symbol: 'Q"uo\\te\n' });
      await store.transfers.upsertTransfers([sent]);
      const delivered = { ...sent, ...makeTransfer({ message_id: sent.message_id }) };
      delivered.created_at = sent.created_at;
      await store.transfers.upsertTransfers([delivered]);
      const afterDelivery = await listed(store, sent);
      // The same record again changes nothing, so logs nothing.
      await store.transfers.upsertTransfers([delivered]);
      const maintenance = store.transfers as TransferMaintenanceRepository;
      assert.equal(await maintenance.deleteTransfers([sent.message_id]), 1);

      const changes = await changesOf(store, sent.message_id);
      assert.deepEqual(
        changes.map((change) => change.type),
        ["created", "updated", "removed"],
      );
      const [created, updated, removed] = changes as [
        TransferChange,
        TransferChange,
        TransferChange,
      ];
      assert.ok(
        created.seq < updated.seq && updated.seq < removed.seq,
        "created.seq < updated.seq && updated.seq < removed.seq",
      );
      assert.deepEqual(created.record, { ...sent, updated_at: created.record.updated_at });
      assert.equal(created.record.status, "Processing");
      // Byte for byte what the API serialises, field order and number types included.
      assert.equal(updated.recordJson, JSON.stringify(afterDelivery));
      assert.deepEqual(Object.keys(updated.record), Object.keys(afterDelivery));
      assert.equal(typeof updated.record.fee_decimals, "number");
      assert.equal(removed.recordJson, JSON.stringify(afterDelivery));
      assert.match(created.changedAt, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    });

    it("behavior: a rolled back write logs nothing", async () => {
      const record = makeTransfer();
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.transfers.upsertTransfers([record]);
          throw new Error("undo");
        }),
        /undo/,
      );
      assert.deepEqual(await changesOf(store, record.message_id), []);
    });

    it("behavior: a statement outside the store is logged too (triggers, not the repository)", async () => {
      const record = makeProcessingTransfer();
      await store.transfers.upsertTransfers([record]);
      await rawStatement(
        db.databaseUrl,
        backend,
        `UPDATE transfers SET status = 'Failed', receive_amount = '0' WHERE message_id = '${record.message_id}'`,
      );
      // A column outside the API's (a derived key) changes nothing visible: not logged.
      await rawStatement(
        db.databaseUrl,
        backend,
        `UPDATE transfers SET receive_amount_key = receive_amount_key WHERE message_id = '${record.message_id}'`,
      );
      const changes = await changesOf(store, record.message_id);
      assert.deepEqual(
        changes.map((change) => [change.type, change.record.status, change.record.receive_amount]),
        [
          ["created", "Processing", ""],
          ["updated", "Failed", "0"],
        ],
      );
    });

    it("behavior: seq order is commit order, even when the later commit wrote first", async () => {
      const first = makeTransfer();
      const second = makeTransfer();
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let wrote: () => void = () => {};
      const written = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      const slow = store.transaction(async (tx) => {
        await tx.transfers.upsertTransfers([first]);
        wrote();
        await held;
      });
      await written;
      // SQLite serialises transactions: this one commits after the slow one. PostgreSQL runs
      // both: this one commits first although the slow one inserted first.
      const fast = store.transfers.upsertTransfers([second]);
      if (backend === "postgres") await fast;
      release();
      await Promise.all([slow, fast]);
      const [a] = await changesOf(store, first.message_id);
      const [b] = await changesOf(store, second.message_id);
      assert.ok(a && b, "a && b");
      if (backend === "postgres") assert.ok(b.seq < a.seq, `${b.seq} < ${a.seq}`);
      else assert.ok(a.seq < b.seq, `${a.seq} < ${b.seq}`);
    });

    it("behavior: changesSince filters by addressOrTxHash's rule and pages", async () => {
      const base = await store.transferChanges.latestSeq();
      const mine = makeTransfer();
      const others = [makeTransfer(), makeTransfer(), makeTransfer()];
      const toMe = makeTransfer({ to_address: mine.from_address.toLowerCase() });
      await store.transfers.upsertTransfers([others[0] as BridgeTransaction, mine]);
      await store.transfers.upsertTransfers([others[1] as BridgeTransaction, toMe]);
      await store.transfers.upsertTransfers([others[2] as BridgeTransaction]);

      const byAddress = await store.transferChanges.changesSince(base, {
        match: { kind: "evmAddress", value: mine.from_address.toLowerCase() },
      });
      assert.deepEqual(
        byAddress.changes.map((change) => change.messageId),
        [mine.message_id, toMe.message_id],
      );
      assert.equal(byAddress.scannedThrough, await store.transferChanges.latestSeq());
      const byHash = await store.transferChanges.changesSince(base, {
        match: { kind: "evmHash", value: toMe.source_tx_hash },
      });
      assert.deepEqual(
        byHash.changes.map((change) => change.messageId),
        [toMe.message_id],
      );
      // A scan bound stops early and says how far it looked.
      const bounded = await store.transferChanges.changesSince(base, {
        match: { kind: "evmHash", value: toMe.source_tx_hash },
        scanLimit: 2,
      });
      assert.deepEqual(bounded.changes, []);
      assert.equal(bounded.scannedThrough, base + 2);
      const firstTwo = await store.transferChanges.changesSince(base, { limit: 2 });
      assert.equal(firstTwo.changes.length, 2);
      assert.equal(firstTwo.scannedThrough, firstTwo.changes[1]?.seq);
      const rest = await store.transferChanges.changesSince(firstTwo.scannedThrough);
      assert.equal(rest.changes.length, 3);
    });

    it("behavior: prune deletes the old run of the log and remembers how far", async () => {
      await store.transfers.upsertTransfers([makeTransfer(), makeTransfer()]);
      const latest = await store.transferChanges.latestSeq();
      assert.ok(
        (await store.transferChanges.oldestSeq()) !== undefined,
        "(await store.transferChanges.oldestSeq()) !== undefined",
      );
      assert.equal(await store.transferChanges.prune(new Date(Date.now() - 3_600_000)), 0);
      assert.equal(await store.transferChanges.prunedThrough(), 0);
      const deleted = await store.transferChanges.prune(new Date(Date.now() + 1000), {
        batchSize: 3,
      });
      assert.equal(deleted, (await changesCount(store)) + deleted);
      assert.equal(await store.transferChanges.prunedThrough(), latest);
      assert.equal(await store.transferChanges.oldestSeq(), undefined);
      // With nothing retained, the head is where pruning stopped; new changes go on from it.
      assert.equal(await store.transferChanges.latestSeq(), latest);
      await store.transfers.upsertTransfers([makeTransfer()]);
      assert.ok(
        ((await store.transferChanges.oldestSeq()) ?? 0) > latest,
        "((await store.transferChanges.oldestSeq()) ?? 0) > latest",
      );
    });
  });
}

async function changesCount(store: Store): Promise<number> {
  return (await store.transferChanges.changesSince(0, { limit: 10_000 })).changes.length;
}
