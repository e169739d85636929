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
  it("behavior: `contracts` lists Across' SpokePool (kind 1, by chain id) beside a chain's own bridges", () => {
    const spokePool = "0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64";
    const across = { protocol: "across", chainId: 71001, kind: 1, bridgeChainId: 71001 };
    const config = parseIndexerConfig({
      chains: [chain],
      contracts: [{ ...across, address: spokePool.toLowerCase() }],
    });
    assert.deepEqual(config.bridges[2], {
      protocol: "across",
      kind: 1,
      chainId: 71001,
      address: spokePool,
      bridgeChainId: "71001",
    });
    assert.throws(
      () => parseIndexerConfig({ chains: [chain], contracts: [{ ...across, address: "0x12" }] }),
      /contracts\[0\]\.address must be a 0x address/,
    );
  });
  it("error: a chain's `protocolBridges` (the earlier format) is refused, naming where its entries go", () => {
    const spokePool = "0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64";
    assert.throws(
      () =>
        parseIndexerConfig({
          chains: [
            {
              ...chain,
              protocolBridges: [
                { protocol: "across", kind: 1, address: spokePool, bridgeChainId: "71001" },
              ],
            },
          ],
        }),
      /chains\[0\] \(alpha\)\.protocolBridges is no longer read: list these contracts in the top-level `contracts` array, each with "chainId": 71001/,
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
  it("behavior: `contracts` adds other protocols' contracts; a chain of contracts only needs no `bridges`", () => {
    const { bridges: _b, bridgeChainIds: _i, ...bare } = chain;
    const oft = "0x3333333333333333333333333333333333333333";
    const config = parseIndexerConfig({
      chains: [chain, { ...bare, name: "beta", chainId: 71002 }],
      contracts: [
        { protocol: "layerzero-oft", chainId: 71002, address: A, kind: 2, bridgeChainId: "40102" },
        {
          protocol: "layerzero-oft",
          chainId: 71002,
          address: oft,
          kind: 0,
          bridgeChainId: 40102,
          token: A.toUpperCase().replace("0X", "0x"),
        },
      ],
    });
    assert.deepEqual(config.bridges.slice(2), [
      { protocol: "layerzero-oft", kind: 2, chainId: 71002, address: A, bridgeChainId: "40102" },
      {
        protocol: "layerzero-oft",
        kind: 0,
        chainId: 71002,
        address: oft,
        bridgeChainId: "40102",
        token: A,
      },
    ]);
  });
  it("error: `contracts` entries are checked and named", () => {
    const lz = {
      protocol: "layerzero-oft",
      chainId: 71001,
      address: A,
      kind: 2,
      bridgeChainId: "1",
    };
    const { bridges: _b, bridgeChainIds: _i, ...bare } = chain;
    const cases: [unknown, RegExp][] = [
      [{ chains: [chain], contracts: {} }, /`contracts` must be an array/],
      [{ chains: [chain], contracts: [{ ...lz, protocol: "" }] }, /contracts\[0\]\.protocol/],
      [{ chains: [chain], contracts: [{ ...lz, chainId: 5 }] }, /chainId 5 is not one of/],
      [{ chains: [chain], contracts: [{ ...lz, address: "0x1" }] }, /address must be a 0x address/],
      [{ chains: [chain], contracts: [{ ...lz, token: "x" }] }, /token must be a 0x address/],
      [{ chains: [chain], contracts: [{ ...lz, kind: 3 }] }, /kind must be 0, 1 or 2/],
      [{ chains: [chain], contracts: [{ ...lz, bridgeChainId: "x" }] }, /bridgeChainId must be/],
      [{ chains: [chain], contracts: [lz, lz] }, /listed twice on chain 71001/],
      [
        {
          chains: [
            chain,
            { ...chain, name: "b", chainId: 2, bridgeChainIds: { "0": "2", "1": "102" } },
          ],
          contracts: [lz, { ...lz, chainId: 2 }],
        },
        /layerzero-oft uses id 1 for chains 71001 and 2/,
      ],
      [{ chains: [bare] }, /chain alpha has no bridge/],
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
