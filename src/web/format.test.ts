import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  bridgeKindName,
  exactAmount,
  formatAmount,
  formatDuration,
  formatPercent,
  formatUtcTime,
  groupDecimal,
  pageCount,
  readableDecimal,
  SIGNIFICANT_DIGITS,
  shortenHex,
  statusBadgeClass,
} from "./format.js";

describe("explorer formatting", () => {
  it("default: amounts are grouped by thousands and rounded to six significant digits, never into the whole part", () => {
    assert.equal(formatAmount("20.493790701908068847", "DAI"), "20.4938 DAI");
    assert.equal(formatAmount("1000000.123456789012345678", "WETH"), "1,000,000.12 WETH");
    assert.equal(formatAmount("999", "USDC"), "999 USDC");
    assert.equal(formatAmount("0.001", ""), "0.001");
    assert.equal(readableDecimal("0.000123456789"), "0.000123457");
    assert.equal(readableDecimal("0.000000000000000001"), "0.000000000000000001");
    assert.equal(readableDecimal("9.9999999"), "10");
    assert.equal(readableDecimal("999999.999"), "1,000,000");
    assert.equal(readableDecimal("1.5"), "1.5");
    assert.equal(groupDecimal("1234567"), "1,234,567");
    assert.equal(exactAmount("20.493790701908068847", "DAI"), "20.493790701908068847 DAI");
    assert.equal(exactAmount("", "DAI"), "");
  });

  /** value * 10^scale as a bigint, from a plain decimal string (no JS number). */
  function scaled(value: string, scale: number): bigint {
    const [whole = "0", fraction = ""] = value.replaceAll(",", "").split(".");
    return BigInt(whole + fraction.padEnd(scale, "0").slice(0, scale));
  }

  const decimalArbitrary = fc
    .tuple(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), fc.integer({ min: 0, max: 30 }))
    .map(([units, decimals]) => {
      const digits = units.toString().padStart(decimals + 1, "0");
      const point = digits.length - decimals;
      const fraction = digits.slice(point).replace(/0+$/, "");
      return fraction === "" ? digits.slice(0, point) : `${digits.slice(0, point)}.${fraction}`;
    });

  it("property: the shown value is within half a unit of its last digit of the exact value", () => {
    fc.assert(
      fc.property(decimalArbitrary, (value) => {
        const shown = readableDecimal(value);
        const shownFraction = shown.split(".")[1] ?? "";
        const scale = Math.max(shownFraction.length, (value.split(".")[1] ?? "").length) + 1;
        const error = scaled(shown, scale) - scaled(value, scale);
        const halfUnit = 5n * 10n ** BigInt(scale - shownFraction.length - 1);
        assert.ok(error <= halfUnit && -error < halfUnit, `${value} shown as ${shown}`);
      }),
    );
  });

  it("property: thousands separators only in the whole part, every group of three; digits bounded", () => {
    fc.assert(
      fc.property(decimalArbitrary, (value) => {
        const shown = readableDecimal(value);
        assert.match(shown, /^\d{1,3}(,\d{3})*(\.\d*[1-9])?$/, `${value} shown as ${shown}`);
        const [whole = "", fraction = ""] = shown.replaceAll(",", "").split(".");
        if (whole !== "0") {
          assert.ok(fraction.length <= Math.max(2, SIGNIFICANT_DIGITS - whole.length), shown);
        } else {
          assert.ok(fraction.replace(/^0+/, "").length <= SIGNIFICANT_DIGITS, shown);
        }
        // A non-zero amount never reads as zero.
        if (/[1-9]/.test(value)) assert.match(shown, /[1-9]/);
      }),
    );
  });

  it("property: the exact text is the API's value itself, whatever its size", () => {
    fc.assert(
      fc.property(decimalArbitrary, fc.constantFrom("", "USDC"), (value, symbol) => {
        const exact = exactAmount(value, symbol);
        assert.equal(symbol === "" ? exact : exact.slice(0, -symbol.length - 1), value);
      }),
    );
  });

  it("behavior: durations and percentages", () => {
    assert.equal(formatDuration(0), "0 s");
    assert.equal(formatDuration(59), "59 s");
    assert.equal(formatDuration(125), "2 min 5 s");
    assert.equal(formatDuration(120), "2 min");
    assert.equal(formatDuration(3780), "1 h 3 min");
    assert.equal(formatDuration(null), "—");
    assert.equal(formatPercent(0.875), "87.5 %");
    assert.equal(formatPercent(null), "—");
  });

  it("behavior: an empty amount or time (Processing) shows a dash; times say UTC", () => {
    assert.equal(formatAmount("", "USDC"), "—");
    assert.equal(formatUtcTime(""), "—");
    assert.equal(formatUtcTime("2026-01-01 00:00:10"), "2026-01-01 00:00:10 UTC");
  });

  it("behavior: values that are not decimals pass through unchanged", () => {
    assert.equal(groupDecimal("1e21"), "1e21");
    assert.equal(groupDecimal("abc"), "abc");
  });

  it("behavior: long hex values are shortened, short ones kept", () => {
    const hash = `0x${"ab".repeat(32)}`;
    assert.equal(shortenHex(hash), "0xababab…abab");
    assert.equal(shortenHex("0x1234"), "0x1234");
    assert.equal(shortenHex("osmo:tx_ABC-123"), "osmo:t…-123");
  });

  it("behavior: badges, bridge kinds and page counts", () => {
    assert.equal(statusBadgeClass("Success"), "badge badge-success");
    assert.equal(statusBadgeClass("Failed"), "badge badge-failed");
    assert.equal(statusBadgeClass("Processing"), "badge badge-processing");
    assert.equal(statusBadgeClass("Other"), "badge");
    assert.equal(bridgeKindName(2), "messaging (kind 2)");
    assert.equal(bridgeKindName(7), "kind 7");
    assert.equal(pageCount(0, 10), 1);
    assert.equal(pageCount(10, 10), 1);
    assert.equal(pageCount(11, 10), 2);
  });
});
