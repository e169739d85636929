import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { getAddress } from "viem";
import { UNISWAP_PRESETS, uniswapPreset } from "./uniswap-presets.js";

describe("Uniswap mainnet presets", () => {
  it("default: the five preset chains, every address in its EIP-55 form", () => {
    assert.deepEqual(
      UNISWAP_PRESETS.map((p) => p.chainId),
      [1, 42161, 10, 8453, 137],
    );
    for (const preset of UNISWAP_PRESETS) {
      for (const address of [
        preset.v2.factory,
        preset.v2.router02,
        preset.v3.factory,
        preset.v3.tickLens,
      ]) {
        assert.equal(address, getAddress(address), `${preset.name} ${address}`);
      }
    }
  });

  it("behavior: Base has its own V3 deployment; the others share the canonical factory", () => {
    assert.equal(uniswapPreset(8453)?.v3.factory, "0x33128a8fC17869897dcE68Ed026d694621f6FDfD");
    assert.equal(uniswapPreset(1)?.v3.factory, "0x1F98431c8aD98523631AE4a59f267346ea31F984");
    assert.equal(uniswapPreset(1)?.v2.factory, "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f");
    assert.equal(uniswapPreset(71001), undefined);
  });
});
