/**
 * Migration 0015 (transfer_routes, generated hash keys) on a database that already holds records
 * written at migration 14, on both backends: every list, lookup and change-log answer is the one
 * a database filled by today's code gives for the same records.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { type BridgeTransaction, TRANSFER_FIELDS } from "../../src/domain/bridge-transaction.js";
import { type Database as OpenDatabase, openDatabase } from "../../src/store/index.js";
import { MIGRATIONS } from "../../src/store/migrations/index.js";
import { migratePostgres } from "../../src/store/postgres/migrate.js";
import { migrateSqlite } from "../../src/store/sqlite/migrate.js";
import { amountSortKey, hashKey } from "../../src/store/transfer-keys.js";
import { transferAddressKeys } from "../../src/store/transfer-row.js";
import { type ListTransfersQuery, SORT_FIELDS } from "../../src/store/types.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { evmAddress, hexHash, makeTransfer, timeAt } from "../setup/transfer-fixtures.js";

const BEFORE = MIGRATIONS.filter((m) => m.version <= 14);
/** `transfers` as migrations 1 and 12 made it: the fields, then the five key columns. */
const OLD_COLUMNS = [
  ...TRANSFER_FIELDS,
  "message_key",
  "source_tx_key",
  "dest_tx_key",
  "send_amount_key",
  "receive_amount_key",
];

/** A hash with upper-case hex digits (its key is lowercase, its display value kept). */
const upper = (hash: string) => `0x${hash.slice(2).toUpperCase()}`;
const hub = evmAddress("hub");
const other = "So11111111111111111111111111111111111111112";
const records: BridgeTransaction[] = [];
for (let i = 0; i < 12; i++) {
  records.push(
    makeTransfer({
      // Upper-case hex in a stored id and hash: keys are lowercase, display values exact.
      message_id: i === 3 ? upper(hexHash(`m${i}`)) : hexHash(`m${i}`),
      source_tx_hash: i === 5 ? hexHash("shared-tx") : hexHash(`s${i}`),
      dest_tx_hash: i % 4 === 0 ? "" : upper(hexHash(`d${i}`)),
      from_address: i % 2 === 0 ? hub : evmAddress(`from${i}`),
      to_address: i === 7 ? other : hub,
      send_amount: `${i + 1}.5`,
      receive_amount: i % 4 === 0 ? "" : `${i + 1}`,
      status: i % 4 === 0 ? "Processing" : "Success",
      // Three routes: symbols and decimals differ.
      fee_symbol: ["USDC", "USDC.e", "DAI"][i % 3]!,
      fee_decimals: [6, 6, 18][i % 3]!,
      protocol: i % 3 === 2 ? "layerzero-oft" : "reference",
      created_at: timeAt(100 - i * 3),
      updated_at: timeAt(200 + i),
      start_time: timeAt(50 + ((i * 7) % 12)),
      end_time: i % 4 === 0 ? "" : timeAt(300 + i),
    }),
  );
}

function oldRow(record: BridgeTransaction): unknown[] {
  return [
    ...TRANSFER_FIELDS.map((f) => record[f]),
    hashKey(record.message_id),
    hashKey(record.source_tx_hash),
    hashKey(record.dest_tx_hash),
    amountSortKey(record.send_amount),
    amountSortKey(record.receive_amount),
  ];
}

/** The statements of migration-14 code for these records: rows, address lists, stats. */
function oldStatements(): [string, unknown[]][] {
  const out: [string, unknown[]][] = [];
  const marks = OLD_COLUMNS.map(() => "?").join(", ");
  records.forEach((r, i) => {
    out.push([
      `INSERT INTO transfers (id, ${OLD_COLUMNS.join(", ")}) VALUES (?, ${marks})`,
      [i + 1, ...oldRow(r)],
    ]);
  });
  const byAddress = new Map<string, { id: number; record: BridgeTransaction }[]>();
  records.forEach((record, i) => {
    for (const key of transferAddressKeys(record)) {
      byAddress.set(key, [...(byAddress.get(key) ?? []), { id: i + 1, record }]);
    }
  });
  let addressId = 0;
  for (const [key, rows] of byAddress) {
    addressId++;
    rows.sort((a, b) =>
      a.record.created_at === b.record.created_at
        ? a.id - b.id
        : a.record.created_at < b.record.created_at
          ? -1
          : 1,
    );
    const last = rows.at(-1)!;
    out.push([
      "INSERT INTO address_stats (address_id, address_key, total, last_created_at, last_id) VALUES (?, ?, ?, ?, ?)",
      [addressId, key, rows.length, last.record.created_at, last.id],
    ]);
    rows.forEach(({ id, record }, seq) => {
      out.push([
        "INSERT INTO address_transfers (address_id, transfer_id, seq, created_at, updated_at, start_time," +
          " end_time, send_amount_key, receive_amount_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
          addressId,
          id,
          seq + 1,
          record.created_at,
          record.updated_at,
          record.start_time,
          record.end_time,
          amountSortKey(record.send_amount),
          amountSortKey(record.receive_amount),
        ],
      ]);
    });
  }
  return out;
}

async function writeOldData(db: IsolatedDatabase): Promise<void> {
  if (db.backend === "sqlite") {
    const sqlite = new Database(db.databaseUrl);
    try {
      migrateSqlite(sqlite, BEFORE);
      sqlite.transaction(() => {
        for (const [text, params] of oldStatements()) sqlite.prepare(text).run(...params);
      })();
    } finally {
      sqlite.close();
    }
    return;
  }
  const pool = new pg.Pool({ connectionString: db.databaseUrl, max: 1 });
  try {
    await migratePostgres(pool, BEFORE);
    for (const [text, params] of oldStatements()) {
      let n = 0;
      await pool.query(
        text.replace(/\?/g, () => `$${++n}`),
        params,
      );
    }
    await pool.query("SELECT setval('transfers_id_seq', (SELECT max(id) FROM transfers))");
    await pool.query(
      "SELECT setval('address_stats_address_id_seq', (SELECT max(address_id) FROM address_stats))",
    );
  } finally {
    await pool.end();
  }
}

/** The queries compared: every sort of an address, hashes in both cases, an exact value. */
function queries(): ListTransfersQuery[] {
  const out: ListTransfersQuery[] = [];
  const base = { offset: 0, limit: 5, sortOrder: "desc" as const };
  for (const sortField of SORT_FIELDS) {
    for (const sortOrder of ["asc", "desc"] as const) {
      out.push({ ...base, sortField, sortOrder, match: { kind: "evmAddress", value: hub } });
      out.push({
        ...base,
        offset: 5,
        sortField,
        sortOrder,
        match: { kind: "evmAddress", value: hub.toLowerCase() },
      });
    }
  }
  for (const value of [
    records[3]!.message_id,
    records[3]!.message_id.toLowerCase(),
    upper(hexHash("shared-tx")),
    records[6]!.dest_tx_hash.toLowerCase(),
  ]) {
    out.push({ ...base, sortField: "created_at", match: { kind: "evmHash", value } });
  }
  out.push({ ...base, sortField: "send_amount", match: { kind: "other", value: other } });
  out.push({
    ...base,
    sortField: "created_at",
    match: { kind: "other", value: records[1]!.to_address },
  });
  return out;
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`migration 0015 over existing data (${backend})`, () => {
    let migrated: IsolatedDatabase;
    let fresh: IsolatedDatabase;
    let store: OpenDatabase;
    let reference: OpenDatabase;

    before(async () => {
      migrated = await setupIsolatedDatabase(backend);
      await writeOldData(migrated);
      store = await openDatabase(migrated.databaseUrl);
      fresh = await setupIsolatedDatabase(backend);
      reference = await openDatabase(fresh.databaseUrl);
      await reference.transfers.upsertTransfers(records);
    });
    after(async () => {
      await store?.close();
      await reference?.close();
      await migrated?.cleanup();
      await fresh?.cleanup();
    });

    it("default: every record reads back as it was stored, one route row per distinct route", async () => {
      for (const record of records) {
        assert.deepEqual(await store.transfers.getTransfer(upper(record.message_id)), record);
      }
      const [n] = await rows(migrated, "SELECT count(*) AS n FROM transfer_routes");
      assert.equal(Number(n!.n), 3, "three distinct routes");
    });

    it("behavior: every list answer equals that of a database written by today's code", async () => {
      for (const query of queries()) {
        const actual = await store.transfers.listTransfers(query);
        assert.deepEqual(
          actual,
          await reference.transfers.listTransfers(query),
          JSON.stringify(query),
        );
        if (query.match.kind !== "evmHash") continue;
        assert.ok(actual.items.length > 0, `the hash query finds records: ${query.match.value}`);
      }
    });

    it("behavior: the change log keeps its records; changes after the migration log the whole record", async () => {
      const before = await store.transferChanges.changesSince(0);
      assert.equal(before.changes.length, records.length, "one 'created' change per raw insert");
      assert.deepEqual(
        before.changes.map((c) => c.record),
        records,
      );
      const changed = {
        ...records[2]!,
        fee_symbol: "WETH",
        status: "Failed" as const,
        receive_amount: "0",
      };
      await store.transfers.upsertTransfers([changed]);
      await store.transfers.deleteTransfers([records[4]!.message_id]);
      const after = await store.transferChanges.changesSince(before.changes.at(-1)!.seq);
      assert.deepEqual(
        after.changes.map((c) => [c.type, c.record]),
        [
          ["updated", changed],
          ["removed", records[4]],
        ],
      );
      assert.deepEqual(Object.keys(JSON.parse(after.changes[0]!.recordJson)), [...TRANSFER_FIELDS]);
    });
  });
}

async function rows(db: IsolatedDatabase, text: string): Promise<Record<string, unknown>[]> {
  if (db.backend === "sqlite") {
    const sqlite = new Database(db.databaseUrl, { readonly: true });
    try {
      return sqlite.prepare(text).all() as Record<string, unknown>[];
    } finally {
      sqlite.close();
    }
  }
  const pool = new pg.Pool({ connectionString: db.databaseUrl, max: 1 });
  try {
    return (await pool.query(text)).rows;
  } finally {
    await pool.end();
  }
}
