import { apiColumnChanged, sqliteTriggers } from "./0007-transfer-changes.js";
import { FIELDS_0012 } from "./0012-record-protocol.js";
import type { Migration } from "./migration.js";

/**
 * The change log's horizon (docs/push.md, "History nobody subscribed to"): changes that no
 * stream or webhook can ever be owed get no change-log row.
 *
 * transfer_changes_horizon (one row):
 *   - subscribed_at: when the first stream was opened or the first webhook subscription created
 *     on this database (UTC 'YYYY-MM-DD HH:MM:SS.mmm'); NULL while there has been none;
 *   - chain_heads: JSON object chain id -> the head block the indexer had stored for that chain
 *     at that moment: every event at or below it was on chain before anyone subscribed;
 *   - unlogged_commits (SQLite): bumped by each transaction that changed transfers with the log
 *     paused, so the change counter (list cache, stream wake-up) still sees it.
 * A database whose log was ever written, or that holds a webhook subscription, counts as
 * subscribed from the beginning (chain_heads '{}': no chain's history is exempt).
 *
 * The triggers of 0012 come back guarded: nothing is logged while the writing transaction has
 * paused the log (SQLite: a row in transfer_changes_paused, inserted and deleted inside the
 * transaction, so no other connection ever sees it; PostgreSQL: the transaction-local setting
 * bridge_oracle.change_log = 'paused'). Only the indexer's derivation and `import` pause it,
 * and only for history (src/store/change-log-horizon.ts); any other writer logs as before.
 */
const SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')";
const SQLITE_GUARD = "NOT EXISTS (SELECT 1 FROM transfer_changes_paused)";
const POSTGRES_GUARD =
  "current_setting('bridge_oracle.change_log', true) IS DISTINCT FROM 'paused'";

const sqlite = `
CREATE TABLE transfer_changes_horizon (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  subscribed_at TEXT,
  chain_heads TEXT,
  unlogged_commits INTEGER NOT NULL DEFAULT 0
);
INSERT INTO transfer_changes_horizon (id, subscribed_at, chain_heads)
SELECT 1, CASE WHEN s THEN ${SQLITE_NOW} END, CASE WHEN s THEN '{}' END FROM (SELECT
  COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'transfer_changes'), 0) > 0
  OR (SELECT through_seq FROM transfer_changes_pruned WHERE id = 1) > 0
  OR EXISTS (SELECT 1 FROM webhook_subscriptions) AS s);
CREATE TABLE transfer_changes_paused (id INTEGER PRIMARY KEY CHECK (id = 1));
DROP TRIGGER transfers_log_insert;
DROP TRIGGER transfers_log_update;
DROP TRIGGER transfers_log_delete;
${sqliteTriggers(FIELDS_0012, SQLITE_GUARD)}
`;

const postgres = `
CREATE TABLE transfer_changes_horizon (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  subscribed_at TEXT COLLATE "C",
  chain_heads TEXT,
  unlogged_commits BIGINT NOT NULL DEFAULT 0
);
INSERT INTO transfer_changes_horizon (id, subscribed_at, chain_heads)
SELECT 1, CASE WHEN s THEN to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') END,
  CASE WHEN s THEN '{}' END FROM (SELECT
  EXISTS (SELECT 1 FROM transfer_changes)
  OR (SELECT through_seq FROM transfer_changes_pruned WHERE id = 1) > 0
  OR EXISTS (SELECT 1 FROM webhook_subscriptions) AS s) x;
DROP TRIGGER transfers_log_insert ON transfers;
DROP TRIGGER transfers_log_update ON transfers;
DROP TRIGGER transfers_log_delete ON transfers;
CREATE CONSTRAINT TRIGGER transfers_log_insert AFTER INSERT ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (${POSTGRES_GUARD})
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
CREATE CONSTRAINT TRIGGER transfers_log_update AFTER UPDATE ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (${POSTGRES_GUARD} AND (${apiColumnChanged("IS DISTINCT FROM", FIELDS_0012)}))
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
CREATE CONSTRAINT TRIGGER transfers_log_delete AFTER DELETE ON transfers
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (${POSTGRES_GUARD})
  EXECUTE FUNCTION bridge_oracle_log_transfer_change();
`;

export const migration: Migration = { version: 13, name: "change-log-horizon", sqlite, postgres };
