/**
 * The store's bulk update path (transfer-writes updateMany: one UPDATE ... FROM (VALUES ...)
 * per table and chunk for records that change the same text columns, the backfill case of a
 * delivery updating its send) on both backends: the database after one call updating many
 * records equals the database after the same updates made one record per call (the per-row
 * path), every column of transfers and address_transfers compared.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { type Database as OpenDatabase, openDatabase } from "../../src/store/index.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { evmAddress, hexHash, makeProcessingTransfer, timeAt } from "../setup/transfer-fixtures.js";

async function query(databaseUrl: string, text: string): Promise<Record<string, string>[]> {
  const normalise = (row: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, String(v)]));
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return (await client.query(text)).rows.map(normalise);
    } finally {
      await client.end();
    }
  }
  const db = new Database(databaseUrl, { readonly: true });
  try {
    return (db.prepare(text).all() as Record<string, unknown>[]).map(normalise);
  } finally {
    db.close();
  }
}

/** Everything but internal ids, keyed by message id. */
async function dump(databaseUrl: string) {
  return {
    transfers: await query(databaseUrl, "SELECT * FROM transfer_records ORDER BY message_key").then(
      // route_id: internal as the id (the order routes were first seen in).
      (rows) => rows.map(({ id: _id, route_id: _route, ...rest }) => rest),
    ),
    addressRows: await query(
      databaseUrl,
      "SELECT t.message_id, s.address_key, a.seq, a.created_at, a.updated_at, a.start_time," +
        " a.end_time, a.send_amount_key, a.receive_amount_key FROM address_transfers a" +
        " JOIN transfers t ON t.id = a.transfer_id JOIN address_stats s" +
        " ON s.address_id = a.address_id ORDER BY t.message_id, s.address_key",
    ),
  };
}

// 450 records: more than two chunks of 200 in one call; a few shared senders so address lists
// hold many rows each.
const sent: BridgeTransaction[] = Array.from({ length: 450 }, (_, i) =>
  makeProcessingTransfer({
    from_address: evmAddress(`sender:${i % 7}`),
    created_at: timeAt(1000 + i),
    updated_at: timeAt(1000 + i),
  }),
);
const delivered = sent.map((r, i) => ({
  ...r,
  status: i % 10 === 0 ? ("Failed" as const) : ("Success" as const),
  dest_tx_hash: hexHash(`delivery:${i}`),
  receive_amount: i % 10 === 0 ? "" : `${90 + (i % 9)}.25`,
  end_time: timeAt(5000 + i),
  updated_at: timeAt(9000),
}));
// Shapes the bulk path must leave to the per-row one: a numeric column, a new address.
delivered[3] = { ...delivered[3]!, dest_token_decimals: 6 };
delivered[4] = { ...delivered[4]!, to_address: evmAddress("someone-else") };

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`store: bulk updates of derived records (${backend})`, () => {
    const opened: { db: IsolatedDatabase; store: OpenDatabase }[] = [];
    after(async () => {
      for (const { db, store } of opened) {
        await store.close();
        await db.cleanup();
      }
    });
    async function fresh() {
      const db = await setupIsolatedDatabase(backend);
      const store = await openDatabase(db.databaseUrl);
      opened.push({ db, store });
      await store.transaction((tx) => tx.transferWrites.upsertTransfers(sent));
      return { db, store };
    }

    it("default: one call updating many records equals the same updates one by one", async () => {
      const bulk = await fresh();
      const result = await bulk.store.transaction((tx) =>
        tx.transferWrites.upsertTransfers(delivered),
      );
      assert.deepEqual(result, { inserted: 0, updated: 450, unchanged: 0 });

      const single = await fresh();
      for (const record of delivered) {
        await single.store.transaction((tx) => tx.transferWrites.upsertTransfers([record]));
      }
      const expected = await dump(single.db.databaseUrl);
      const actual = await dump(bulk.db.databaseUrl);
      assert.equal(actual.transfers.length, 450);
      assert.deepEqual(actual, expected);
      // And the update really happened (not two equally stale databases).
      const row = actual.transfers.find((t) => t.message_id === delivered[11]!.message_id)!;
      assert.equal(row.status, "Success");
      assert.equal(row.dest_tx_hash, delivered[11]!.dest_tx_hash);
      assert.equal(row.end_time, delivered[11]!.end_time);
      assert.equal(row.created_at, sent[11]!.created_at);
    });
  });
}
