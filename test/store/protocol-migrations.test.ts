/**
 * Migrations 0011 and 0012 on a database that already holds data (an upgrade, not a fresh
 * install), on both backends: the stored events get their protocol and role, the records the
 * four added fields (reference, the fee token), the change log's earlier records the same fields
 * appended, and the triggers then log every field of the record.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { TRANSFER_FIELDS } from "../../src/domain/bridge-transaction.js";
import { type Database as OpenDatabase, openDatabase } from "../../src/store/index.js";
import { MIGRATIONS } from "../../src/store/migrations/index.js";
import { migratePostgres } from "../../src/store/postgres/migrate.js";
import { migrateSqlite } from "../../src/store/sqlite/migrate.js";
import { amountSortKey, hashKey } from "../../src/store/transfer-keys.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { makeTransfer } from "../setup/transfer-fixtures.js";

const BEFORE = MIGRATIONS.filter((m) => m.version < 11);
const ADDED = new Set([
  "protocol",
  "xproto_fee_address",
  "xproto_fee_decimals",
  "xproto_fee_symbol",
]);
const OLD_FIELDS = TRANSFER_FIELDS.filter((c) => !ADDED.has(c));
/** migration 1's columns (the key columns written, as the code of then did). */
const OLD_COLUMNS = [
  ...OLD_FIELDS,
  "message_key",
  "source_tx_key",
  "dest_tx_key",
  "send_amount_key",
  "receive_amount_key",
];

const record = makeTransfer({ status: "Success", fee_symbol: "USDC.e", fee_decimals: 6 });
const oldValues = [
  ...OLD_FIELDS.map((f) => record[f]),
  hashKey(record.message_id),
  hashKey(record.source_tx_hash),
  hashKey(record.dest_tx_hash),
  amountSortKey(record.send_amount),
  amountSortKey(record.receive_amount),
];
const EVENT = [71001, "0xtx", 0, 5, "0xblock", 1_800_000_000, record.source_contract, 1];
const EVENT_COLUMNS =
  "chain_id, tx_hash, log_index, block_number, block_hash, block_time, address, kind, event_name, message_id, args";

/** Data written by the version before the migrations (through SQL: today's code writes more). */
async function writeOldData(db: IsolatedDatabase): Promise<void> {
  const placeholders = (n: number, pgStyle: boolean) =>
    Array.from({ length: n }, (_, i) => (pgStyle ? `$${i + 1}` : "?")).join(", ");
  const insertTransfer = (pgStyle: boolean) =>
    `INSERT INTO transfers (${OLD_COLUMNS.join(", ")}) VALUES (${placeholders(OLD_COLUMNS.length, pgStyle)})`;
  const insertEvent = (pgStyle: boolean) =>
    `INSERT INTO raw_events (${EVENT_COLUMNS}) VALUES (${placeholders(11, pgStyle)})`;
  const eventValues = [...EVENT, "TransferSent", record.message_id, "{}"];
  if (db.backend === "sqlite") {
    const sqlite = new Database(db.databaseUrl);
    try {
      migrateSqlite(sqlite, BEFORE);
      sqlite.prepare(insertTransfer(false)).run(...oldValues);
      sqlite.prepare(insertEvent(false)).run(...eventValues);
    } finally {
      sqlite.close();
    }
    return;
  }
  const pool = new pg.Pool({ connectionString: db.databaseUrl, max: 1 });
  try {
    await migratePostgres(pool, BEFORE);
    await pool.query(insertTransfer(true), oldValues);
    await pool.query(insertEvent(true), eventValues);
  } finally {
    await pool.end();
  }
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`migrations 0011-0012 over existing data (${backend})`, () => {
    let db: IsolatedDatabase;
    let store: OpenDatabase;

    before(async () => {
      db = await setupIsolatedDatabase(backend);
      await writeOldData(db);
      store = await openDatabase(db.databaseUrl);
    });
    after(async () => {
      await store?.close();
      await db?.cleanup();
    });

    it("default: a stored record is the reference protocol's, its messaging fee in the fee token", async () => {
      const stored = await store.transfers.getTransfer(record.message_id);
      assert.deepEqual(stored, {
        ...record,
        protocol: "reference",
        xproto_fee_address: record.fee_address,
        xproto_fee_decimals: 6,
        xproto_fee_symbol: "USDC.e",
      });
    });

    it("behavior: a stored event is the reference protocol's, its role from its name", async () => {
      const [event] = await store.transfers.transferEvents(record.message_id);
      assert.equal(event?.role, "sent");
      const [raw] = await store.indexer.eventsOfMessages([record.message_id]);
      assert.equal(raw?.protocol, "reference");
    });

    it("behavior: the change log's earlier record gains the fields; later changes log all of them", async () => {
      const stored = await store.transfers.getTransfer(record.message_id);
      const first = await store.transferChanges.changesSince(0);
      assert.equal(first.changes.length, 1);
      assert.deepEqual(first.changes[0]?.record, stored);
      assert.deepEqual(Object.keys(JSON.parse(first.changes[0]!.recordJson)), [...TRANSFER_FIELDS]);
      await store.transfers.upsertTransfers([{ ...stored!, xproto_fee_symbol: "ETH" }]);
      const next = await store.transferChanges.changesSince(first.changes[0]!.seq);
      assert.equal(next.changes.length, 1, "changing an added field is a change");
      assert.equal(next.changes[0]?.record.xproto_fee_symbol, "ETH");
      assert.deepEqual(Object.keys(JSON.parse(next.changes[0]!.recordJson)), [...TRANSFER_FIELDS]);
    });
  });
}
