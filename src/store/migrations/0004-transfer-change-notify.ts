import type { Migration } from "./migration.js";

/**
 * PostgreSQL: every statement that changes `transfers` sends NOTIFY bridge_oracle_transfers,
 * delivered when (and only if) its transaction commits. API processes LISTEN to it to know when
 * cached list answers go stale (Store.changeCounter, src/api/response-cache.ts). A statement-level
 * trigger: one notification per statement, and PostgreSQL folds duplicates within a transaction.
 * SQLite needs nothing: its readers see other connections' commits in PRAGMA data_version.
 */
export const TRANSFERS_CHANGED_CHANNEL = "bridge_oracle_transfers";

export const migration: Migration = {
  version: 4,
  name: "transfer-change-notify",
  sqlite: "",
  postgres: `
CREATE FUNCTION bridge_oracle_notify_transfers() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${TRANSFERS_CHANGED_CHANNEL}', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER transfers_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON transfers
  FOR EACH STATEMENT EXECUTE FUNCTION bridge_oracle_notify_transfers();
`,
};
