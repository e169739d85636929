import type { Migration } from "./migration.js";

/**
 * indexer_pending: message ids whose raw events a backfill batch stored without deriving their
 * records yet (docs/indexer.md, "Deferred derivation"). While a chain is far behind its head,
 * its batches store raw events and add their ids here; the batch that catches the chain up, an
 * idle step, or the set growing past its bound derives them all at once, so a transfer whose
 * send and delivery were fetched before that is written once instead of inserted and then
 * updated. `reach`: the batch's last block plus the chain's finality depth (the change log's
 * horizon test, src/store/change-log-horizon.ts).
 */
const table = (bigint: string, text: string) => `
CREATE TABLE indexer_pending (
  message_key ${text} NOT NULL,
  chain_id ${bigint} NOT NULL,
  reach ${bigint} NOT NULL,
  PRIMARY KEY (message_key, chain_id)
);
`;

export const migration: Migration = {
  version: 14,
  name: "pending-derivation",
  sqlite: table("INTEGER", "TEXT"),
  postgres: table("BIGINT", 'TEXT COLLATE "C"'),
};
