import { FIELDS_0007, postgresTriggers, sqliteTriggers } from "./0007-transfer-changes.js";
import type { Migration } from "./migration.js";

/**
 * The record's fields added beside the specification's (decisions.md 9): `protocol`, and the
 * token of the messaging fee (`xproto_fee_address`, `_decimals`, `_symbol`). Every record stored
 * before came from the reference bridge (or an import of its kind): protocol "reference", the
 * messaging fee in the fee token. The change log's records get the same four fields, appended
 * as the triggers now write them, so a stream or webhook replaying an old change sends the
 * record's current shape. The change-log triggers are dropped while the rows are filled in (a
 * field added is no change of the transfer: nothing is logged) and come back over all fields.
 */
export const FIELDS_0012 = [
  ...FIELDS_0007,
  "protocol",
  "xproto_fee_address",
  "xproto_fee_decimals",
  "xproto_fee_symbol",
] as const;
export const NUMBER_FIELDS_0012: ReadonlySet<string> = new Set([
  "source_token_decimals",
  "dest_token_decimals",
  "dest_bridge_token_decimals",
  "fee_decimals",
  "xproto_fee_decimals",
]);

const addColumns = `
ALTER TABLE transfers ADD COLUMN protocol TEXT NOT NULL DEFAULT 'reference';
ALTER TABLE transfers ADD COLUMN xproto_fee_address TEXT NOT NULL DEFAULT '';
ALTER TABLE transfers ADD COLUMN xproto_fee_decimals INTEGER NOT NULL DEFAULT 0;
ALTER TABLE transfers ADD COLUMN xproto_fee_symbol TEXT NOT NULL DEFAULT '';
UPDATE transfers SET xproto_fee_address = fee_address, xproto_fee_decimals = fee_decimals,
  xproto_fee_symbol = fee_symbol;
`;

const sqlite = `
DROP TRIGGER transfers_log_insert;
DROP TRIGGER transfers_log_update;
DROP TRIGGER transfers_log_delete;
${addColumns}
UPDATE transfer_changes SET record = substr(record, 1, length(record) - 1)
  || ',"protocol":"reference","xproto_fee_address":' || json_quote(json_extract(record, '$.fee_address'))
  || ',"xproto_fee_decimals":' || json_extract(record, '$.fee_decimals')
  || ',"xproto_fee_symbol":' || json_quote(json_extract(record, '$.fee_symbol')) || '}';
${sqliteTriggers(FIELDS_0012)}
`;

const postgres = `
DROP TRIGGER transfers_log_insert ON transfers;
DROP TRIGGER transfers_log_update ON transfers;
DROP TRIGGER transfers_log_delete ON transfers;
${addColumns}
UPDATE transfer_changes SET record = left(record, -1)
  || ',"protocol":"reference","xproto_fee_address":' || to_json(record::json->>'fee_address')::text
  || ',"xproto_fee_decimals":' || (record::json->>'fee_decimals')
  || ',"xproto_fee_symbol":' || to_json(record::json->>'fee_symbol')::text || '}';
${postgresTriggers(FIELDS_0012, (f) => NUMBER_FIELDS_0012.has(f), "CREATE OR REPLACE")}
`;

export const migration: Migration = { version: 12, name: "record-protocol", sqlite, postgres };
