/**
 * PostgreSQL: the bulk update of derived records (transfer-writes updateMany, one UPDATE ...
 * FROM (VALUES ...) per 200 records: a backfill's deliveries) and the renumbering of an
 * address's list probe address_transfers through its transfer_id index even when the table has
 * no statistics, as during a backfill that outruns autovacuum's first ANALYZE. Without statistics the planner takes transfer_id to have
 * 200 distinct values and joins by hashing a sequential scan of the whole table, once per
 * statement: a 100,000-transfer backfill spent 15.5 s of its 46 s in that UPDATE. The scans are
 * counted in the transaction's own statistics (pg_stat_xact_user_tables); the same update
 * without the backend's withIndexedJoins shows the scans this test guards against.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import type { TransferBackend } from "../../src/store/backend.js";
import { createStore } from "../../src/store/index.js";
import { createPostgresBackend } from "../../src/store/postgres/postgres-backend.js";
import { createTransferWrites } from "../../src/store/transfer-writes.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { evmAddress, hexHash, makeProcessingTransfer, timeAt } from "../setup/transfer-fixtures.js";

const RECORDS = 3000;

const sent: BridgeTransaction[] = Array.from({ length: RECORDS }, (_, i) =>
  makeProcessingTransfer({
    from_address: evmAddress(`sender:${i % 11}`),
    created_at: timeAt(1000 + i),
    updated_at: timeAt(1000 + i),
  }),
);
/** Each record delivered: the same columns change in all of them (the bulk path's case). */
const delivered = sent.map((r, i) => ({
  ...r,
  status: "Success" as const,
  dest_tx_hash: hexHash(`delivery:${i}`),
  receive_amount: `${90 + (i % 9)}.25`,
  end_time: timeAt(5000 + i),
  updated_at: timeAt(9000),
}));

/** The PostgreSQL backend without withIndexedJoins: the planner left to its estimates. */
function unguarded(connection: pg.Client): TransferBackend {
  const backend = createPostgresBackend(connection);
  return { ...backend, bulk: { ...backend.bulk, withIndexedJoins: (work) => work() } };
}

/**
 * A send of sender:0 created before that sender's latest transfers: its address list is
 * renumbered from there on (address-lists.ts: the dirty list drives an index range scan of its
 * tail, and the new seqs reach address_transfers through its transfer_id index).
 */
const late: BridgeTransaction = makeProcessingTransfer({
  from_address: evmAddress("sender:0"),
  created_at: timeAt(1000 + RECORDS - 40),
  updated_at: timeAt(1000 + RECORDS - 40),
});

describe("store: bulk updates on PostgreSQL without table statistics", () => {
  let db: IsolatedDatabase;
  let client: pg.Client;

  before(async () => {
    db = await setupIsolatedDatabase("postgres");
    await (await createStore({ databaseUrl: db.databaseUrl })).close();
    client = new pg.Client({ connectionString: db.databaseUrl });
    await client.connect();
    // No ANALYZE may run while the test does: the tables stay without statistics, as a
    // backfill's tables are until autovacuum's first pass.
    for (const table of ["transfers", "address_transfers"]) {
      await client.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    }
    await client.query("BEGIN");
    await createTransferWrites(createPostgresBackend(client)).upsertTransfers(sent);
    await client.query("COMMIT");
  });
  after(async () => {
    await client?.end();
    await db?.cleanup();
  });

  /**
   * Upserts `records` in one call on a connection of its own (a statement's plan, once cached,
   * is its connection's: each case must plan afresh), then reads the transaction's scans of
   * address_transfers and the planner settings, and rolls back: every case starts from the
   * same undelivered records.
   */
  async function upsert(
    records: readonly BridgeTransaction[],
    backendOn: (connection: pg.Client) => TransferBackend,
  ) {
    const connection = new pg.Client({ connectionString: db.databaseUrl });
    await connection.connect();
    try {
      await connection.query("BEGIN");
      const result = await createTransferWrites(backendOn(connection)).upsertTransfers(records);
      const scans = await connection.query(
        "SELECT seq_scan, idx_scan FROM pg_stat_xact_user_tables" +
          " WHERE relid = 'address_transfers'::regclass",
      );
      const settings = await connection.query(
        "SELECT current_setting('enable_hashjoin') AS hash," +
          " current_setting('enable_mergejoin') AS merge, current_setting('enable_seqscan') AS seq",
      );
      await connection.query("ROLLBACK");
      return {
        result,
        seqScans: Number(scans.rows[0].seq_scan),
        indexScans: Number(scans.rows[0].idx_scan),
        settings: settings.rows[0] as { hash: string; merge: string; seq: string },
      };
    } finally {
      await connection.end();
    }
  }

  it("default: the deliveries' update probes the index, never scans the table", async () => {
    const { rows } = await client.query(
      "SELECT count(*) AS n FROM pg_stats WHERE tablename = 'address_transfers'" +
        " AND schemaname = current_schema()",
    );
    assert.equal(Number(rows[0].n), 0, "address_transfers must have no statistics here");

    const delivery = await upsert(delivered, (connection) => createPostgresBackend(connection));
    assert.deepEqual(delivery.result, { inserted: 0, updated: RECORDS, unchanged: 0 });
    assert.equal(delivery.seqScans, 0);
    assert.ok(delivery.indexScans > 0, "delivery.indexScans > 0");
  });

  it("behavior: the planner settings are the transaction's again after the update", async () => {
    const delivery = await upsert(delivered, (connection) => createPostgresBackend(connection));
    assert.deepEqual(delivery.settings, { hash: "on", merge: "on", seq: "on" });
  });

  it("behavior: renumbering an address's tail probes the index too", async () => {
    const guarded = await upsert([late], (connection) => createPostgresBackend(connection));
    assert.deepEqual(guarded.result, { inserted: 1, updated: 0, unchanged: 0 });
    assert.equal(guarded.seqScans, 0);
    // Its statements are written so that the staged rows drive every join (LATERAL, = ANY):
    // left to its estimates, the planner probes the index too.
    const plain = await upsert([late], unguarded);
    assert.equal(plain.seqScans, 0);
  });

  it("behavior: without withIndexedJoins the same update scans the whole table", async () => {
    // The premise of the test above: on this table the planner does choose the scans.
    const delivery = await upsert(delivered, unguarded);
    assert.deepEqual(delivery.result, { inserted: 0, updated: RECORDS, unchanged: 0 });
    assert.ok(delivery.seqScans > 0, `expected sequential scans, saw ${delivery.seqScans}`);
  });
});
