import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  compareDecimal,
  invalidSearchMessage,
  nameHue,
  protocolLabel,
  protocolOf,
  relativeTime,
  searchKind,
  titleCase,
  utcMillis,
} from "./format.js";

describe("explorer formatting: times, order, identity", () => {
  const now = Date.UTC(2026, 10, 29, 12, 0, 0);

  it("default: relative times by the largest whole unit, future times (a skewed clock) as 'in'", () => {
    assert.equal(utcMillis("2026-11-29 12:00:00"), now);
    assert.equal(relativeTime("2026-11-29 11:59:58", now), "just now");
    assert.equal(relativeTime("2026-11-29 11:59:15", now), "45 s ago");
    assert.equal(relativeTime("2026-11-29 11:57:00", now), "3 min ago");
    assert.equal(relativeTime("2026-11-29 10:00:00", now), "2 h ago");
    assert.equal(relativeTime("2026-11-24 12:00:00", now), "5 d ago");
    assert.equal(relativeTime("2026-11-29 12:02:00", now), "in 2 min");
    assert.equal(relativeTime("", now), "");
    assert.equal(relativeTime("yesterday", now), "yesterday");
  });

  it("behavior: compareDecimal orders decimal strings exactly, as bigints would", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.nat(20),
        fc.nat(20),
        (a, b, da, db) => {
          const text = (v: bigint, d: number) => {
            const s = v.toString().padStart(d + 1, "0");
            return d === 0 ? s : `${s.slice(0, -d)}.${s.slice(-d)}`;
          };
          const scale = 10n ** BigInt(Math.max(da, db));
          const x = (a * scale) / 10n ** BigInt(da);
          const y = (b * scale) / 10n ** BigInt(db);
          const expected = x < y ? -1 : x > y ? 1 : 0;
          assert.equal(compareDecimal(text(a, da), text(b, db)), expected);
        },
      ),
    );
    assert.equal(compareDecimal("0.30000000000000000001", "0.3"), 1);
    assert.equal(compareDecimal("", "1"), -1);
  });

  it("default: the protocol field, absent on older records, reads as the reference bridge", () => {
    assert.equal(protocolOf({}), "reference");
    assert.equal(protocolOf({ protocol: "" }), "reference");
    assert.equal(protocolOf({ protocol: "across" }), "across");
    assert.equal(protocolLabel("layerzero-oft"), "LayerZero OFT");
    assert.equal(protocolLabel("cctp"), "CCTP");
    assert.equal(protocolLabel("something-new"), "something-new");
  });

  it("default: search texts by the list endpoint's classes; invalid ones said without rules", () => {
    assert.equal(searchKind(`0x${"a".repeat(40)}`), "address");
    assert.equal(searchKind(`0x${"B".repeat(64)}`), "hash");
    assert.equal(searchKind("import:row-7"), "message id");
    assert.equal(searchKind("not valid!"), "invalid");
    assert.equal(searchKind("x".repeat(129)), "invalid");
    assert.match(invalidSearchMessage("0x12"), /not a complete address or hash/);
    assert.doesNotMatch(invalidSearchMessage("a b"), /addressOrTxHash|must/);
  });

  it("default: chain names for people and stable colours", () => {
    assert.equal(titleCase("alpha"), "Alpha");
    assert.equal(nameHue("alpha"), nameHue("ALPHA"));
    assert.ok(nameHue("alpha") >= 0 && nameHue("alpha") < 360, "a hue is 0-359");
  });
});
