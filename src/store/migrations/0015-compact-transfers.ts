import { FIELDS_0012, NUMBER_FIELDS_0012 } from "./0012-record-protocol.js";
import type { Migration } from "./migration.js";

/**
 * A smaller `transfers` row (issue 43: 1,000,000 records in at most 1.5 GB on SQLite; they took
 * 2.2 GB, the records themselves most of it). docs/store.md, "Schema", gives the decision.
 *
 * - transfer_routes: the fields a record shares with every other transfer of its route (the
 *   contracts, chain names, tokens and their decimals and symbols, the protocol), one row per
 *   distinct combination; `transfers.route_id` points to it. About 380 of a record's 980 bytes
 *   came from a few hundred to a few thousand combinations.
 * - message_key, source_tx_key, dest_tx_key: generated from message_id and the two tx hashes by
 *   hashKey's rule (src/store/transfer-keys.ts) instead of written: VIRTUAL on SQLite (only
 *   their indexes hold them, about 200 bytes a record less), STORED on PostgreSQL (no virtual
 *   columns before version 18; there the writers are simply spared them). Same names, same
 *   indexes, the same upsert key.
 * - transfer_records: a view with the record's every field, keys and route_id: what readers read.
 * The change-log triggers (0007, 0012, 0013) log the same JSON, the route's fields read from
 * transfer_routes. The triggers are dropped while the rows move (nothing changed for a reader).
 */
export const ROUTE_FIELDS_0015 = [
  "protocol",
  "source_contract",
  "dest_contract",
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
  "fee_address",
  "fee_decimals",
  "fee_symbol",
  "xproto_fee_address",
  "xproto_fee_decimals",
  "xproto_fee_symbol",
] as const;
const ROUTE = new Set<string>(ROUTE_FIELDS_0015);

/** The record's fields that stay in `transfers`, in TRANSFER_FIELDS order. */
const OWN_FIELDS = FIELDS_0012.filter((f) => !ROUTE.has(f));

/** hashKey (transfer-keys.ts) in SQL: lowercase for "0x" + 64 hex digits, else the value. */
export function hashKeySql(column: string): string {
  return (
    `CASE WHEN length(${column}) = 66 AND substr(${column}, 1, 2) = '0x'` +
    ` AND ltrim(substr(${column}, 3), '0123456789abcdefABCDEF') = '' THEN lower(${column})` +
    ` ELSE ${column} END`
  );
}

const KEYS: [string, string][] = [
  ["message_key", "message_id"],
  ["source_tx_key", "source_tx_hash"],
  ["dest_tx_key", "dest_tx_hash"],
];

const routeTable = (id: string, text: string) => `
CREATE TABLE transfer_routes (
  id ${id},
${ROUTE_FIELDS_0015.map((f) => `  ${f} ${NUMBER_FIELDS_0012.has(f) ? "INTEGER" : text} NOT NULL`).join(",\n")},
  UNIQUE (${ROUTE_FIELDS_0015.join(", ")})
);
INSERT INTO transfer_routes (${ROUTE_FIELDS_0015.join(", ")})
  SELECT DISTINCT ${ROUTE_FIELDS_0015.join(", ")} FROM transfers;
`;

const routeJoin = (t: string, r: string) =>
  ROUTE_FIELDS_0015.map((f) => `${r}.${f} = ${t}.${f}`).join(" AND ");

const view = `
CREATE VIEW transfer_records AS SELECT t.id,
  ${FIELDS_0012.map((f) => (ROUTE.has(f) ? `r.${f}` : `t.${f}`)).join(", ")},
  t.message_key, t.source_tx_key, t.dest_tx_key, t.send_amount_key, t.receive_amount_key, t.route_id
FROM transfers t JOIN transfer_routes r ON r.id = t.route_id;
`;

const keyIndexes = `
CREATE UNIQUE INDEX transfers_message_key ON transfers (message_key);
CREATE INDEX transfers_source_tx_key ON transfers (source_tx_key);
CREATE INDEX transfers_dest_tx_key ON transfers (dest_tx_key);
`;

/** The record's JSON (0007's form) from `row` (transfers) and `route` (its transfer_routes row). */
function sqliteRecord(row: string, route: string): string {
  const args = FIELDS_0012.map((f) => `'${f}', ${ROUTE.has(f) ? route : row}.${f}`);
  return `json_object(${args.join(", ")})`;
}

function postgresRecord(row: string, route: string): string {
  const parts = FIELDS_0012.map((f, i) => {
    const source = `${ROUTE.has(f) ? route : row}.${f}`;
    const value = NUMBER_FIELDS_0012.has(f) ? `${source}::text` : `to_json(${source})::text`;
    return `'${i === 0 ? "{" : ","}"${f}":' || ${value}`;
  });
  return `${parts.join(" || ")} || '}'`;
}

const changed = (distinct: string) =>
  ["route_id", ...OWN_FIELDS].map((f) => `OLD.${f} ${distinct} NEW.${f}`).join(" OR ");

const SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')";
const SQLITE_GUARD = "NOT EXISTS (SELECT 1 FROM transfer_changes_paused)";
const POSTGRES_GUARD =
  "current_setting('bridge_oracle.change_log', true) IS DISTINCT FROM 'paused'";

const sqliteLog = (row: "NEW" | "OLD", type: string) => `
  INSERT INTO transfer_changes (message_id, change_type, record, changed_at)
  SELECT ${row}.message_id, '${type}', ${sqliteRecord(row, "r")}, ${SQLITE_NOW}
  FROM transfer_routes r WHERE r.id = ${row}.route_id;`;

const SQLITE_COLUMNS = [
  "id INTEGER PRIMARY KEY",
  ...OWN_FIELDS.map((f) =>
    f === "status"
      ? "status TEXT NOT NULL CHECK (status IN ('Processing', 'Success', 'Failed'))"
      : `${f} TEXT NOT NULL`,
  ),
  "send_amount_key TEXT NOT NULL",
  "receive_amount_key TEXT NOT NULL",
  "route_id INTEGER NOT NULL",
  ...KEYS.map(([key, column]) => `${key} TEXT GENERATED ALWAYS AS (${hashKeySql(column)}) VIRTUAL`),
];
const COPIED = ["id", ...OWN_FIELDS, "send_amount_key", "receive_amount_key"];

const sqlite = `
DROP TRIGGER transfers_log_insert;
DROP TRIGGER transfers_log_update;
DROP TRIGGER transfers_log_delete;
${routeTable("INTEGER PRIMARY KEY", "TEXT")}
CREATE TABLE transfers_compact (
  ${SQLITE_COLUMNS.join(",\n  ")}
);
INSERT INTO transfers_compact (${COPIED.join(", ")}, route_id)
  SELECT ${COPIED.map((c) => `t.${c}`).join(", ")}, r.id
  FROM transfers t JOIN transfer_routes r ON ${routeJoin("t", "r")} ORDER BY t.id;
DROP TABLE transfers;
ALTER TABLE transfers_compact RENAME TO transfers;
${keyIndexes}
CREATE INDEX transfers_start_time ON transfers (start_time, id);
${view}
CREATE TRIGGER transfers_log_insert AFTER INSERT ON transfers
WHEN ${SQLITE_GUARD}
BEGIN${sqliteLog("NEW", "created")}
END;
CREATE TRIGGER transfers_log_update AFTER UPDATE ON transfers
WHEN ${SQLITE_GUARD} AND (${changed("IS NOT")})
BEGIN${sqliteLog("NEW", "updated")}
END;
CREATE TRIGGER transfers_log_delete AFTER DELETE ON transfers
WHEN ${SQLITE_GUARD}
BEGIN${sqliteLog("OLD", "removed")}
END;
`;

const postgres = `
DROP TRIGGER transfers_log_insert ON transfers;
DROP TRIGGER transfers_log_update ON transfers;
DROP TRIGGER transfers_log_delete ON transfers;
${routeTable("SERIAL PRIMARY KEY", 'TEXT COLLATE "C"')}
ALTER TABLE transfers ADD COLUMN route_id INTEGER;
UPDATE transfers t SET route_id = r.id FROM transfer_routes r WHERE ${routeJoin("t", "r")};
ALTER TABLE transfers ALTER COLUMN route_id SET NOT NULL,
  ${[...ROUTE_FIELDS_0015, ...KEYS.map(([key]) => key)].map((c) => `DROP COLUMN ${c}`).join(",\n  ")},
  ${KEYS.map(([key, column]) => `ADD COLUMN ${key} TEXT COLLATE "C" GENERATED ALWAYS AS ((${hashKeySql(column)}) COLLATE "C") STORED`).join(",\n  ")};
${keyIndexes}
${view}
CREATE OR REPLACE FUNCTION bridge_oracle_log_transfer_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r transfers;
  rt transfer_routes;
BEGIN
  LOCK TABLE transfer_changes IN EXCLUSIVE MODE;
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  SELECT * INTO rt FROM transfer_routes WHERE id = r.route_id;
  INSERT INTO transfer_changes (message_id, change_type, record, changed_at)
  VALUES (
    r.message_id,
    CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'updated' ELSE 'removed' END,
    ${postgresRecord("r", "rt")},
    to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')
  );
  RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER transfers_log_insert AFTER INSERT ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (${POSTGRES_GUARD})
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
CREATE CONSTRAINT TRIGGER transfers_log_update AFTER UPDATE ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (${POSTGRES_GUARD} AND (${changed("IS DISTINCT FROM")}))
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
CREATE CONSTRAINT TRIGGER transfers_log_delete AFTER DELETE ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (${POSTGRES_GUARD})
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
`;

export const migration: Migration = { version: 15, name: "compact-transfers", sqlite, postgres };
