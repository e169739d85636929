import type { Migration } from "./migration.js";

/**
 * transfers (start_time, id): the explorer's activity reads (src/store/transfer-activity.ts)
 * across all addresses, which no address-keyed index serves: the latest transfers (ORDER BY
 * start_time DESC, id DESC LIMIT n, an index walk from the end) and the last 24 hours of the
 * summary (a range scan). start_time (the send's block time) rather than created_at: a backfill
 * stores years of history in minutes, and "the last 24 hours" means when people bridged.
 */
const STATEMENT = "CREATE INDEX transfers_start_time ON transfers (start_time, id);";

export const migration: Migration = {
  version: 8,
  name: "transfers-start-time",
  sqlite: STATEMENT,
  postgres: STATEMENT,
};
