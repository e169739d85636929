/**
 * Display formatting for the explorer page. Pure string functions (no DOM), unit-tested in Node.
 * Amounts stay strings end to end: a decimal string is regrouped, never parsed into a number,
 * so no precision is lost on 18-decimal tokens.
 */

/** What an empty field (a Processing transfer's receive amount, end time, dest hash) shows. */
export const EMPTY_VALUE = "—";

/** "1000000.123456" -> "1,000,000.123456". Anything that is not a plain decimal passes through. */
export function groupDecimal(value: string): string {
  const match = /^(-?)(\d+)(\.\d+)?$/.exec(value);
  if (!match) return value;
  const [, sign = "", whole = "", fraction = ""] = match;
  return `${sign}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}${fraction}`;
}

/** "100.5" + "USDC" -> "100.5 USDC"; an empty amount -> "—". */
export function formatAmount(amount: string, symbol: string): string {
  if (amount === "") return EMPTY_VALUE;
  return symbol === "" ? groupDecimal(amount) : `${groupDecimal(amount)} ${symbol}`;
}

/** The API's times are UTC "YYYY-MM-DD HH:MM:SS" with no zone (docs/http-api.md, API rule 2). */
export function formatUtcTime(value: string): string {
  return value === "" ? EMPTY_VALUE : `${value} UTC`;
}

/**
 * "0x9f2c5b...8c9d" for hashes and addresses long enough to need it; short values unchanged.
 * Keeps the 0x plus `head` characters and the last `tail`.
 */
export function shortenHex(value: string, head = 6, tail = 4): string {
  const prefix = value.startsWith("0x") ? 2 : 0;
  if (value.length <= prefix + head + tail + 1) return value;
  return `${value.slice(0, prefix + head)}…${value.slice(-tail)}`;
}

/** CSS modifier of a status badge; an unknown status gets the neutral badge. */
export function statusBadgeClass(status: string): string {
  switch (status) {
    case "Success":
      return "badge badge-success";
    case "Failed":
      return "badge badge-failed";
    case "Processing":
      return "badge badge-processing";
    default:
      return "badge";
  }
}

/** Bridge kinds by `signData.bridgeType` (docs/router.md). */
export const BRIDGE_KIND_NAMES: Readonly<Record<number, string>> = {
  0: "lock-and-mint",
  1: "liquidity pool",
  2: "messaging",
};

export function bridgeKindName(bridgeType: number): string {
  const name = BRIDGE_KIND_NAMES[bridgeType];
  return name === undefined ? `kind ${bridgeType}` : `${name} (kind ${bridgeType})`;
}

/** Pages for `total` items, at least 1 so the label never reads "page 1 of 0". */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
