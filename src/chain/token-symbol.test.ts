import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { boundedSymbol, MAX_SYMBOL_LENGTH } from "./token-symbol.js";

describe("boundedSymbol", () => {
  it("behavior: an ordinary symbol is kept as it is", () => {
    assert.equal(boundedSymbol("USDC"), "USDC", "ordinary symbol");
    assert.equal(boundedSymbol("USD₮0"), "USD₮0", "non-ASCII symbol");
  });

  it("behavior: a long symbol is cut to 64 code points, never inside a surrogate pair", () => {
    assert.equal(boundedSymbol("A".repeat(10_000)), "A".repeat(64), "cut to 64");
    const emoji = "😀".repeat(100);
    assert.equal(boundedSymbol(emoji), "😀".repeat(64), "whole code points");
  });

  it("behavior: control characters are dropped", () => {
    assert.equal(boundedSymbol("US\u0000DC\n"), "USDC", "control characters");
  });

  it("property: at most 64 code points, no control characters, a prefix of the cleaned input", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (input) => {
        const out = boundedSymbol(input);
        assert.ok(Array.from(out).length <= MAX_SYMBOL_LENGTH, "length");
        assert.ok(!/[\u0000-\u001f\u007f]/.test(out), "no control characters");
        assert.ok(input.replace(/[\u0000-\u001f\u007f]/g, "").startsWith(out), "prefix");
      }),
    );
  });
});
