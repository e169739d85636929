/**
 * The devnet's protocol seam is real: a minimal protocol of its own (one contract per chain,
 * deployed on its fork of each chain's sender beside the reference bridge) is deployed by
 * deployDevnet and lands in the manifest without a change outside its definition here.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Address, createPublicClient, http } from "viem";
import { type AnvilInstance, startAnvil } from "../../src/devnet/anvil.js";
import { loadArtifacts } from "../../src/devnet/artifacts.js";
import { deployDevnet } from "../../src/devnet/deploy.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import type { ProtocolDevnet } from "../../src/devnet/protocols/protocol-devnet.js";
import { referenceDevnet } from "../../src/devnet/protocols/reference/index.js";

/** A toy protocol: a token named after it on every chain, registered as its kind-1 contract. */
const toyDevnet: ProtocolDevnet = {
  name: "toy",
  async deploy(context) {
    const addresses = await Promise.all(
      context.chains.map(async (ready) => {
        const chain = await ready;
        const address = await chain.sender.deploy("toy", context.artifacts.get("MintableToken"), [
          "Toy",
          "TOY",
          6,
        ]);
        await chain.sender.flush();
        return { chainId: chain.ids.evm, address };
      }),
    );
    return {
      top: {
        contracts: addresses.map(({ chainId, address }) => ({
          protocol: "toy",
          kind: 1 as const,
          chainId,
          address,
          bridgeChainId: String(chainId),
        })),
      },
    };
  },
};

describe("devnet: the protocol seam", () => {
  let nodes: AnvilInstance[] = [];
  let manifest: DevnetManifest;

  before(async () => {
    loadArtifacts();
    nodes = await Promise.all([startAnvil({ chainId: 73001 }), startAnvil({ chainId: 73002 })]);
    manifest = await deployDevnet({
      chains: nodes.map((node, index) => ({
        name: `toy${index}`,
        chainId: node.chainId,
        rpcUrl: node.rpcUrl,
      })),
      userCount: 2,
      protocols: [referenceDevnet, toyDevnet],
    });
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  });

  it("behavior: a registered protocol's contracts are deployed and listed in the manifest beside the reference bridge's", async () => {
    for (const chain of manifest.chains) {
      const toy =
        manifest.contracts?.filter((b) => b.protocol === "toy" && b.chainId === chain.chainId) ??
        [];
      assert.equal(toy.length, 1, `${chain.name}: ${JSON.stringify(manifest.contracts)}`);
      const client = createPublicClient({ transport: http(chain.rpcUrl) });
      const code = await client.getCode({ address: toy[0]!.address as Address });
      assert.ok(code !== undefined && code.length > 2, `${chain.name}: no code at the toy`);
      const bridgeCode = await client.getCode({ address: chain.bridges["1"] });
      assert.ok(bridgeCode !== undefined && bridgeCode.length > 2, `${chain.name}: no bridge`);
    }
    // Only the protocols asked for: no LayerZero or Across parts.
    assert.equal(manifest.layerzero, undefined);
    assert.equal(manifest.across, undefined);
  });
});
