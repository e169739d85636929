import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { getAddress } from "viem";
import { ACROSS_SPOKE_POOLS, acrossPresetBridges } from "./presets.js";

describe("Across presets", () => {
  it("default: five mainnets, each address EIP-55 as published, a positive deploy block", () => {
    assert.deepEqual(
      ACROSS_SPOKE_POOLS.map((p) => p.chainId),
      [1, 42_161, 10, 8453, 137],
    );
    for (const p of ACROSS_SPOKE_POOLS) {
      assert.equal(getAddress(p.spokePool), p.spokePool, `${p.chainName} address checksummed`);
      assert.ok(Number.isInteger(p.deployBlock) && p.deployBlock > 0, `${p.chainName} block`);
    }
  });

  it("behavior: registry entries are kind 1, protocol across, named by chain id", () => {
    assert.deepEqual(acrossPresetBridges([8453, 999]), [
      {
        protocol: "across",
        kind: 1,
        chainId: 8453,
        address: "0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64",
        bridgeChainId: "8453",
      },
    ]);
  });
});
