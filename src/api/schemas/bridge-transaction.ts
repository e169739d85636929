/**
 * JSON schema of one bridge transaction record (docs/http-api.md, "The record" and API rule 2).
 * Every field is required and nothing else is allowed, so the serialiser refuses a record whose
 * shape drifted from the documented one instead of sending it. bridge-transaction.test.ts checks
 * the property list against TRANSFER_FIELDS.
 */
import { TRANSFER_STATUSES } from "../../domain/bridge-transaction.js";

const amount = (description: string) =>
  ({
    type: "string",
    description: `${description}; human-unit decimal string, "" while unknown`,
    examples: ["1.5"],
  }) as const;
const text = (description: string) => ({ type: "string", description }) as const;
const decimals = (description: string) =>
  ({ type: "integer", minimum: 0, description, examples: [18] }) as const;
const time = (description: string) =>
  ({
    type: "string",
    description: `${description}; UTC, YYYY-MM-DD HH:MM:SS`,
    examples: ["2026-11-21 09:30:00"],
  }) as const;

const properties = {
  message_id: text("Message id (lowercase hex for EVM bridges)"),
  source_contract: text("Source contract address (EIP-55 for EVM chains)"),
  dest_contract: text("Destination contract address"),
  source_tx_hash: text("Source chain transaction hash"),
  dest_tx_hash: text('Destination chain transaction hash; "" while Processing'),
  from_address: text("Sender address (EIP-55 for EVM chains)"),
  to_address: text("Recipient address (EIP-55 for EVM chains)"),
  send_amount: amount("Sent amount"),
  min_receive_amount: amount("Minimum received amount"),
  receive_amount: {
    type: "string",
    description:
      'Received amount (destination token); human-unit decimal string, "" while Processing, "0" when Failed (nothing was delivered; the sender is refunded on the source chain)',
    examples: ["1.5"],
  },
  source_chain_name: text("Source chain name"),
  dest_chain_name: text("Destination chain name"),
  source_token_address: text("Source chain token address"),
  source_token_decimals: decimals("Source chain token decimals"),
  source_token_symbol: text("Source chain token symbol"),
  dest_token_address: text("Destination chain token address"),
  dest_token_decimals: decimals("Destination chain token decimals"),
  dest_token_symbol: text("Destination token symbol"),
  dest_bridge_token: text("Destination bridge token address"),
  dest_bridge_token_decimals: decimals("Destination bridge token decimals"),
  dest_bridge_token_amount: amount("Destination bridge token amount"),
  fee_address: text("Fee token address"),
  fee_decimals: decimals("Fee token decimals"),
  fee_symbol: text("Fee token symbol"),
  xproto_fee: amount("Third-party messaging protocol fee"),
  bridge_fee: amount("Bridge fee"),
  status: { type: "string", enum: [...TRANSFER_STATUSES], description: "Transfer status" },
  subsidy_amount: amount("Subsidy amount"),
  start_time: time("Source-chain block time of the send"),
  end_time: time('Destination-chain block time of the delivery or failure; "" while Processing'),
  created_at: time("When the service first stored the record"),
  updated_at: time("When the service last changed the record"),
  protocol: {
    type: "string",
    description:
      'The bridge protocol that carried the transfer (added beside the specification\'s fields): "reference" for the reference bridge contracts',
    examples: ["reference"],
  },
  xproto_fee_address: text(
    "Token xproto_fee is paid in (added): the fee token for the reference protocol, the native coin (0x0) where the messaging fee is paid in it",
  ),
  xproto_fee_decimals: decimals("Decimals of the xproto_fee token (added)"),
  xproto_fee_symbol: text("Symbol of the xproto_fee token (added)"),
} as const;

export const bridgeTransactionSchema = {
  $id: "BridgeTransaction",
  title: "BridgeTransaction",
  description: "One cross-chain bridge transaction. Every field is always present.",
  type: "object",
  required: Object.keys(properties) as (keyof typeof properties)[],
  additionalProperties: false,
  properties,
} as const;

export const bridgeTransactionRef = { $ref: "BridgeTransaction#" } as const;
