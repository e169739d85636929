import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { getAddress } from "viem";
import { LAYERZERO_V2_MAINNET, mainnetChainByEid } from "./mainnet.js";

describe("LayerZero V2 mainnet preset", () => {
  it("default: five chains, each with a checksummed endpoint, a unique eid and chain id", () => {
    assert.deepEqual(
      LAYERZERO_V2_MAINNET.map((c) => [c.name, c.chainId, c.eid]),
      [
        ["ethereum", 1, 30101],
        ["arbitrum", 42161, 30110],
        ["optimism", 10, 30111],
        ["base", 8453, 30184],
        ["polygon", 137, 30109],
      ],
    );
    for (const chain of LAYERZERO_V2_MAINNET) {
      assert.equal(getAddress(chain.endpoint), chain.endpoint);
      assert.match(chain.endpointDeployTx, /^0x[0-9a-f]{64}$/);
    }
    assert.equal(new Set(LAYERZERO_V2_MAINNET.map((c) => c.eid)).size, 5);
  });

  it("behavior: an endpoint id names its chain; an unknown one names none", () => {
    assert.equal(mainnetChainByEid(30184)?.name, "base");
    assert.equal(mainnetChainByEid(40101), undefined);
  });
});
