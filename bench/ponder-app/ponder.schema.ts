/**
 * The Ponder baseline's tables: `transfer`, our bridge transaction record (src/domain/
 * bridge-transaction.ts) field for field, keyed by message id, without the write times
 * (created_at, updated_at), which are not derived from the chain; and `pending_outcome`, an
 * outcome whose send Ponder has not processed yet (its chains are indexed independently, so a
 * delivery can come first), applied when the send arrives.
 */
import { onchainTable } from "ponder";

export const transfer = onchainTable("transfer", (t) => ({
  message_id: t.text().primaryKey(),
  source_contract: t.text().notNull(),
  dest_contract: t.text().notNull(),
  source_tx_hash: t.text().notNull(),
  dest_tx_hash: t.text().notNull(),
  from_address: t.text().notNull(),
  to_address: t.text().notNull(),
  send_amount: t.text().notNull(),
  min_receive_amount: t.text().notNull(),
  receive_amount: t.text().notNull(),
  source_chain_name: t.text().notNull(),
  dest_chain_name: t.text().notNull(),
  source_token_address: t.text().notNull(),
  source_token_decimals: t.integer().notNull(),
  source_token_symbol: t.text().notNull(),
  dest_token_address: t.text().notNull(),
  dest_token_decimals: t.integer().notNull(),
  dest_token_symbol: t.text().notNull(),
  dest_bridge_token: t.text().notNull(),
  dest_bridge_token_decimals: t.integer().notNull(),
  dest_bridge_token_amount: t.text().notNull(),
  fee_address: t.text().notNull(),
  fee_decimals: t.integer().notNull(),
  fee_symbol: t.text().notNull(),
  xproto_fee: t.text().notNull(),
  bridge_fee: t.text().notNull(),
  status: t.text().notNull(),
  subsidy_amount: t.text().notNull(),
  start_time: t.text().notNull(),
  end_time: t.text().notNull(),
  protocol: t.text().notNull(),
  xproto_fee_address: t.text().notNull(),
  xproto_fee_decimals: t.integer().notNull(),
  xproto_fee_symbol: t.text().notNull(),
}));

export const pendingOutcome = onchainTable("pending_outcome", (t) => ({
  message_id: t.text().primaryKey(),
  delivered_chain: t.integer(),
  delivered_address: t.text(),
  delivered_tx: t.text(),
  delivered_time: t.bigint(),
  delivered_units: t.text(),
  failed_chain: t.integer(),
  failed_address: t.text(),
  failed_tx: t.text(),
  failed_time: t.bigint(),
  refunded_chain: t.integer(),
  refunded_address: t.text(),
  refunded_tx: t.text(),
  refunded_time: t.bigint(),
}));
