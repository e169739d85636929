import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Address } from "viem";
import { type BaseManifest, mergeManifestParts } from "./manifest-parts.js";
import type { ManifestPart } from "./protocols/protocol-devnet.js";

const A = "0x00000000000000000000000000000000000000a1" as Address;
const B = "0x00000000000000000000000000000000000000b2" as Address;
const account = { address: A, privateKey: `0x${"11".repeat(32)}` as const };

function base(): BaseManifest {
  return {
    version: 1,
    createdAt: "2026-11-29T00:00:00.000Z",
    chains: [
      {
        name: "alpha",
        chainId: 71001,
        rpcUrl: "http://127.0.0.1:1",
        deployBlock: 1,
        dex: { factory: A, router: A, hubToken: A, pairs: [] },
        weth: A,
        tokens: [],
      },
    ],
    deployer: account,
    relayer: account,
    accounts: [],
    abis: { erc20: [] },
  };
}

const reference: ManifestPart = {
  chains: [
    {
      bridgeChainIds: { 0: "71001", 1: "101", 2: "40101" },
      bridges: { 0: A, 1: A, 2: A },
      messagingEndpoint: A,
    },
  ],
  top: { links: [], abis: { bridge: [] } },
};
const contract = (protocol: string, address: Address) => ({
  protocol,
  kind: 1 as const,
  chainId: 71001,
  address,
  bridgeChainId: "71001",
});

describe("mergeManifestParts", () => {
  it("default: each part's chain fields, top-level fields and ABIs land in the manifest", () => {
    const merged = mergeManifestParts(base(), [reference]);
    assert.equal(merged.chains[0]?.messagingEndpoint, A);
    assert.deepEqual(merged.links, []);
    assert.deepEqual(Object.keys(merged.abis).sort(), ["bridge", "erc20"]);
    assert.equal(merged.chains[0]?.name, "alpha");
  });

  it("behavior: the contracts of several parts are appended, in registry order", () => {
    const merged = mergeManifestParts(base(), [
      reference,
      { top: { contracts: [contract("one", A)] } },
      { top: { contracts: [contract("two", B)] } },
    ]);
    assert.deepEqual(
      merged.contracts?.map((b) => b.protocol),
      ["one", "two"],
    );
  });

  it("error: two parts setting the same field, a part naming a chain not deployed, or no reference part", () => {
    assert.throws(
      () => mergeManifestParts(base(), [reference, { chains: [{ messagingEndpoint: B }] }]),
      /two devnet parts set the manifest's chain field messagingEndpoint/,
    );
    assert.throws(
      () => mergeManifestParts(base(), [reference, { top: { abis: { bridge: [] } } }]),
      /abi field bridge/,
    );
    assert.throws(
      () => mergeManifestParts(base(), [reference, { chains: [{}, { weth: B }] }]),
      /names chain 1, not deployed/,
    );
    assert.throws(() => mergeManifestParts(base(), []), /chain 0 lacks bridgeChainIds/);
  });
});
