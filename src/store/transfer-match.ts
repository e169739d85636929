/**
 * Whether a record matches an `addressOrTxHash` classification (docs/http-api.md, API rule 3), in memory: the
 * same rule the list endpoint's SQL applies (transfer-reads.ts), for records that are not read
 * from the transfers table (the change log's, src/store/transfer-change-repository.ts).
 */

import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import { addressKey, hashKey } from "./transfer-keys.js";

/**
 * What `addressOrTxHash` was classified as (docs/http-api.md, API rule 3):
 * - evmAddress: lowercase 0x + 40 hex; matches from_address / to_address case-insensitively;
 * - evmHash: lowercase 0x + 64 hex; matches source_tx_hash / dest_tx_hash / message_id;
 * - other: exact match against all five fields (non-EVM chains).
 */
export type TransferMatch =
  | { kind: "evmAddress"; value: string }
  | { kind: "evmHash"; value: string }
  | { kind: "other"; value: string };

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_HASH = /^0x[0-9a-fA-F]{64}$/;
const OTHER_ID = /^[A-Za-z0-9:_-]{1,128}$/;

/**
 * Classifies an already trimmed addressOrTxHash; undefined when it fits no class. The list
 * endpoint, the explorer's routes and the webhook subscriptions' filters share it.
 */
export function classifyAddressOrTxHash(value: string): TransferMatch | undefined {
  if (EVM_ADDRESS.test(value)) return { kind: "evmAddress", value: value.toLowerCase() };
  if (EVM_HASH.test(value)) return { kind: "evmHash", value: value.toLowerCase() };
  if (OTHER_ID.test(value)) return { kind: "other", value };
  return undefined;
}

export function transferMatches(record: BridgeTransaction, match: TransferMatch): boolean {
  const { value } = match;
  switch (match.kind) {
    case "evmAddress":
      return addressKey(record.from_address) === value || addressKey(record.to_address) === value;
    case "evmHash":
      return (
        hashKey(record.source_tx_hash) === value ||
        hashKey(record.dest_tx_hash) === value ||
        hashKey(record.message_id) === value
      );
    case "other":
      return (
        record.from_address === value ||
        record.to_address === value ||
        record.source_tx_hash === value ||
        record.dest_tx_hash === value ||
        record.message_id === value
      );
  }
}
