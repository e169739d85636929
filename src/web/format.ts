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

/** Significant digits an amount is shown with (all of its whole part are always shown). */
export const SIGNIFICANT_DIGITS = 6;
/** Fraction digits kept at least, when the value has them (cents of a stablecoin). */
export const MIN_FRACTION_DIGITS = 2;

/**
 * A decimal string for reading: grouped by thousands, rounded half-up to SIGNIFICANT_DIGITS
 * significant digits but never into its whole part, keeping at least MIN_FRACTION_DIGITS
 * fraction digits, trailing zeros dropped: "20.493790701908068847" -> "20.4938",
 * "1000000.123456" -> "1,000,000.12", "0.000123456789" -> "0.000123457". Exact: the digits are
 * rounded as a bigint, never through a JS number. Anything that is not a plain decimal passes
 * through unchanged.
 */
export function readableDecimal(value: string): string {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match) return value;
  const whole = (match[1] ?? "0").replace(/^0+(?=\d)/, "");
  const fraction = match[2] ?? "";
  let keep: number;
  if (whole !== "0") {
    keep = Math.max(MIN_FRACTION_DIGITS, SIGNIFICANT_DIGITS - whole.length);
  } else {
    const leadingZeros = /^0*/.exec(fraction)?.[0].length ?? 0;
    keep = leadingZeros === fraction.length ? 0 : leadingZeros + SIGNIFICANT_DIGITS;
  }
  if (fraction.length <= keep) return groupDecimal(trimFraction(whole, fraction));
  const kept = BigInt(whole + fraction.slice(0, keep));
  const roundUp = fraction.charCodeAt(keep) >= 53; // the next digit is 5 or more
  const digits = (kept + (roundUp ? 1n : 0n)).toString().padStart(keep + 1, "0");
  const point = digits.length - keep;
  return groupDecimal(trimFraction(digits.slice(0, point), digits.slice(point)));
}

function trimFraction(whole: string, fraction: string): string {
  const trimmed = fraction.replace(/0+$/, "");
  return trimmed === "" ? whole : `${whole}.${trimmed}`;
}

/** "100.5" + "USDC" -> "100.5 USDC" (readable, readableDecimal); an empty amount -> "—". */
export function formatAmount(amount: string, symbol: string): string {
  if (amount === "") return EMPTY_VALUE;
  return symbol === "" ? readableDecimal(amount) : `${readableDecimal(amount)} ${symbol}`;
}

/** The exact amount, as the API gave it, with its symbol: the hover text and what a copy takes. */
export function exactAmount(amount: string, symbol: string): string {
  if (amount === "") return "";
  return symbol === "" ? amount : `${amount} ${symbol}`;
}

/** "45 s", "2 min 5 s", "1 h 3 min"; null -> "—". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds < 0) return EMPTY_VALUE;
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 === 0 ? `${s / 60} min` : `${Math.floor(s / 60)} min ${s % 60} s`;
  const minutes = Math.floor((s % 3600) / 60);
  return minutes === 0 ? `${Math.floor(s / 3600)} h` : `${Math.floor(s / 3600)} h ${minutes} min`;
}

/** A ratio 0..1 as a percentage with one decimal; null -> "—". */
export function formatPercent(ratio: number | null): string {
  return ratio === null ? EMPTY_VALUE : `${(ratio * 100).toFixed(1)} %`;
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

/** The API's "YYYY-MM-DD HH:MM:SS" (UTC) as epoch milliseconds; NaN when it is not one. */
export function utcMillis(value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match) return Number.NaN;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y as number, (mo as number) - 1, d, h, mi, s);
}

/**
 * "just now", "45 s ago", "3 min ago", "2 h ago", "5 d ago" (and "in 2 min" for a time ahead of
 * this clock, which a skewed client clock can give); "" for an empty or unreadable time.
 */
export function relativeTime(value: string, nowMs: number): string {
  const at = utcMillis(value);
  if (Number.isNaN(at)) return value === "" ? "" : value;
  const seconds = Math.round((nowMs - at) / 1000);
  const size = Math.abs(seconds);
  const text =
    size < 60
      ? `${size} s`
      : size < 3600
        ? `${Math.floor(size / 60)} min`
        : size < 86_400
          ? `${Math.floor(size / 3600)} h`
          : `${Math.floor(size / 86_400)} d`;
  if (size < 5) return "just now";
  return seconds >= 0 ? `${text} ago` : `in ${text}`;
}

/**
 * Compares two decimal strings by value, exactly (no JS number): -1, 0 or 1. Non-decimals
 * (an empty amount) sort before every number.
 */
export function compareDecimal(a: string, b: string): number {
  const parse = (v: string) => /^(\d+)(?:\.(\d+))?$/.exec(v);
  const x = parse(a);
  const y = parse(b);
  if (!x || !y) return x ? 1 : y ? -1 : 0;
  const scale = Math.max((x[2] ?? "").length, (y[2] ?? "").length);
  const big = (m: RegExpExecArray) => BigInt((m[1] ?? "0") + (m[2] ?? "").padEnd(scale, "0"));
  const d = big(x) - big(y);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

/** The record's `protocol` (absent on records of servers before it existed: "reference"). */
export const PROTOCOL_LABELS: Readonly<Record<string, string>> = {
  reference: "Reference",
  "layerzero-oft": "LayerZero OFT",
  cctp: "CCTP",
  across: "Across",
};

export function protocolOf(record: { protocol?: string }): string {
  return typeof record.protocol === "string" && record.protocol !== ""
    ? record.protocol
    : "reference";
}

export function protocolLabel(protocol: string): string {
  return PROTOCOL_LABELS[protocol] ?? protocol;
}

/**
 * A colour hue (0-359) for a chain or token name: the same name always gets the same colour,
 * so a chain is recognised at a glance across rows and pages.
 */
export function nameHue(name: string): number {
  let hash = 0;
  for (const char of name.toLowerCase()) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return hash % 360;
}

/** A chain's name for people when the server gives none: "alpha" -> "Alpha". */
export function titleCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export type SearchKind = "address" | "hash" | "message id" | "invalid";

/** What a search text is, by the list endpoint's rules (docs/http-api.md, addressOrTxHash). */
export function searchKind(q: string): SearchKind {
  if (/^0x[0-9a-fA-F]{40}$/.test(q)) return "address";
  if (/^0x[0-9a-fA-F]{64}$/.test(q)) return "hash";
  if (/^[A-Za-z0-9:_-]{1,128}$/.test(q)) return "message id";
  return "invalid";
}

/** What the page says for a search text the API would refuse (no parameter names or rules). */
export function invalidSearchMessage(q: string): string {
  const shown = q.length > 24 ? `${q.slice(0, 24)}…` : q;
  if (/^0x[0-9a-fA-F]*$/i.test(q)) {
    return `“${shown}” is not a complete address or hash: an address has 40 characters after 0x, a transaction hash or message id 64.`;
  }
  return `“${shown}” is not something we can search for. Paste an address (0x…, 42 characters), a transaction hash or a message id.`;
}
