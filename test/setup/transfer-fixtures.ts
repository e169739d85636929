/**
 * Valid BridgeTransaction records for tests. makeTransfer(overrides) fills every field with
 * valid, distinct values (EIP-55 addresses, lowercase hashes, canonical amounts) derived from a
 * counter, so each call without a message_id override yields a new message.
 */
import { createHash } from "node:crypto";
import { getAddress } from "viem";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";

let counter = 0;

/** Deterministic 32-byte lowercase hex derived from a label. */
export function hexHash(label: string): string {
  return `0x${createHash("sha256").update(label).digest("hex")}`;
}

/** Deterministic EIP-55 address derived from a label. */
export function evmAddress(label: string): string {
  return getAddress(
    `0x${createHash("sha256").update(`address:${label}`).digest("hex").slice(0, 40)}`,
  );
}

/** "YYYY-MM-DD HH:MM:SS" for `seconds` after 2026-01-01 00:00:00 UTC. */
export function timeAt(seconds: number): string {
  const date = new Date(Date.UTC(2026, 0, 1) + seconds * 1000);
  return date.toISOString().slice(0, 19).replace("T", " ");
}

export function makeTransfer(overrides: Partial<BridgeTransaction> = {}): BridgeTransaction {
  const n = ++counter;
  const base: BridgeTransaction = {
    message_id: hexHash(`message:${n}`),
    source_contract: evmAddress("source-bridge"),
    dest_contract: evmAddress("dest-bridge"),
    source_tx_hash: hexHash(`source-tx:${n}`),
    dest_tx_hash: hexHash(`dest-tx:${n}`),
    from_address: evmAddress(`from:${n}`),
    to_address: evmAddress(`to:${n}`),
    send_amount: "100.5",
    min_receive_amount: "99",
    receive_amount: "99.75",
    source_chain_name: "devnet-a",
    dest_chain_name: "devnet-b",
    source_token_address: evmAddress("usdc-a"),
    source_token_decimals: 6,
    source_token_symbol: "USDC",
    dest_token_address: evmAddress("usdc-b"),
    dest_token_decimals: 18,
    dest_token_symbol: "USDC",
    dest_bridge_token: evmAddress("bridge-usdc-b"),
    dest_bridge_token_decimals: 18,
    dest_bridge_token_amount: "99.75",
    fee_address: evmAddress("usdc-a"),
    fee_decimals: 6,
    fee_symbol: "USDC",
    xproto_fee: "0.25",
    bridge_fee: "0.5",
    status: "Success",
    subsidy_amount: "0",
    start_time: timeAt(n * 10),
    end_time: timeAt(n * 10 + 5),
    created_at: timeAt(n * 10 + 1),
    updated_at: timeAt(n * 10 + 6),
    protocol: "reference",
    xproto_fee_address: evmAddress("usdc-a"),
    xproto_fee_decimals: 6,
    xproto_fee_symbol: "USDC",
  };
  // The messaging fee is in the fee token (the reference protocol) unless overridden.
  const record = { ...base, ...overrides };
  return {
    ...record,
    xproto_fee_address: overrides.xproto_fee_address ?? record.fee_address,
    xproto_fee_decimals: overrides.xproto_fee_decimals ?? record.fee_decimals,
    xproto_fee_symbol: overrides.xproto_fee_symbol ?? record.fee_symbol,
  };
}

/** A Processing transfer: no destination outcome yet, so those fields are "". */
export function makeProcessingTransfer(
  overrides: Partial<BridgeTransaction> = {},
): BridgeTransaction {
  return makeTransfer({
    status: "Processing",
    dest_tx_hash: "",
    receive_amount: "",
    dest_bridge_token_amount: "",
    end_time: "",
    ...overrides,
  });
}
