import {
  apiColumnChanged,
  FIELDS_0007,
  postgresRecord,
  sqliteRecord,
} from "./0007-transfer-changes.js";
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
const FIELDS_0011 = [
  ...FIELDS_0007,
  "protocol",
  "xproto_fee_address",
  "xproto_fee_decimals",
  "xproto_fee_symbol",
] as const;
const NUMBER_FIELDS_0011: ReadonlySet<string> = new Set([
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

const SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')";

const sqlite = `
DROP TRIGGER transfers_log_insert;
DROP TRIGGER transfers_log_update;
DROP TRIGGER transfers_log_delete;
${addColumns}
UPDATE transfer_changes SET record = substr(record, 1, length(record) - 1)
  || ',"protocol":"reference","xproto_fee_address":' || json_quote(json_extract(record, '$.fee_address'))
  || ',"xproto_fee_decimals":' || json_extract(record, '$.fee_decimals')
  || ',"xproto_fee_symbol":' || json_quote(json_extract(record, '$.fee_symbol')) || '}';
CREATE TRIGGER transfers_log_insert AFTER INSERT ON transfers
BEGIN
  INSERT INTO transfer_changes (message_id, change_type, record, changed_at)
  VALUES (NEW.message_id, 'created', ${sqliteRecord("NEW", FIELDS_0011)}, ${SQLITE_NOW});
END;
CREATE TRIGGER transfers_log_update AFTER UPDATE ON transfers
WHEN ${apiColumnChanged("IS NOT", FIELDS_0011)}
BEGIN
  INSERT INTO transfer_changes (message_id, change_type, record, changed_at)
  VALUES (NEW.message_id, 'updated', ${sqliteRecord("NEW", FIELDS_0011)}, ${SQLITE_NOW});
END;
CREATE TRIGGER transfers_log_delete AFTER DELETE ON transfers
BEGIN
  INSERT INTO transfer_changes (message_id, change_type, record, changed_at)
  VALUES (OLD.message_id, 'removed', ${sqliteRecord("OLD", FIELDS_0011)}, ${SQLITE_NOW});
END;
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
CREATE OR REPLACE FUNCTION bridge_oracle_log_transfer_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r transfers;
BEGIN
  LOCK TABLE transfer_changes IN EXCLUSIVE MODE;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO transfer_changes (message_id, change_type, record, changed_at)
  VALUES (
    r.message_id,
    CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END,
    ${postgresRecord("r", FIELDS_0011, (f) => NUMBER_FIELDS_0011.has(f))},
    to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')
  );
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER transfers_log_insert AFTER INSERT ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
CREATE CONSTRAINT TRIGGER transfers_log_update AFTER UPDATE ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (${apiColumnChanged("IS DISTINCT FROM", FIELDS_0011)})
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
CREATE CONSTRAINT TRIGGER transfers_log_delete AFTER DELETE ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
`;

export const migration: Migration = { version: 11, name: "record-protocol", sqlite, postgres };
