import type { Migration } from "./migration.js";

/**
 * transfers: one row per bridge message, the 32 API fields in display form plus lookup keys.
 *   - id: internal, unique, the tie-breaker of every sort.
 *   - message_key / source_tx_key / dest_tx_key: lowercase for 0x-hex values, exact otherwise;
 *     evmHash queries compare keys, `other` queries compare key AND display value (exact).
 *     UNIQUE(message_key) is the upsert key (message ids are lowercase hex in display form, so
 *     it is UNIQUE(message_id) for every valid record, and case-insensitive for hex ids).
 *   - send_amount_key / receive_amount_key: order-preserving text form of the amounts
 *     (src/store/transfer-keys.ts amountSortKey); "" (unknown) sorts lowest.
 * address_stats: one row per address key (lowercase for EVM addresses, exact otherwise) with a
 *   small integer address_id, the total (O(1) `total`) and the greatest (created_at, id) seen,
 *   which decides whether a new row appends (seq = total + 1) or must renumber.
 * address_transfers: one row per distinct address of a transfer, carrying the sort columns so
 *   every address page is served from one index; `seq` = 1-based position of the transfer in
 *   the address's list ordered by (created_at, transfer_id), maintained at write time. Keyed by
 *   address_id, not the 42-character key: the eight indexes of this table are its whole cost,
 *   and an integer prefix keeps their entries about a third of the size. No foreign keys: the
 *   repository maintains the links, and per-row FK checks would slow bulk imports.
 * Every text column that is sorted or compared byte-wise is COLLATE "C" on PostgreSQL, so both
 * backends order identically (SQLite's default BINARY collation is byte order).
 */
const sqlite = `
CREATE TABLE transfers (
  id INTEGER PRIMARY KEY,
  message_id TEXT NOT NULL,
  source_contract TEXT NOT NULL,
  dest_contract TEXT NOT NULL,
  source_tx_hash TEXT NOT NULL,
  dest_tx_hash TEXT NOT NULL,
  from_address TEXT NOT NULL,
  to_address TEXT NOT NULL,
  send_amount TEXT NOT NULL,
  min_receive_amount TEXT NOT NULL,
  receive_amount TEXT NOT NULL,
  source_chain_name TEXT NOT NULL,
  dest_chain_name TEXT NOT NULL,
  source_token_address TEXT NOT NULL,
  source_token_decimals INTEGER NOT NULL,
  source_token_symbol TEXT NOT NULL,
  dest_token_address TEXT NOT NULL,
  dest_token_decimals INTEGER NOT NULL,
  dest_token_symbol TEXT NOT NULL,
  dest_bridge_token TEXT NOT NULL,
  dest_bridge_token_decimals INTEGER NOT NULL,
  dest_bridge_token_amount TEXT NOT NULL,
  fee_address TEXT NOT NULL,
  fee_decimals INTEGER NOT NULL,
  fee_symbol TEXT NOT NULL,
  xproto_fee TEXT NOT NULL,
  bridge_fee TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('Processing', 'Success', 'Failed')),
  subsidy_amount TEXT NOT NULL,
  start_time TEXT NOT NULL,
  end_time TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  message_key TEXT NOT NULL,
  source_tx_key TEXT NOT NULL,
  dest_tx_key TEXT NOT NULL,
  send_amount_key TEXT NOT NULL,
  receive_amount_key TEXT NOT NULL
);
CREATE UNIQUE INDEX transfers_message_key ON transfers (message_key);
CREATE INDEX transfers_source_tx_key ON transfers (source_tx_key);
CREATE INDEX transfers_dest_tx_key ON transfers (dest_tx_key);

CREATE TABLE address_stats (
  address_id INTEGER PRIMARY KEY,
  address_key TEXT NOT NULL UNIQUE,
  total INTEGER NOT NULL,
  last_created_at TEXT NOT NULL,
  last_id INTEGER NOT NULL
);

CREATE TABLE address_transfers (
  address_id INTEGER NOT NULL,
  transfer_id INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  start_time TEXT NOT NULL,
  end_time TEXT NOT NULL,
  send_amount_key TEXT NOT NULL,
  receive_amount_key TEXT NOT NULL
);
CREATE INDEX address_transfers_transfer ON address_transfers (transfer_id);
CREATE INDEX address_transfers_seq ON address_transfers (address_id, seq);
CREATE INDEX address_transfers_created_at ON address_transfers (address_id, created_at, transfer_id);
CREATE INDEX address_transfers_updated_at ON address_transfers (address_id, updated_at, transfer_id);
CREATE INDEX address_transfers_start_time ON address_transfers (address_id, start_time, transfer_id);
CREATE INDEX address_transfers_end_time ON address_transfers (address_id, end_time, transfer_id);
CREATE INDEX address_transfers_send_amount ON address_transfers (address_id, send_amount_key, transfer_id);
CREATE INDEX address_transfers_receive_amount ON address_transfers (address_id, receive_amount_key, transfer_id);
`;

const postgres = `
CREATE TABLE transfers (
  id BIGSERIAL PRIMARY KEY,
  message_id TEXT NOT NULL,
  source_contract TEXT NOT NULL,
  dest_contract TEXT NOT NULL,
  source_tx_hash TEXT NOT NULL,
  dest_tx_hash TEXT NOT NULL,
  from_address TEXT NOT NULL,
  to_address TEXT NOT NULL,
  send_amount TEXT NOT NULL,
  min_receive_amount TEXT NOT NULL,
  receive_amount TEXT NOT NULL,
  source_chain_name TEXT NOT NULL,
  dest_chain_name TEXT NOT NULL,
  source_token_address TEXT NOT NULL,
  source_token_decimals INTEGER NOT NULL,
  source_token_symbol TEXT NOT NULL,
  dest_token_address TEXT NOT NULL,
  dest_token_decimals INTEGER NOT NULL,
  dest_token_symbol TEXT NOT NULL,
  dest_bridge_token TEXT NOT NULL,
  dest_bridge_token_decimals INTEGER NOT NULL,
  dest_bridge_token_amount TEXT NOT NULL,
  fee_address TEXT NOT NULL,
  fee_decimals INTEGER NOT NULL,
  fee_symbol TEXT NOT NULL,
  xproto_fee TEXT NOT NULL,
  bridge_fee TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('Processing', 'Success', 'Failed')),
  subsidy_amount TEXT NOT NULL,
  start_time TEXT COLLATE "C" NOT NULL,
  end_time TEXT COLLATE "C" NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL,
  message_key TEXT COLLATE "C" NOT NULL,
  source_tx_key TEXT COLLATE "C" NOT NULL,
  dest_tx_key TEXT COLLATE "C" NOT NULL,
  send_amount_key TEXT COLLATE "C" NOT NULL,
  receive_amount_key TEXT COLLATE "C" NOT NULL
);
CREATE UNIQUE INDEX transfers_message_key ON transfers (message_key);
CREATE INDEX transfers_source_tx_key ON transfers (source_tx_key);
CREATE INDEX transfers_dest_tx_key ON transfers (dest_tx_key);

CREATE TABLE address_stats (
  address_id BIGSERIAL PRIMARY KEY,
  address_key TEXT COLLATE "C" NOT NULL UNIQUE,
  total INTEGER NOT NULL,
  last_created_at TEXT COLLATE "C" NOT NULL,
  last_id BIGINT NOT NULL
);

CREATE TABLE address_transfers (
  address_id BIGINT NOT NULL,
  transfer_id BIGINT NOT NULL,
  seq INTEGER NOT NULL,
  created_at TEXT COLLATE "C" NOT NULL,
  updated_at TEXT COLLATE "C" NOT NULL,
  start_time TEXT COLLATE "C" NOT NULL,
  end_time TEXT COLLATE "C" NOT NULL,
  send_amount_key TEXT COLLATE "C" NOT NULL,
  receive_amount_key TEXT COLLATE "C" NOT NULL
);
CREATE INDEX address_transfers_transfer ON address_transfers (transfer_id);
CREATE INDEX address_transfers_seq ON address_transfers (address_id, seq) INCLUDE (transfer_id);
CREATE INDEX address_transfers_created_at ON address_transfers (address_id, created_at, transfer_id) INCLUDE (seq);
CREATE INDEX address_transfers_updated_at ON address_transfers (address_id, updated_at, transfer_id);
CREATE INDEX address_transfers_start_time ON address_transfers (address_id, start_time, transfer_id);
CREATE INDEX address_transfers_end_time ON address_transfers (address_id, end_time, transfer_id);
CREATE INDEX address_transfers_send_amount ON address_transfers (address_id, send_amount_key, transfer_id);
CREATE INDEX address_transfers_receive_amount ON address_transfers (address_id, receive_amount_key, transfer_id);
`;

export const migration: Migration = { version: 1, name: "transfers", sqlite, postgres };
