/**
 * Reference model for the store tests: what listTransfers must return, computed in memory with
 * plain sorting. `order` is the insertion position of a record (= id order of the store).
 */

import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import type { SortField, SortOrder } from "../../src/store/types.js";

export interface StoredRecord {
  record: BridgeTransaction;
  order: number;
}

/** Numeric comparison of canonical decimal strings; "" is lowest. */
export function compareAmounts(a: string, b: string): number {
  if (a === b) return 0;
  if (a === "") return -1;
  if (b === "") return 1;
  const [ai = "", af = ""] = a.split(".");
  const [bi = "", bf = ""] = b.split(".");
  if (ai.length !== bi.length) return ai.length - bi.length;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const x = af.padEnd(width, "0");
  const y = bf.padEnd(width, "0");
  return x === y ? 0 : x < y ? -1 : 1;
}

function compareField(field: SortField, a: BridgeTransaction, b: BridgeTransaction): number {
  if (field === "send_amount" || field === "receive_amount") {
    return compareAmounts(a[field], b[field]);
  }
  return a[field] === b[field] ? 0 : a[field] < b[field] ? -1 : 1;
}

export function referenceSort(
  rows: readonly StoredRecord[],
  field: SortField,
  order: SortOrder,
): BridgeTransaction[] {
  const sign = order === "asc" ? 1 : -1;
  return [...rows]
    .sort((a, b) => sign * (compareField(field, a.record, b.record) || a.order - b.order))
    .map((row) => row.record);
}

function sameIgnoringStamps(a: BridgeTransaction, b: BridgeTransaction): boolean {
  const strip = (r: BridgeTransaction) => JSON.stringify({ ...r, created_at: "", updated_at: "" });
  return strip(a) === strip(b);
}

/** Keeps the latest version of each message, remembering when it was first inserted. */
export function createReferenceModel() {
  const byMessage = new Map<string, StoredRecord>();
  let next = 0;
  return {
    /** Call in the same order as the records are upserted. */
    upsert(records: readonly BridgeTransaction[]) {
      for (const record of records) {
        const existing = byMessage.get(record.message_id);
        if (existing && !sameIgnoringStamps(existing.record, record)) {
          existing.record = { ...record, created_at: existing.record.created_at };
        } else byMessage.set(record.message_id, { record, order: next++ });
      }
    },
    rows(): StoredRecord[] {
      return [...byMessage.values()];
    },
  };
}
