/**
 * deployDevnet on fresh anvil nodes with caller-chosen names and ids: every manifest field is
 * filled, consistent with what is on chain, and the deployment is fast.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Address } from "viem";
import { type AnvilInstance, startAnvil } from "../../src/devnet/anvil.js";
import { loadArtifacts } from "../../src/devnet/artifacts.js";
import { deployDevnet } from "../../src/devnet/deploy.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { connectChain, readBridge } from "../setup/anvil.js";

describe("contracts: deployDevnet", () => {
  let nodes: AnvilInstance[] = [];
  let manifest: DevnetManifest;
  let deployMs = 0;

  before(async () => {
    loadArtifacts(); // compile outside the timed part
    nodes = await Promise.all([startAnvil({ chainId: 72001 }), startAnvil({ chainId: 72002 })]);
    const started = Date.now();
    manifest = await deployDevnet({
      chains: [
        {
          name: "north",
          chainId: 72001,
          rpcUrl: nodes[0]!.rpcUrl,
          poolChainId: 7,
          endpointId: 901,
        },
        {
          name: "south",
          chainId: 72002,
          rpcUrl: nodes[1]!.rpcUrl,
          poolChainId: 8,
          endpointId: 902,
        },
      ],
      userCount: 3,
    });
    deployMs = Date.now() - started;
  });
  after(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  });

  it("default: deploys two chains well under 30 s", () => {
    assert.ok(deployMs < 30_000, `took ${deployMs} ms`);
  });

  it("behavior: the manifest carries the caller's names, ids and accounts", () => {
    assert.equal(manifest.version, 1);
    assert.ok(
      !Number.isNaN(Date.parse(manifest.createdAt)),
      "!Number.isNaN(Date.parse(manifest.createdAt))",
    );
    assert.deepEqual(
      manifest.chains.map((c) => [c.name, c.chainId, c.rpcUrl, c.bridgeChainIds]),
      [
        ["north", 72001, nodes[0]!.rpcUrl, { "0": "72001", "1": "7", "2": "901" }],
        ["south", 72002, nodes[1]!.rpcUrl, { "0": "72002", "1": "8", "2": "902" }],
      ],
    );
    assert.equal(manifest.deployer.address, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    assert.equal(manifest.relayer.address, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    assert.equal(manifest.accounts.length, 3);
    assert.equal(manifest.accounts[0]!.address, "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC");
    assert.match(manifest.accounts[0]!.privateKey, /^0x[0-9a-f]{64}$/);
    for (const abi of Object.values(manifest.abis)) assert.ok(abi.length > 0, "abi.length > 0");
    assert.equal(manifest.links.length, 6); // 2 directions x 3 kinds
  });

  it("behavior: every address has code, and no address repeats across chains", async () => {
    const seen = new Set<string>();
    for (const chain of manifest.chains) {
      const conn = connectChain(manifest, chain.name);
      const addresses: Address[] = [
        ...Object.values(chain.bridges),
        chain.messagingEndpoint,
        chain.dex.factory,
        chain.dex.router,
        ...chain.dex.pairs.map((p) => p.address),
        ...chain.tokens.map((t) => t.address),
      ];
      assert.equal(chain.weth, chain.dex.hubToken);
      assert.ok(chain.deployBlock >= 1, "chain.deployBlock >= 1");
      for (const address of addresses) {
        const code = await conn.client.getCode({ address });
        assert.ok(code !== undefined && code.length > 2, `${chain.name} ${address} has no code`);
        assert.ok(!seen.has(address), `${address} repeats`);
        seen.add(address);
      }
    }
  });

  it("behavior: bridges know their ids, remotes and token counterparts as the links say", async () => {
    for (const link of manifest.links) {
      const source = manifest.chains.find((c) => c.chainId === link.sourceChainId)!;
      const dest = manifest.chains.find((c) => c.chainId === link.destChainId)!;
      const conn = connectChain(manifest, source.name);
      const destId = BigInt(dest.bridgeChainIds[`${link.kind}`]);
      assert.equal(
        await readBridge(manifest, conn, link.kind, "localChainId", []),
        BigInt(source.bridgeChainIds[`${link.kind}`]),
      );
      assert.equal(
        await readBridge(manifest, conn, link.kind, "remoteBridgeOf", [destId]),
        dest.bridges[`${link.kind}`],
      );
      assert.equal(
        await readBridge(manifest, conn, link.kind, "destTokenOf", [link.sourceToken, destId]),
        link.destToken,
      );
    }
  });

  it("behavior: tokens by position: DAI home, ORC on the first two, GOV from the second; users funded", async () => {
    const symbols = manifest.chains.map((c) => c.tokens.map((t) => t.symbol).sort());
    assert.deepEqual(symbols, [
      ["DAI", "ORC", "USDC", "WETH"],
      ["DAI", "GOV", "ORC", "USDC", "WETH"],
    ]);
    const south = connectChain(manifest, "south");
    for (const user of manifest.accounts) {
      assert.equal(await south.balanceOf(south.token("GOV"), user.address), 50_000n * 10n ** 18n);
      assert.equal(await south.balanceOf(south.token("WETH"), user.address), 50n * 10n ** 18n);
    }
    // The wrapped DAI minted on south is backed by DAI locked in north's kind 0 bridge.
    const north = connectChain(manifest, "north");
    const wrappedSupply = (await south.client.readContract({
      address: south.token("DAI"),
      abi: manifest.abis.erc20,
      functionName: "totalSupply",
    })) as bigint;
    assert.equal(
      await north.balanceOf(north.token("DAI"), north.chain.bridges["0"]),
      wrappedSupply,
    );
  });
});
