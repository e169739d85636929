/**
 * EIP-55 checksumming with a memo: a backfill or an import checksums the same few bridges,
 * tokens and users hundreds of thousands of times, and viem's getAddress (keccak plus its own LRU
 * bookkeeping) showed up in profiles. Same result as getAddress, including its error for a
 * non-address. The memo is emptied when it holds `maxEntries`, which bounds memory whatever the
 * input.
 */
import { getAddress } from "viem";

export function createAddressChecksummer(maxEntries = 50_000): (address: string) => string {
  const memo = new Map<string, string>();
  return (address) => {
    let out = memo.get(address);
    if (out === undefined) {
      out = getAddress(address);
      if (memo.size >= maxEntries) memo.clear();
      memo.set(address, out);
    }
    return out;
  };
}
