import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createBridgeRegistry, DEFAULT_PROTOCOL } from "./bridge-registry.js";

const A = "0x00000000000000000000000000000000000000a1";
const B = "0x00000000000000000000000000000000000000b2";
const B_ENDPOINT = "0x00000000000000000000000000000000000000e2";
const REF_B = "0x00000000000000000000000000000000000000c2";
const chains = [
  { name: "alpha", chainId: 1, nativeSymbol: "ETH" },
  { name: "beta", chainId: 2, nativeSymbol: "ETH" },
];

describe("createBridgeRegistry", () => {
  const registry = createBridgeRegistry(chains, [
    { protocol: "lz", kind: 2, chainId: 1, address: A, bridgeChainId: "30101" },
    {
      protocol: "lz",
      kind: 2,
      chainId: 2,
      address: B_ENDPOINT,
      bridgeChainId: "30102",
      auxiliary: true,
    },
    { protocol: "lz", kind: 2, chainId: 2, address: B, bridgeChainId: "30102" },
    { kind: 2, chainId: 2, address: REF_B, bridgeChainId: "30101" },
  ]);

  it("default: each protocol names chains in its own scheme; no protocol is the reference", () => {
    assert.equal(registry.chainIdInScheme(2, "30102", "lz"), 2);
    assert.equal(registry.chainIdInScheme(2, "30101", "lz"), 1);
    assert.equal(registry.chainIdInScheme(2, "30101", DEFAULT_PROTOCOL), 2);
    assert.equal(registry.chainIdInScheme(2, "30101"), 2);
    assert.equal(registry.bridgeAddress(2, 2)?.toLowerCase(), REF_B);
  });

  it("behavior: an auxiliary contract is found for its logs but is never a destination", () => {
    assert.equal(registry.bridgeAt(2, B_ENDPOINT)?.auxiliary, true);
    assert.equal(registry.bridgeAddress(2, 2, "lz")?.toLowerCase(), B);
    assert.deepEqual(
      registry.bridgesOn(2).map((b) => b.address),
      [B_ENDPOINT, B, REF_B],
    );
  });
});
