/**
 * Mapping between the API record and table rows. `transfers` (migration 15) holds a record's own
 * fields, the amount sort keys and `route_id`, the row of `transfer_routes` holding the fields
 * the record shares with its route (ROUTE_FIELDS); message_key, source_tx_key and dest_tx_key
 * are generated columns. The view `transfer_records` presents the whole record: readers read it.
 */

import {
  type BridgeTransaction,
  TRANSFER_FIELDS,
  type TransferStatus,
} from "../domain/bridge-transaction.js";
import { ROUTE_FIELDS_0015 } from "./migrations/0015-compact-transfers.js";
import { addressKey, amountSortKey } from "./transfer-keys.js";

/**
 * The fields of `transfer_routes`: migration 15's list while no later migration changes the
 * table (a migration's own list never changes; this one would then follow the table).
 */
export const ROUTE_FIELDS: readonly (keyof BridgeTransaction)[] = ROUTE_FIELDS_0015;

const ROUTE_FIELD_SET: ReadonlySet<string> = new Set(ROUTE_FIELDS);

export function isRouteField(field: string): boolean {
  return ROUTE_FIELD_SET.has(field);
}

/** The record's fields stored in `transfers` itself, in TRANSFER_FIELDS order. */
export const OWN_FIELDS = TRANSFER_FIELDS.filter((f) => !ROUTE_FIELD_SET.has(f));

/** The columns a writer gives a new `transfers` row (the key columns are generated). */
export const TRANSFER_COLUMNS = [
  ...OWN_FIELDS,
  "send_amount_key",
  "receive_amount_key",
  "route_id",
] as const;

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

/** The route of a record as one string (equal routes, equal strings): a map key. */
export function routeKey(route: object): string {
  const values = route as Record<string, unknown>;
  return JSON.stringify(
    ROUTE_FIELDS.map((f) => (NUMBER_FIELDS.has(f) ? Number(values[f]) : String(values[f]))),
  );
}

/** Values for TRANSFER_COLUMNS, in that order. */
export function transferRowValues(record: BridgeTransaction, routeId: number): (string | number)[] {
  const values: (string | number)[] = OWN_FIELDS.map((field) => record[field]);
  values.push(amountSortKey(record.send_amount), amountSortKey(record.receive_amount), routeId);
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
