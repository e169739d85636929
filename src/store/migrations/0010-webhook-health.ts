import type { Migration } from "./migration.js";

/**
 * Webhook health as /metrics reports it (docs/operations.md, "Metrics"; src/store/
 * webhook-health-repository.ts). The API reads it from the database, as the delivery processes
 * serve no HTTP of their own.
 *
 * webhook_delivery_processes: one row per running delivery process (`deliver`, or inside
 *   `start`), on either store: `process` names it (host:pid:random), `heartbeat_at` (epoch ms)
 *   is written every few seconds; a clean stop deletes the row, a killed one leaves it to go
 *   stale (and to be deleted by a later heartbeat of any process).
 * webhook_delivery_counts: running totals the delivery processes add to in the transaction that
 *   records their attempts' outcomes, so they are exact across processes and restarts: attempts
 *   by outcome and the histogram of delivery latency (from the change's commit to its 2xx).
 *   `name` is the series (`attempts:delivered`, `latency_bucket:0.5`, `latency_sum_ms`, ...).
 */
export const migration: Migration = {
  version: 10,
  name: "webhook-health",
  sqlite: `
CREATE TABLE webhook_delivery_processes (
  process TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
);
CREATE TABLE webhook_delivery_counts (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
`,
  postgres: `
CREATE TABLE webhook_delivery_processes (
  process TEXT COLLATE "C" PRIMARY KEY,
  host TEXT COLLATE "C" NOT NULL,
  pid INTEGER NOT NULL,
  started_at BIGINT NOT NULL,
  heartbeat_at BIGINT NOT NULL
);
CREATE TABLE webhook_delivery_counts (
  name TEXT COLLATE "C" PRIMARY KEY,
  value BIGINT NOT NULL
);
`,
};
