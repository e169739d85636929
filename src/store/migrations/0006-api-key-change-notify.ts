import type { Migration } from "./migration.js";

/**
 * PostgreSQL: every change of the key-set version (a key created, revoked, renamed, deleted)
 * sends NOTIFY bridge_oracle_api_keys when its transaction commits. Each API process LISTENs
 * and reloads its keys at once, so a revoked key stops working in milliseconds everywhere
 * instead of at the next 500 ms version poll (which stays, for when the listening connection is
 * down). SQLite has no notification between processes: there the poll alone applies changes.
 */
export const API_KEYS_CHANGED_CHANNEL = "bridge_oracle_api_keys";

export const migration: Migration = {
  version: 6,
  name: "api-key-change-notify",
  sqlite: "",
  postgres: `
CREATE FUNCTION bridge_oracle_notify_api_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('${API_KEYS_CHANGED_CHANNEL}', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER api_key_set_version_changed
  AFTER UPDATE ON api_key_set_version
  FOR EACH STATEMENT EXECUTE FUNCTION bridge_oracle_notify_api_keys();
`,
};
