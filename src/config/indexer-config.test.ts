import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { INDEXER_DEFAULTS, parseIndexerConfig } from "./indexer-config.js";

const A = "0x1111111111111111111111111111111111111111";
const chain = {
  name: "alpha",
  chainId: 71001,
  rpcUrl: "http://127.0.0.1:8545",
  deployBlock: 7,
  bridges: { "0": A, "1": "0x2222222222222222222222222222222222222222" },
  bridgeChainIds: { "0": "71001", "1": "101" },
};

describe("parseIndexerConfig", () => {
  it("default: a manifest-shaped chain gets the documented defaults", () => {
    const config = parseIndexerConfig({ chains: [chain], abis: {}, version: 1 });
    assert.deepEqual(config.chains[0], {
      name: "alpha",
      chainId: 71001,
      rpcUrl: "http://127.0.0.1:8545",
      startBlock: 7,
      confirmations: 0,
      finalityDepth: 64,
      nativeSymbol: "ETH",
    });
    assert.equal(config.bridges.length, 2);
    assert.deepEqual(config.bridges[1], {
      kind: 1,
      chainId: 71001,
      address: "0x2222222222222222222222222222222222222222",
      bridgeChainId: "101",
    });
    assert.equal(config.maxBlockRange, INDEXER_DEFAULTS.maxBlockRange);
  });
  it("behavior: protocolBridges add other protocols' contracts (Across' SpokePool, kind 1, by chain id)", () => {
    const spokePool = "0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64";
    const config = parseIndexerConfig({
      chains: [
        {
          ...chain,
          protocolBridges: [
            { protocol: "across", kind: 1, address: spokePool.toLowerCase(), bridgeChainId: 71001 },
          ],
        },
      ],
    });
    assert.deepEqual(config.bridges[2], {
      protocol: "across",
      kind: 1,
      chainId: 71001,
      address: spokePool,
      bridgeChainId: "71001",
    });
    assert.throws(
      () =>
        parseIndexerConfig({
          chains: [
            { ...chain, protocolBridges: [{ protocol: "across", kind: 1, address: "0x12" }] },
          ],
        }),
      /chains\[0\] \(alpha\)\.protocolBridges\[0\]\.address must be a 0x address/,
    );
  });
  it("behavior: explicit values win", () => {
    const config = parseIndexerConfig({
      chains: [{ ...chain, startBlock: 100, confirmations: 3, finalityDepth: 10 }],
      indexer: { pollIntervalMs: 50, maxBlockRange: 10, rpcTimeoutMs: 500 },
    });
    assert.equal(config.chains[0]?.startBlock, 100);
    assert.equal(config.chains[0]?.confirmations, 3);
    assert.equal(config.pollIntervalMs, 50);
  });
  it("error: each rule names the entry", () => {
    const cases: [unknown, RegExp][] = [
      [{}, /`chains` must be a non-empty array/],
      [
        { chains: [{ ...chain, chainId: "x" }] },
        /chains\[0\] \(alpha\)\.chainId must be an integer/,
      ],
      [{ chains: [{ ...chain, rpcUrl: "ws://u:p@h" }] }, /rpcUrl must be a valid http\(s\) URL/],
      [
        { chains: [{ ...chain, rpcUrl: "http://u:p@127.0.0.1:99999/x" }] },
        /rpcUrl must be a valid http\(s\) URL/,
      ],
      [{ chains: [{ ...chain, bridges: { "7": A } }] }, /unknown bridge kind "7"/],
      [{ chains: [{ ...chain, bridges: {}, bridgeChainIds: {} }] }, /bridges names no bridge/],
      [{ chains: [{ ...chain, bridges: { "0": "0x12" } }] }, /bridges\["0"\] must be a 0x address/],
      [{ chains: [{ ...chain, bridgeChainIds: {} }] }, /bridgeChainIds\["0"\] is missing/],
      [{ chains: [chain, { ...chain, name: "b" }] }, /chainId 71001 is listed twice/],
      [
        { chains: [chain, { ...chain, name: "b", chainId: 2 }] },
        /bridge kind 0 uses id 71001 for chains 71001 and 2/,
      ],
    ];
    for (const [json, pattern] of cases) assert.throws(() => parseIndexerConfig(json), pattern);
  });
  it("error: an RPC URL with credentials is redacted in the message", () => {
    assert.throws(
      () => parseIndexerConfig({ chains: [{ ...chain, rpcUrl: "wss://user:topsecret@h/x" }] }),
      (e: Error) => !e.message.includes("topsecret"),
    );
  });
});
