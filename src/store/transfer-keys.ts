/**
 * Derived lookup and sort keys stored beside the display values of a transfer. Pure functions,
 * shared by both backends so that SQLite and PostgreSQL store byte-identical keys.
 */
import { canonicalDecimal } from "../amount.js";

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const EVM_HASH = /^0x[0-9a-fA-F]{64}$/;

export function isEvmAddressShaped(value: string): boolean {
  return EVM_ADDRESS.test(value);
}

/** Lowercase for EVM addresses (case-insensitive matching), the exact value otherwise. */
export function addressKey(address: string): string {
  return EVM_ADDRESS.test(address) ? address.toLowerCase() : address;
}

/** Lowercase for 32-byte hex values (tx hashes, message ids), the exact value otherwise. */
export function hashKey(hash: string): string {
  return EVM_HASH.test(hash) ? hash.toLowerCase() : hash;
}

/**
 * Order-preserving text key of a decimal amount, exact at any precision: two digits giving the
 * length of the integer part, the integer digits, then the fractional digits without trailing
 * zeros. Byte order of keys = numeric order of amounts, across tokens of any decimals:
 *   "0.000001" -> "010000001" < "1" -> "011" < "9.5" -> "0195" < "10" -> "0210".
 * A longer integer part means a larger number (canonical form has no leading zeros); with equal
 * lengths the digits compare in place, and a key that is a prefix of another is the smaller.
 * "" (unknown) maps to "" and so sorts lowest. Shorter than a fixed-width 96-digit key, which
 * keeps the amount indexes small.
 */
export function amountSortKey(amount: string): string {
  if (amount === "") return "";
  const [whole = "0", fraction = ""] = canonicalDecimal(amount).split(".");
  if (whole.length > 99) throw new RangeError(`amount too large to index: ${amount}`);
  return String(whole.length).padStart(2, "0") + whole + fraction;
}
