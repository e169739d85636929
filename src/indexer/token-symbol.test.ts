import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { ChainClient } from "../chain/create-chain-client.js";
import { CONTROL_CHARACTERS, MAX_NAME_LENGTH } from "../domain/record-names.js";
import { createTokenMetadataCache } from "./token-metadata.js";
import { boundedSymbol } from "./token-symbol.js";

describe("boundedSymbol", () => {
  it("behavior: an ordinary symbol is kept as it is", () => {
    assert.equal(boundedSymbol("USDC"), "USDC", "ordinary symbol");
    assert.equal(boundedSymbol("USD₮0"), "USD₮0", "non-ASCII symbol");
  });

  it("behavior: a long symbol is cut to 64 UTF-16 units (the import's limit), never inside a surrogate pair", () => {
    assert.equal(boundedSymbol("A".repeat(10_000)), "A".repeat(64), "cut to 64");
    assert.equal(boundedSymbol("😀".repeat(100)), "😀".repeat(32), "64 units of pairs");
    assert.equal(boundedSymbol(`A${"😀".repeat(100)}`), `A${"😀".repeat(31)}`, "no half pair");
  });

  it("behavior: control characters are dropped", () => {
    assert.equal(boundedSymbol("US\u0000DC\n"), "USDC", "control characters");
  });

  it("property: within the name rule, whole characters, a prefix of the cleaned input", () => {
    const all = new RegExp(CONTROL_CHARACTERS.source, "g");
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), (input) => {
        const out = boundedSymbol(input);
        assert.ok(out.length <= MAX_NAME_LENGTH, "length");
        assert.ok(!CONTROL_CHARACTERS.test(out), "no control characters");
        assert.ok(input.replace(all, "").startsWith(out), "prefix");
        assert.equal(Array.from(out).join(""), out, "whole code points");
        const lastUnit = out.charCodeAt(out.length - 1);
        assert.ok(!(lastUnit >= 0xd800 && lastUnit <= 0xdbff), "no trailing high surrogate");
      }),
    );
  });

  it("behavior: the indexer's token metadata keeps the cut symbol, in the rows it stores too", async () => {
    const client = {
      readTokenMetadata: async () => ({ symbol: `X${"Y".repeat(5_000)}`, decimals: 6 }),
    } as unknown as ChainClient;
    const cache = createTokenMetadataCache(new Map([[1, client]]));
    const token = "0x00000000000000000000000000000000000000aa";
    const rows = await cache.ensure([{ chainId: 1, address: token }]);
    assert.equal(rows[0]!.symbol.length, MAX_NAME_LENGTH, "stored row");
    assert.equal(cache.get(1, token)!.symbol, rows[0]!.symbol, "cached");
  });
});
