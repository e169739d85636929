/**
 * Exact decimal <-> base-unit conversion. This is the one place where human-unit decimal strings
 * ("1.5") become integer base units (1500000n for a 6-decimal token) and back. Money never
 * passes through a JS `number`.
 */

/** Decimal strings accepted from clients: digits, optionally a dot and more digits. */
export const DECIMAL_PATTERN = /^[0-9]+(\.[0-9]+)?$/;

export type ParseAmountFailure = "format" | "zero" | "precision";

export type ParseAmountResult =
  | { ok: true; value: bigint }
  | { ok: false; reason: ParseAmountFailure; message: string };

/**
 * Parses a human-unit decimal string into base units of a token with `decimals` decimals.
 * Rules (docs/http-api.md, API rule 1): must match DECIMAL_PATTERN, be > 0, and have no more
 * fractional digits than the token has decimals (trailing zeros count).
 */
export function parseAmount(text: string, decimals: number): ParseAmountResult {
  if (!DECIMAL_PATTERN.test(text)) {
    return {
      ok: false,
      reason: "format",
      message: "must be a decimal string of digits with an optional fraction, such as 1.5",
    };
  }
  const [whole = "0", fraction = ""] = text.split(".");
  // Every written digit counts, trailing zeros included: "1.1000000" is refused for a 6-decimal
  // token, as docs/http-api.md, API rule 1 words the rule; a client sending it has the decimals
  // wrong.
  if (fraction.length > decimals) {
    return {
      ok: false,
      reason: "precision",
      message: `has ${fraction.length} fractional digits; the token has ${decimals} decimals`,
    };
  }
  const value = BigInt(whole + fraction.padEnd(decimals, "0"));
  if (value === 0n) {
    return { ok: false, reason: "zero", message: "must be greater than zero" };
  }
  return { ok: true, value };
}

/**
 * Like parseAmount but throws; for trusted inputs (fixtures, import files already validated by
 * shape) where zero is allowed.
 */
export function toBaseUnits(text: string, decimals: number): bigint {
  if (!DECIMAL_PATTERN.test(text)) throw new RangeError(`not a decimal amount: ${text}`);
  const [whole = "0", fraction = ""] = text.split(".");
  const trimmedFraction = fraction.replace(/0+$/, "");
  if (trimmedFraction.length > decimals) {
    throw new RangeError(`${text} has more than ${decimals} fractional digits`);
  }
  return BigInt(whole + trimmedFraction.padEnd(decimals, "0"));
}

/**
 * Formats base units as a canonical human-unit decimal string: no exponent, no sign, no leading
 * zeros, no trailing fractional zeros, no trailing dot, "0" for zero.
 */
export function formatAmount(baseUnits: bigint, decimals: number): string {
  if (baseUnits < 0n) throw new RangeError("amounts are never negative");
  return formatBaseUnitDigits(baseUnits.toString(), decimals);
}

/**
 * formatAmount of base units written as decimal digits (`^[0-9]+$`, leading zeros allowed), on
 * the string itself: hot paths whose amounts already arrive as digits (decoded event arguments)
 * skip the BigInt round trip.
 */
export function formatBaseUnitDigits(digits: string, decimals: number): string {
  let first = 0;
  while (first < digits.length - 1 && digits.charCodeAt(first) === 48) first++;
  const whole = first === 0 ? digits : digits.slice(first);
  if (decimals === 0) return whole;
  const padded = whole.length > decimals ? whole : whole.padStart(decimals + 1, "0");
  const point = padded.length - decimals;
  let end = padded.length;
  while (end > point && padded.charCodeAt(end - 1) === 48) end--;
  return end > point
    ? `${padded.slice(0, point)}.${padded.slice(point, end)}`
    : padded.slice(0, point);
}

/** Canonical form of an already valid decimal string (strips leading/trailing zeros). */
export function canonicalDecimal(text: string): string {
  if (!DECIMAL_PATTERN.test(text)) throw new RangeError(`not a decimal amount: ${text}`);
  const [whole = "0", fraction = ""] = text.split(".");
  const w = whole.replace(/^0+(?=\d)/, "");
  const f = fraction.replace(/0+$/, "");
  return f.length > 0 ? `${w}.${f}` : w;
}

/** Converts base units between two decimal precisions, rounding down (never creates value). */
export function convertDecimals(
  baseUnits: bigint,
  fromDecimals: number,
  toDecimals: number,
): bigint {
  if (toDecimals >= fromDecimals) return baseUnits * 10n ** BigInt(toDecimals - fromDecimals);
  return baseUnits / 10n ** BigInt(fromDecimals - toDecimals);
}
