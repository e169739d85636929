/**
 * Mapping between the API record and table rows. The column order of `transfers` (after the
 * internal id) is TRANSFER_FIELDS followed by TRANSFER_KEY_COLUMNS.
 */

import {
  type BridgeTransaction,
  TRANSFER_FIELDS,
  type TransferStatus,
} from "../domain/bridge-transaction.js";
import { addressKey, amountSortKey, hashKey } from "./transfer-keys.js";

export const TRANSFER_KEY_COLUMNS = [
  "message_key",
  "source_tx_key",
  "dest_tx_key",
  "send_amount_key",
  "receive_amount_key",
] as const;

export const TRANSFER_COLUMNS = [...TRANSFER_FIELDS, ...TRANSFER_KEY_COLUMNS] as const;

const NUMBER_FIELDS = new Set<string>([
  "source_token_decimals",
  "dest_token_decimals",
  "dest_bridge_token_decimals",
  "fee_decimals",
  "xproto_fee_decimals",
]);

export function isNumberField(field: string): boolean {
  return NUMBER_FIELDS.has(field);
}

/** Values for TRANSFER_COLUMNS, in that order. */
export function transferRowValues(record: BridgeTransaction): (string | number)[] {
  const values: (string | number)[] = TRANSFER_FIELDS.map((field) => record[field]);
  values.push(
    hashKey(record.message_id),
    hashKey(record.source_tx_hash),
    hashKey(record.dest_tx_hash),
    amountSortKey(record.send_amount),
    amountSortKey(record.receive_amount),
  );
  return values;
}

/** Builds the API record from a row holding at least the TRANSFER_FIELDS columns. */
export function transferFromRow(row: Record<string, unknown>): BridgeTransaction {
  const record: Record<string, string | number> = {};
  for (const field of TRANSFER_FIELDS) {
    const value = row[field];
    record[field] = NUMBER_FIELDS.has(field) ? Number(value) : String(value);
  }
  return record as unknown as BridgeTransaction & { status: TransferStatus };
}

/**
 * True when `next` would change nothing visible except the timestamps the service itself
 * stamps: created_at is immutable once stored, and updated_at alone does not make a change
 * (ingesting the same event twice changes nothing, docs/http-api.md, API rule 7).
 */
export function sameTransferContent(stored: BridgeTransaction, next: BridgeTransaction): boolean {
  for (const field of TRANSFER_FIELDS) {
    if (field === "created_at" || field === "updated_at") continue;
    if (stored[field] !== next[field]) return false;
  }
  return true;
}

/** Distinct address keys of a transfer (one when from == to); "" is never indexed. */
export function transferAddressKeys(record: BridgeTransaction): string[] {
  const keys = new Set<string>();
  for (const address of [record.from_address, record.to_address]) {
    if (address !== "") keys.add(addressKey(address));
  }
  return [...keys];
}
