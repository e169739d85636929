/**
 * The bridge transaction record exactly as the API returns it (docs/http-api.md, "The record"):
 * the vocabulary the store, the indexer, the API, webhooks, import and generate share.
 */
export const TRANSFER_STATUSES = ["Processing", "Success", "Failed"] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/**
 * One bridge transaction in API form. Amounts are canonical human-unit decimal strings
 * (src/amount.ts), "" where not yet known. EVM addresses are EIP-55, hashes and ids lowercase
 * hex. Times are UTC "YYYY-MM-DD HH:MM:SS", "" where not yet known.
 */
export interface BridgeTransaction {
  message_id: string;
  source_contract: string;
  dest_contract: string;
  source_tx_hash: string;
  dest_tx_hash: string;
  from_address: string;
  to_address: string;
  send_amount: string;
  min_receive_amount: string;
  receive_amount: string;
  source_chain_name: string;
  dest_chain_name: string;
  source_token_address: string;
  source_token_decimals: number;
  source_token_symbol: string;
  dest_token_address: string;
  dest_token_decimals: number;
  dest_token_symbol: string;
  dest_bridge_token: string;
  dest_bridge_token_decimals: number;
  dest_bridge_token_amount: string;
  fee_address: string;
  fee_decimals: number;
  fee_symbol: string;
  xproto_fee: string;
  bridge_fee: string;
  status: TransferStatus;
  subsidy_amount: string;
  start_time: string;
  end_time: string;
  created_at: string;
  updated_at: string;
  /**
   * Added beside the specification's fields (decisions.md 9): the protocol that carried the
   * transfer ("reference" for our own contracts), and the token the messaging fee `xproto_fee` is
   * paid in, which may differ from the fee token (LayerZero charges the native coin; for the
   * reference protocol they repeat fee_address, fee_decimals, fee_symbol).
   */
  protocol: string;
  xproto_fee_address: string;
  xproto_fee_decimals: number;
  xproto_fee_symbol: string;
}

/** Field order of the API record; also the column order of the transfers table. */
export const TRANSFER_FIELDS = [
  "message_id",
  "source_contract",
  "dest_contract",
  "source_tx_hash",
  "dest_tx_hash",
  "from_address",
  "to_address",
  "send_amount",
  "min_receive_amount",
  "receive_amount",
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
  "dest_bridge_token_amount",
  "fee_address",
  "fee_decimals",
  "fee_symbol",
  "xproto_fee",
  "bridge_fee",
  "status",
  "subsidy_amount",
  "start_time",
  "end_time",
  "created_at",
  "updated_at",
  "protocol",
  "xproto_fee_address",
  "xproto_fee_decimals",
  "xproto_fee_symbol",
] as const satisfies readonly (keyof BridgeTransaction)[];
