/**
 * runDevnet against real anvil: starts within 30 s, writes a complete manifest, and stop()
 * leaves no anvil process behind.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createPublicClient, http, isAddress } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { loadArtifacts } from "../../src/devnet/artifacts.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { type RunningDevnet, runDevnet } from "../../src/devnet/run-devnet.js";
import { anvilPidsOnPort, portOf } from "./devnet-helpers.js";

describe("devnet: runDevnet", () => {
  let dir: string;
  let devnet: RunningDevnet;
  let startMs: number;
  let written: DevnetManifest;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "devnet-run-"));
    // Compiling contracts that just changed is not start-up; `npm run build` / the first run
    // does it once. Time the devnet itself.
    loadArtifacts();
    const started = Date.now();
    devnet = await runDevnet({ dir, blockTime: 1 });
    startMs = Date.now() - started;
    written = JSON.parse(await readFile(join(dir, "manifest.json"), "utf8")) as DevnetManifest;
  });
  after(async () => {
    await devnet?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("default: starts three chains within 30 s and writes the manifest where it says", () => {
    assert.ok(startMs < 30_000, `start-up took ${startMs} ms`);
    assert.equal(devnet.manifestPath, join(dir, "manifest.json"));
    assert.deepEqual(written, devnet.manifest);
    assert.ok(devnet.relayer !== undefined, "devnet.relayer !== undefined");
    assert.equal(devnet.traffic, undefined);
  });

  it("default: every chain has a live RPC, its ids in every scheme and deployed contracts", async () => {
    assert.equal(written.version, 1);
    assert.ok(
      !Number.isNaN(Date.parse(written.createdAt)),
      "!Number.isNaN(Date.parse(written.createdAt))",
    );
    assert.deepEqual(
      written.chains.map((c) => [c.name, c.chainId, c.bridgeChainIds]),
      [
        ["alpha", 71001, { 0: "71001", 1: "101", 2: "40101" }],
        ["beta", 71002, { 0: "71002", 1: "102", 2: "40102" }],
        ["gamma", 71003, { 0: "71003", 1: "103", 2: "40103" }],
      ],
    );
    for (const chain of written.chains) {
      const client = createPublicClient({ transport: http(chain.rpcUrl) });
      assert.equal(await client.getChainId(), chain.chainId);
      // Published to browser wallets: the node's own URL, on this machine, no credentials.
      assert.equal(chain.publicRpcUrl, chain.rpcUrl);
      assert.match(chain.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.ok(
        Number.isInteger(chain.deployBlock) && chain.deployBlock >= 0,
        "Number.isInteger(chain.deployBlock) && chain.deployBlock >= 0",
      );
      const contracts = [
        chain.bridges["0"],
        chain.bridges["1"],
        chain.bridges["2"],
        chain.messagingEndpoint,
        chain.dex.factory,
        chain.dex.router,
        chain.weth,
        ...chain.dex.pairs.map((p) => p.address),
        ...chain.tokens.map((t) => t.address),
      ];
      for (const address of contracts) {
        assert.ok(isAddress(address), `${chain.name}: ${address}`);
        const code = await client.getCode({ address });
        assert.ok(code !== undefined && code.length > 2, `${chain.name}: no code at ${address}`);
      }
      assert.equal(chain.dex.hubToken, chain.weth);
      assert.ok(chain.dex.pairs.length >= 3, "chain.dex.pairs.length >= 3");
    }
  });

  it("default: tokens carry decimals and bridge kinds as in the protocol", () => {
    const summary = (name: string) =>
      written.chains
        .find((c) => c.name === name)
        ?.tokens.map((t) => `${t.symbol}:${t.decimals}:${t.bridgeKinds.join("")}`)
        .sort();
    assert.deepEqual(summary("alpha"), ["DAI:18:0", "ORC:8:", "USDC:6:12", "WETH:18:"]);
    assert.deepEqual(summary("beta"), ["DAI:18:0", "GOV:18:", "ORC:8:", "USDC:6:12", "WETH:18:"]);
    assert.deepEqual(summary("gamma"), ["DAI:18:0", "GOV:18:", "USDC:6:12", "WETH:18:"]);
    // every ordered chain pair, every kind
    assert.equal(written.links.length, 3 * 2 * 3);
  });

  it("default: accounts come with keys that match their addresses, and all ABIs are present", () => {
    const accounts = [written.deployer, written.relayer, ...written.accounts];
    assert.equal(written.accounts.length, 8);
    for (const account of accounts) {
      assert.equal(privateKeyToAccount(account.privateKey).address, account.address);
    }
    for (const [name, abi] of Object.entries(written.abis)) {
      assert.ok(Array.isArray(abi) && abi.length > 0, `abi ${name}`);
    }
    const names = written.abis.bridge.map((item) => ("name" in item ? item.name : ""));
    for (const name of [
      "bridge",
      "TransferSent",
      "TransferDelivered",
      "TransferFailed",
      "TransferRefunded",
    ]) {
      assert.ok(names.includes(name), `bridge abi lacks ${name}`);
    }
  });

  it("behavior: stop() ends every anvil process and can be called twice", async () => {
    const ports = devnet.manifest.chains.map((c) => portOf(c.rpcUrl));
    const before = ports.flatMap((port) => anvilPidsOnPort(port));
    assert.ok(before.length >= 3, `expected anvil processes, found ${before.length}`);
    await devnet.stop();
    await devnet.stop();
    assert.deepEqual(
      ports.flatMap((port) => anvilPidsOnPort(port)),
      [],
    );
    for (const pid of before) assert.throws(() => process.kill(pid, 0), /ESRCH/);
  });
});

describe("devnet: runDevnet options", () => {
  it("error: invalid options are rejected before anything starts", async () => {
    await assert.rejects(runDevnet({ chains: 4 }), /chains must be 2 or 3/);
    await assert.rejects(runDevnet({ blockTime: 0.5 }), /block time/);
    await assert.rejects(runDevnet({ confirmations: -1 }), /confirmations/);
  });
});
