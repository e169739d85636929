/**
 * Whether a record matches an `addressOrTxHash` classification (docs/http-api.md, API rule 3), in memory: the
 * same rule the list endpoint's SQL applies (transfer-reads.ts), for records that are not read
 * from the transfers table (the change log's, src/store/transfer-change-repository.ts).
 */
import { addressKey, hashKey } from "./transfer-keys.js";
import type { BridgeTransaction, TransferMatch } from "./types.js";

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
