import type { Migration } from "./migration.js";

/**
 * The indexer's tables (src/store/indexer-repository.ts):
 * - indexer_chains: one row per chain; cursor_block is the last block whose events are fully
 *   stored (cursor_block <= head_block - confirmations), cursor_hash its hash; head_block and
 *   status are what /readyz and metrics show; a `serve` process reads them from here.
 * - indexer_blocks: (number, hash, parent hash) of recent blocks, to detect reorgs by comparing
 *   a stored hash with the canonical one; pruned below cursor - finality depth.
 * - raw_events: every decoded bridge event, keyed by (chain id, tx hash, log index); the
 *   transfers table is derived from these, so a reorg deletes events and derives again.
 * - token_metadata: ERC-20 symbol and decimals read once from chain.
 * Block numbers and chain ids are BIGINT on PostgreSQL (read back as strings, converted).
 */
const common = (bigint: string) => `
CREATE TABLE indexer_chains (
  chain_id ${bigint} PRIMARY KEY,
  name TEXT NOT NULL,
  start_block ${bigint} NOT NULL,
  cursor_block ${bigint} NOT NULL,
  cursor_hash TEXT NOT NULL,
  head_block ${bigint} NOT NULL,
  target_block ${bigint} NOT NULL,
  state TEXT NOT NULL,
  error TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE TABLE indexer_blocks (
  chain_id ${bigint} NOT NULL,
  block_number ${bigint} NOT NULL,
  block_hash TEXT NOT NULL,
  parent_hash TEXT NOT NULL,
  PRIMARY KEY (chain_id, block_number)
);
CREATE TABLE raw_events (
  chain_id ${bigint} NOT NULL,
  tx_hash TEXT NOT NULL,
  log_index INTEGER NOT NULL,
  block_number ${bigint} NOT NULL,
  block_hash TEXT NOT NULL,
  block_time ${bigint} NOT NULL,
  address TEXT NOT NULL,
  kind INTEGER NOT NULL,
  event_name TEXT NOT NULL,
  message_id TEXT NOT NULL,
  args TEXT NOT NULL,
  PRIMARY KEY (chain_id, tx_hash, log_index)
);
CREATE INDEX raw_events_message_id ON raw_events (message_id);
CREATE INDEX raw_events_block ON raw_events (chain_id, block_number);
CREATE TABLE token_metadata (
  chain_id ${bigint} NOT NULL,
  address TEXT NOT NULL,
  symbol TEXT NOT NULL,
  decimals INTEGER NOT NULL,
  PRIMARY KEY (chain_id, address)
);
`;

export const migration: Migration = {
  version: 3,
  name: "indexer",
  sqlite: common("INTEGER"),
  postgres: common("BIGINT"),
};
