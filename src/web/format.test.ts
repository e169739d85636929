import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  bridgeKindName,
  formatAmount,
  formatUtcTime,
  groupDecimal,
  pageCount,
  shortenHex,
  statusBadgeClass,
} from "./format.js";

describe("explorer formatting", () => {
  it("default: amounts are grouped by thousands with their symbol, digits untouched", () => {
    assert.equal(
      formatAmount("1000000.123456789012345678", "WETH"),
      "1,000,000.123456789012345678 WETH",
    );
    assert.equal(formatAmount("999", "USDC"), "999 USDC");
    assert.equal(formatAmount("0.001", ""), "0.001");
    assert.equal(groupDecimal("1234567"), "1,234,567");
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
