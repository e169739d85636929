import type { Migration } from "./migration.js";

/**
 * The record's fields when this migration shipped, frozen here: a migration's SQL never changes
 * (fields added later are logged by the triggers of the migration that added them, 0012).
 */
export const FIELDS_0007 = [
  "message_id",
  "source_contract",
  "dest_contract",
  "source_tx_hash",
  "dest_tx_hash",
  "from_address",
  "to_address",
  "send_amount",
  "min_receive_amount",
  "receive_amount",
  "source_chain_name",
  "dest_chain_name",
  "source_token_address",
  "source_token_decimals",
  "source_token_symbol",
  "dest_token_address",
  "dest_token_decimals",
  "dest_token_symbol",
  "dest_bridge_token",
  "dest_bridge_token_decimals",
  "dest_bridge_token_amount",
  "fee_address",
  "fee_decimals",
  "fee_symbol",
  "xproto_fee",
  "bridge_fee",
  "status",
  "subsidy_amount",
  "start_time",
  "end_time",
  "created_at",
  "updated_at",
] as const;

const NUMBER_FIELDS_0007: ReadonlySet<string> = new Set([
  "source_token_decimals",
  "dest_token_decimals",
  "dest_bridge_token_decimals",
  "fee_decimals",
]);

/**
 * transfer_changes: the change log of transfer records (docs/push.md), the one source of the
 * stream and the webhooks. Database triggers on `transfers` append to it, so every write path
 * (the indexer, import, a statement typed by hand) logs its changes in its own transaction:
 *   - seq: monotonic, never reused (SQLite AUTOINCREMENT; a PostgreSQL identity);
 *   - change_type: 'created' (a row inserted), 'updated' (one of the 32 API columns changed),
 *     'removed' (the row deleted: a reorg dropped its send);
 *   - record: the whole record at that change (the deleted one for 'removed') as JSON text in
 *     the API's field order, decimals as numbers: byte for byte what JSON.stringify makes of
 *     the list endpoint's record for the usual values (addresses, hashes, amounts, names);
 *   - changed_at: UTC 'YYYY-MM-DD HH:MM:SS.mmm', what retention prunes by.
 * transfer_changes_pruned.through_seq: every change with seq <= it has been pruned (0: none),
 *   so a reader can tell "nothing happened" from "no longer retained".
 *
 * Order (the invariant readers rely on): once a change with seq s is visible, every change that
 * will ever be visible with a smaller seq is visible too. SQLite has one writer at a time, so
 * seq order is commit order. PostgreSQL allocates identities before commit, so two concurrent
 * writers could commit out of order; there the log is written by a DEFERRED constraint trigger,
 * which runs at commit time and first takes `LOCK TABLE transfer_changes IN EXCLUSIVE MODE`
 * (held until the commit ends; SELECTs are not blocked): writers append their changes one
 * transaction at a time, in commit order. The lock is taken only in the commit phase, after every
 * other lock the transaction holds, so it adds no lock-order cycle (no deadlock).
 */

/**
 * PostgreSQL: JSON text of the record held in `row`, in TRANSFER_FIELDS order, compact as
 * JSON.stringify writes it (json_build_object would put spaces around every colon).
 */
export function postgresRecord(
  row: string,
  fields: readonly string[] = FIELDS_0007,
  isNumber: (field: string) => boolean = (f) => NUMBER_FIELDS_0007.has(f),
): string {
  const parts = fields.map((field, i) => {
    const value = isNumber(field) ? `${row}.${field}::text` : `to_json(${row}.${field})::text`;
    return `'${i === 0 ? "{" : ","}"${field}":' || ${value}`;
  });
  return `${parts.join(" || ")} || '}'`;
}

/** SQLite: json_object keeps argument order, INTEGER columns become JSON numbers. */
export function sqliteRecord(row: string, fields: readonly string[] = FIELDS_0007): string {
  return `json_object(${fields.map((field) => `'${field}', ${row}.${field}`).join(", ")})`;
}

const SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')";

export const apiColumnChanged = (distinct: string, fields: readonly string[] = FIELDS_0007) =>
  fields.map((field) => `OLD.${field} ${distinct} NEW.${field}`).join(" OR ");

/**
 * SQLite: the three triggers that log `fields` of each changed row (0012 and 0013 recreate
 * them). `guard`: a condition every trigger also requires (0013: the log is not paused).
 */
export function sqliteTriggers(fields: readonly string[], guard?: string): string {
  const when = guard === undefined ? "" : `WHEN ${guard}\n`;
  const and = guard === undefined ? "" : `${guard} AND (`;
  return `CREATE TRIGGER transfers_log_insert AFTER INSERT ON transfers
${when}BEGIN
  INSERT INTO transfer_changes (message_id, change_type, record, changed_at)
  VALUES (NEW.message_id, 'created', ${sqliteRecord("NEW", fields)}, ${SQLITE_NOW});
END;
CREATE TRIGGER transfers_log_update AFTER UPDATE ON transfers
WHEN ${and}${apiColumnChanged("IS NOT", fields)}${guard === undefined ? "" : ")"}
BEGIN
  INSERT INTO transfer_changes (message_id, change_type, record, changed_at)
  VALUES (NEW.message_id, 'updated', ${sqliteRecord("NEW", fields)}, ${SQLITE_NOW});
END;
CREATE TRIGGER transfers_log_delete AFTER DELETE ON transfers
${when}BEGIN
  INSERT INTO transfer_changes (message_id, change_type, record, changed_at)
  VALUES (OLD.message_id, 'removed', ${sqliteRecord("OLD", fields)}, ${SQLITE_NOW});
END;
`;
}

/**
 * PostgreSQL: the function and the three deferred triggers that log `fields` (`create`:
 * "CREATE" here, "CREATE OR REPLACE" when 0012 redefines the function).
 */
export function postgresTriggers(
  fields: readonly string[],
  isNumber: (field: string) => boolean,
  create: "CREATE" | "CREATE OR REPLACE",
): string {
  return `${create} FUNCTION bridge_oracle_log_transfer_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r transfers;
BEGIN
  LOCK TABLE transfer_changes IN EXCLUSIVE MODE;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO transfer_changes (message_id, change_type, record, changed_at)
  VALUES (
    r.message_id,
    CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END,
    ${postgresRecord("r", fields, isNumber)},
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
  WHEN (${apiColumnChanged("IS DISTINCT FROM", fields)})
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
CREATE CONSTRAINT TRIGGER transfers_log_delete AFTER DELETE ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
`;
}

const sqlite = `
CREATE TABLE transfer_changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  message_id TEXT NOT NULL,
  change_type TEXT NOT NULL CHECK (change_type IN ('created', 'updated', 'removed')),
  record TEXT NOT NULL,
  changed_at TEXT NOT NULL
);
CREATE TABLE transfer_changes_pruned (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  through_seq INTEGER NOT NULL
);
INSERT INTO transfer_changes_pruned (id, through_seq) VALUES (1, 0);

${sqliteTriggers(FIELDS_0007)}`;

const postgres = `
CREATE TABLE transfer_changes (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  message_id TEXT COLLATE "C" NOT NULL,
  change_type TEXT NOT NULL CHECK (change_type IN ('created', 'updated', 'removed')),
  record TEXT NOT NULL,
  changed_at TEXT COLLATE "C" NOT NULL
);
CREATE TABLE transfer_changes_pruned (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  through_seq BIGINT NOT NULL
);
INSERT INTO transfer_changes_pruned (id, through_seq) VALUES (1, 0);

${postgresTriggers(FIELDS_0007, (f) => NUMBER_FIELDS_0007.has(f), "CREATE")}`;

export const migration: Migration = { version: 7, name: "transfer-changes", sqlite, postgres };
