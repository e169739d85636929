/**
 * Which transfers a webhook subscription receives: every one, or those involving any of its
 * addresses (as sender or recipient) or any of its hashes (the source or destination transaction
 * hash, or the message id). Values follow the list endpoint's addressOrTxHash rules
 * (docs/http-api.md, "3. Listing"): EVM addresses and 32-byte hashes match case-insensitively, other chains'
 * values exactly.
 */

import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import { classifyAddressOrTxHash, transferMatches } from "../store/transfer-match.js";

export interface SubscriptionFilter {
  /** Normalised (EVM values lowercase); empty with `txHashes` empty: every transfer. */
  readonly addresses: readonly string[];
  readonly txHashes: readonly string[];
}

export const MAX_FILTER_VALUES = 100;

export const ALL_TRANSFERS: SubscriptionFilter = Object.freeze({ addresses: [], txHashes: [] });

export class FilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FilterError";
  }
}

/** Validates and normalises a filter's values; throws FilterError naming the bad value. */
export function parseSubscriptionFilter(input: {
  addresses?: readonly string[] | undefined;
  txHashes?: readonly string[] | undefined;
}): SubscriptionFilter {
  const normalise = (name: string, values: readonly string[] | undefined, hash: boolean) => {
    if (values === undefined) return [];
    if (values.length > MAX_FILTER_VALUES) {
      throw new FilterError(`${name} may list at most ${MAX_FILTER_VALUES} values`);
    }
    const out = new Set<string>();
    for (const raw of values) {
      const value = String(raw).trim();
      const match = classifyAddressOrTxHash(value);
      const fits =
        match !== undefined && (match.kind === "other" || (match.kind === "evmHash") === hash);
      if (!fits) {
        throw new FilterError(
          hash
            ? `${name}: '${value.slice(0, 80)}' is not a transaction hash or message id (0x + 64 hex digits, or another chain's id of 1-128 characters from A-Z a-z 0-9 : _ -)`
            : `${name}: '${value.slice(0, 80)}' is not an address (0x + 40 hex digits, or another chain's address of 1-128 characters from A-Z a-z 0-9 : _ -)`,
        );
      }
      out.add(match.value);
    }
    return [...out];
  };
  return {
    addresses: normalise("addresses", input.addresses, false),
    txHashes: normalise("txHashes", input.txHashes, true),
  };
}

/**
 * Whether a transfer record is one the filter selects: any value matches it by the list
 * endpoint's rule (transferMatches).
 */
export function filterMatches(filter: SubscriptionFilter, record: BridgeTransaction): boolean {
  if (filter.addresses.length === 0 && filter.txHashes.length === 0) return true;
  return [...filter.addresses, ...filter.txHashes].some((value) => {
    const match = classifyAddressOrTxHash(value);
    return match !== undefined && transferMatches(record, match);
  });
}
