/**
 * EIP-55 checksumming with a memo: a backfill checksums the same few bridges, tokens and users
 * hundreds of thousands of times, and viem's getAddress (keccak plus its own LRU bookkeeping)
 * showed up in profiles. Same result as getAddress, including its error for a non-address.
 */
import { getAddress } from "viem";

const MAX_ENTRIES = 50_000;

export function createAddressChecksummer(): (address: string) => string {
  const memo = new Map<string, string>();
  return (address) => {
    let out = memo.get(address);
    if (out === undefined) {
      out = getAddress(address);
      if (memo.size >= MAX_ENTRIES) memo.clear();
      memo.set(address, out);
    }
    return out;
  };
}
