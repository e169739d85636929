/**
 * TransferBackend on one better-sqlite3 connection. Calls are synchronous underneath (returned
 * as resolved promises); every SQL text is prepared once per connection and cached. Bulk
 * operations run a cached prepared statement per row: in-process, that is as fast as a
 * multi-row statement and keeps one statement shape.
 */
import type Database from "better-sqlite3";
import type { AddressRow, AddressStats, SqlExecutor, TransferBackend } from "../backend.js";
import { hashKey } from "../transfer-keys.js";
import { TRANSFER_COLUMNS, transferFromRow, transferRowValues } from "../transfer-row.js";

export function createStatementCache(db: Database.Database) {
  const cache = new Map<string, Database.Statement>();
  return (sql: string): Database.Statement => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}

const INSERT_TRANSFER_SQL =
  `INSERT INTO transfers (${TRANSFER_COLUMNS.join(", ")})` +
  ` VALUES (${TRANSFER_COLUMNS.map(() => "?").join(", ")}) ON CONFLICT (message_key) DO NOTHING`;
const FIND_BY_KEYS_SQL =
  "SELECT id, * FROM transfers WHERE message_key IN (SELECT value FROM json_each(?))";
const INSERT_ADDRESS_ROW_SQL =
  "INSERT INTO address_transfers (address_id, transfer_id, seq, created_at, updated_at," +
  " start_time, end_time, send_amount_key, receive_amount_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
const CREATE_STATS_SQL =
  "INSERT INTO address_stats (address_key, total, last_created_at, last_id)" +
  " SELECT value, 0, '', 0 FROM json_each(?) WHERE true ON CONFLICT (address_key) DO NOTHING";
const READ_STATS_SQL =
  "SELECT address_id, address_key, total, last_created_at, last_id FROM address_stats" +
  " WHERE address_key IN (SELECT value FROM json_each(?))";
const WRITE_STATS_SQL =
  "UPDATE address_stats SET total = ?, last_created_at = ?, last_id = ? WHERE address_id = ?";

/** `prepare` comes from createStatementCache, shared by every backend on that connection. */
export function createSqliteBackend(
  prepare: (sql: string) => Database.Statement,
  assertOpen: () => void = () => undefined,
): TransferBackend {
  const sql: SqlExecutor = {
    async all<T>(text: string, params: readonly unknown[] = []) {
      assertOpen();
      return prepare(text).all(...params) as T[];
    },
    async run(text: string, params: readonly unknown[] = []) {
      assertOpen();
      return prepare(text).run(...params).changes;
    },
  };
  return {
    sql,
    bulk: {
      async findByMessageKeys(keys) {
        assertOpen();
        const rows = prepare(FIND_BY_KEYS_SQL).all(JSON.stringify(keys)) as Record<
          string,
          unknown
        >[];
        return rows.map((row) => ({ id: Number(row.id), record: transferFromRow(row) }));
      },
      async insertTransfers(records) {
        assertOpen();
        const insert = prepare(INSERT_TRANSFER_SQL);
        const ids = new Map<string, number>();
        for (const record of records) {
          const info = insert.run(...transferRowValues(record));
          if (info.changes === 1) ids.set(hashKey(record.message_id), Number(info.lastInsertRowid));
        }
        return ids;
      },
      async insertAddressRows(rows: readonly AddressRow[]) {
        assertOpen();
        const insert = prepare(INSERT_ADDRESS_ROW_SQL);
        for (const r of rows) {
          insert.run(
            r.addressId,
            r.transferId,
            r.seq,
            r.createdAt,
            r.updatedAt,
            r.startTime,
            r.endTime,
            r.sendAmountKey,
            r.receiveAmountKey,
          );
        }
      },
      async lockAddressStats(keys) {
        // SQLite has one writer at a time (BEGIN IMMEDIATE): reading is enough.
        assertOpen();
        const json = JSON.stringify(keys);
        prepare(CREATE_STATS_SQL).run(json);
        const rows = prepare(READ_STATS_SQL).all(json) as Record<string, unknown>[];
        return new Map(
          rows.map((row): [string, AddressStats] => [
            String(row.address_key),
            {
              addressId: Number(row.address_id),
              addressKey: String(row.address_key),
              total: Number(row.total),
              lastCreatedAt: String(row.last_created_at),
              lastId: Number(row.last_id),
            },
          ]),
        );
      },
      async writeAddressStats(stats) {
        assertOpen();
        const update = prepare(WRITE_STATS_SQL);
        for (const s of stats) update.run(s.total, s.lastCreatedAt, s.lastId, s.addressId);
      },
    },
  };
}
