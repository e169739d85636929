import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  canonicalDecimal,
  convertDecimals,
  formatAmount,
  formatBaseUnitDigits,
  parseAmount,
  toBaseUnits,
} from "./amount.js";

describe("parseAmount", () => {
  it("default: human units to base units", () => {
    assert.deepEqual(parseAmount("1.5", 6), { ok: true, value: 1_500_000n });
    assert.deepEqual(parseAmount("0.000001", 6), { ok: true, value: 1n });
    assert.deepEqual(parseAmount("42", 0), { ok: true, value: 42n });
  });

  it("behavior: trailing fractional zeros count as written digits", () => {
    assert.deepEqual(parseAmount("1.500000", 6), { ok: true, value: 1_500_000n });
    const result = parseAmount("1.500000000", 6);
    assert.equal(!result.ok && result.reason, "precision");
    assert.match(!result.ok ? result.message : "", /^has 9 fractional digits/);
  });

  it("behavior: exact beyond 2^53", () => {
    const result = parseAmount("123456789012345678901234567890.123456789012345678", 18);
    assert.deepEqual(result, {
      ok: true,
      value: 123456789012345678901234567890123456789012345678n,
    });
  });

  it("error: format", () => {
    for (const bad of ["", "-1", "+1", "1e6", "1.", ".5", " 1", "0x10", "1,5", "NaN"]) {
      const result = parseAmount(bad, 6);
      assert.equal(result.ok, false, bad);
      assert.equal(!result.ok && result.reason, "format", bad);
    }
  });

  it("error: zero", () => {
    for (const zero of ["0", "0.0", "000.000"]) {
      const result = parseAmount(zero, 6);
      assert.equal(!result.ok && result.reason, "zero", zero);
    }
  });

  it("behavior: any digit strings: precision is the written fraction's length, value exact", () => {
    const digits = (maxLength: number) =>
      fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: 1, maxLength });
    fc.assert(
      fc.property(
        digits(30),
        fc.option(digits(40), { nil: undefined }),
        fc.integer({ min: 0, max: 36 }),
        (whole, fraction, decimals) => {
          const text = fraction === undefined ? whole : `${whole}.${fraction}`;
          const result = parseAmount(text, decimals);
          const written = fraction?.length ?? 0;
          if (written > decimals) {
            assert.equal(!result.ok && result.reason, "precision", text);
            return;
          }
          const value = BigInt(whole + (fraction ?? "").padEnd(decimals, "0"));
          if (value === 0n) assert.equal(!result.ok && result.reason, "zero", text);
          else assert.deepEqual(result, { ok: true, value }, text);
        },
      ),
    );
  });

  it("error: more fractional digits than the token has decimals", () => {
    const result = parseAmount("1.0000001", 6);
    assert.equal(!result.ok && result.reason, "precision");
    assert.match(!result.ok ? result.message : "", /7 fractional digits; the token has 6 decimals/);
  });
});

describe("formatAmount", () => {
  it("default: canonical form", () => {
    assert.equal(formatAmount(1_500_000n, 6), "1.5");
    assert.equal(formatAmount(0n, 18), "0");
    assert.equal(formatAmount(1n, 18), "0.000000000000000001");
    assert.equal(formatAmount(10n ** 18n, 18), "1");
    assert.equal(formatAmount(1234n, 0), "1234");
  });

  it("error: negative", () => {
    assert.throws(() => formatAmount(-1n, 6), RangeError);
  });

  it("behavior: round trip with parseAmount for every positive amount and decimals", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2n ** 256n - 1n }),
        fc.integer({ min: 0, max: 36 }),
        (value, decimals) => {
          const text = formatAmount(value, decimals);
          assert.match(text, /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
          assert.deepEqual(parseAmount(text, decimals), { ok: true, value });
        },
      ),
    );
  });
});

describe("formatBaseUnitDigits", () => {
  it("default: canonical form of digit strings", () => {
    assert.equal(formatBaseUnitDigits("1500000", 6), "1.5");
    assert.equal(formatBaseUnitDigits("0", 18), "0");
    assert.equal(formatBaseUnitDigits("000", 0), "0");
    assert.equal(formatBaseUnitDigits("0001", 18), "0.000000000000000001");
    assert.equal(formatBaseUnitDigits("1000000", 6), "1");
    assert.equal(formatBaseUnitDigits("001234", 0), "1234");
    assert.equal(formatBaseUnitDigits("10", 1), "1");
    assert.equal(formatBaseUnitDigits("100", 1), "10");
  });

  it("behavior: canonical text that parses back to the same base units, leading zeros included", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
        fc.nat({ max: 5 }),
        fc.integer({ min: 0, max: 80 }),
        (value, zeros, decimals) => {
          const text = formatBaseUnitDigits("0".repeat(zeros) + value.toString(), decimals);
          assert.match(text, /^(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/);
          assert.equal(toBaseUnits(text, decimals), value);
          assert.equal(text, formatAmount(value, decimals));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("toBaseUnits", () => {
  it("default: human units to base units, zero allowed", () => {
    assert.equal(toBaseUnits("1.5", 6), 1_500_000n);
    assert.equal(toBaseUnits("0", 6), 0n);
    assert.equal(toBaseUnits("12", 0), 12n);
  });

  it("behavior: trailing fractional zeros beyond the decimals are accepted (trusted input)", () => {
    assert.equal(toBaseUnits("1.5000000", 6), 1_500_000n);
    assert.equal(toBaseUnits("7.000", 0), 7n);
  });

  it("error: significant fractional digits beyond the decimals", () => {
    assert.throws(() => toBaseUnits("1.25", 1), RangeError);
    assert.throws(() => toBaseUnits("0.0000001", 6), RangeError);
    assert.throws(() => toBaseUnits("1.5", 0), RangeError);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 9 }),
        (decimals, extra, last) => {
          const text = `1.${"0".repeat(decimals + extra - 1)}${last}`;
          assert.throws(() => toBaseUnits(text, decimals), RangeError);
        },
      ),
    );
  });

  it("error: format", () => {
    for (const text of ["", "1.", ".5", "-1", "1e3", " 1"]) {
      assert.throws(() => toBaseUnits(text, 6), RangeError, text);
    }
  });
});

describe("canonicalDecimal", () => {
  it("default", () => {
    assert.equal(canonicalDecimal("007.500"), "7.5");
    assert.equal(canonicalDecimal("0.0"), "0");
    assert.equal(canonicalDecimal("10"), "10");
  });

  it("behavior: agrees with formatAmount(toBaseUnits(x))", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{1,30}(\.[0-9]{1,18})?$/),
        (text) => canonicalDecimal(text) === formatAmount(toBaseUnits(text, 18), 18),
      ),
    );
  });
});

describe("convertDecimals", () => {
  it("default: scales up exactly and down rounding toward zero", () => {
    assert.equal(convertDecimals(1_500_000n, 6, 18), 1_500_000_000_000_000_000n);
    assert.equal(convertDecimals(1_999_999_999_999n, 18, 6), 1n);
    assert.equal(convertDecimals(7n, 8, 8), 7n);
  });

  it("behavior: down-conversion never creates value", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 200n }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 30 }),
        (v, a, b) => {
          const there = convertDecimals(v, a, b);
          const back = convertDecimals(there, b, a);
          assert.ok(back <= v, "back <= v");
          if (b >= a) assert.equal(back, v);
        },
      ),
    );
  });
});
