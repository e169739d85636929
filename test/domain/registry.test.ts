import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { parseIndexerConfig } from "../../src/config/indexer-config.js";
import { BRIDGE_KINDS } from "../../src/domain/bridge-kind.js";
import { createBridgeRegistry } from "../../src/domain/bridge-registry.js";
import {
  loadRegistry,
  NATIVE_ADDRESS,
  parseRegistry,
  RegistryError,
} from "../../src/domain/registry.js";
import { createRouterFixture } from "../../src/router/fixtures.js";

/** A deep copy of the fixture's registry JSON to break on purpose. */
// biome-ignore lint/suspicious/noExplicitAny: tests break the JSON on purpose
function json(): any {
  return structuredClone(createRouterFixture().registryJson);
}

// biome-ignore lint/suspicious/noExplicitAny: as above
function rejects(mutate: (j: any) => void, pattern: RegExp): void {
  const j = json();
  mutate(j);
  assert.throws(
    () => parseRegistry(j),
    (error: unknown) => {
      assert.ok(error instanceof RegistryError, String(error));
      assert.match(error.message, pattern);
      return true;
    },
  );
}

describe("parseRegistry", () => {
  it("default: three chains, their tokens plus the native coin, links indexed by chain pair", () => {
    const registry = parseRegistry(json());
    assert.deepEqual(
      registry.chains.map((c) => [c.chainId, c.name, c.tokens.length]),
      [
        [71001, "alpha", 5],
        [71002, "beta", 6],
        [71003, "gamma", 5],
      ],
    );
    assert.equal(registry.links.length, 18);
    const links = registry.linksBetween(71001, 71002);
    assert.deepEqual(
      links.map((l) => [l.kind, l.sourceToken.symbol, l.destToken.symbol]),
      [
        [0, "DAI", "DAI"],
        [1, "USDC", "USDC"],
        [2, "USDC", "USDC"],
      ],
    );
    assert.deepEqual(registry.linksBetween(71001, 71001), []);
    assert.deepEqual(registry.chain(71002)?.bridgeChainIds, { 0: "71002", 1: "102", 2: "40102" });
  });

  it("behavior: the registry is the bridge registry the indexer builds from its config", () => {
    const registry = parseRegistry(json());
    const withRpc = json();
    for (const chain of withRpc.chains) chain.rpcUrl = "http://127.0.0.1:1";
    const indexerConfig = parseIndexerConfig(withRpc);
    const bridges = createBridgeRegistry(indexerConfig.chains, indexerConfig.bridges);
    for (const chain of registry.chains) {
      assert.equal(registry.chainName(chain.chainId), bridges.chainName(chain.chainId));
      assert.equal(registry.nativeSymbol(chain.chainId), bridges.nativeSymbol(chain.chainId));
      assert.deepEqual(registry.bridgesOn(chain.chainId), bridges.bridgesOn(chain.chainId));
      for (const kind of BRIDGE_KINDS) {
        const address = registry.bridgeAddress(chain.chainId, kind);
        assert.ok(address !== undefined, "address !== undefined");
        assert.equal(address, bridges.bridgeAddress(chain.chainId, kind));
        assert.equal(registry.bridgeKind(chain.chainId, address.toLowerCase()), kind);
        const schemeId = chain.bridgeChainIds[kind]!;
        assert.equal(registry.chainIdInScheme(kind, `0${schemeId}`), chain.chainId);
        assert.equal(bridges.chainIdInScheme(kind, schemeId), chain.chainId);
      }
    }
  });

  it("behavior: the native coin is a token of every chain (zero address, 18 decimals)", () => {
    const registry = parseRegistry(json());
    for (const chain of registry.chains) {
      const native = registry.token(chain.chainId, NATIVE_ADDRESS);
      assert.equal(native?.native, true);
      assert.equal(native?.decimals, 18);
      assert.equal(chain.nativeToken, native);
      assert.equal(chain.dex.hubToken.symbol, "WETH");
    }
  });

  it("behavior: the native coin's name for wallets is nativeName, else its symbol", () => {
    const j = json();
    j.chains[0].nativeName = "Ether";
    j.chains[1].nativeSymbol = "GAS";
    const registry = parseRegistry(j);
    assert.equal(registry.chain(71001)?.nativeName, "Ether");
    assert.equal(registry.chain(71002)?.nativeName, "GAS");
    assert.equal(registry.chain(71003)?.nativeName, "ETH");
    rejects(
      (j) => (j.chains[0].nativeName = 7),
      /chains\[0\] \(alpha\)\.nativeName must be a non-empty string/,
    );
    rejects(
      (j) => (j.chains[2].nativeSymbol = ""),
      /chains\[2\] \(gamma\)\.nativeSymbol must be a non-empty string/,
    );
  });

  it("behavior: displayName defaults to the name capitalised; blockExplorerUrl is optional and checked", () => {
    const j = json();
    j.chains[0].displayName = "Alpha Devnet";
    j.chains[1].blockExplorerUrl = "https://scan.example.org//";
    const registry = parseRegistry(j);
    assert.equal(registry.chain(71001)?.displayName, "Alpha Devnet");
    assert.equal(registry.chain(71002)?.displayName, "Beta");
    assert.equal(registry.chain(71002)?.blockExplorerUrl, "https://scan.example.org");
    assert.equal(registry.chain(71003)?.blockExplorerUrl, undefined);
    rejects(
      (j) => (j.chains[1].blockExplorerUrl = "ftp://scan.example.org"),
      /chains\[1\] \(beta\)\.blockExplorerUrl must be an http:\/\/ or https:\/\/ URL/,
    );
    rejects(
      (j) => (j.chains[1].blockExplorerUrl = "https://user:pw@scan.example.org"),
      /blockExplorerUrl must not carry credentials/,
    );
  });

  it("behavior: token and pair lookups are case-insensitive and chain-scoped", () => {
    const registry = parseRegistry(json());
    const usdc = registry.chain(71001)!.tokens.find((t) => t.symbol === "USDC")!;
    const weth = registry.chain(71001)!.dex.hubToken;
    assert.equal(registry.token(71001, usdc.address.toLowerCase()), usdc);
    assert.equal(registry.token(71001, `0x${usdc.address.slice(2).toUpperCase()}`), usdc);
    assert.equal(registry.token(71002, usdc.address), undefined);
    assert.equal(
      registry.pair(71001, weth.address.toUpperCase(), usdc.key)?.key,
      registry.pair(71001, usdc.address, weth.address)?.key,
    );
    assert.equal(registry.pair(71002, usdc.address, weth.address), undefined);
  });

  it("behavior: reverse lookups by name and by a kind's chain id", () => {
    const registry = parseRegistry(json());
    assert.equal(registry.chainByName("gamma")?.chainId, 71003);
    assert.equal(registry.chainByBridgeChainId(1, "102")?.name, "beta");
    assert.equal(registry.chainByBridgeChainId(2, "40103")?.name, "gamma");
    assert.equal(registry.chainByBridgeChainId(1, "40103"), undefined);
  });

  it("behavior: a chain may omit a bridge kind", () => {
    const j = json();
    delete j.chains[2].bridges["2"];
    delete j.chains[2].bridgeChainIds["2"];
    j.links = j.links.filter(
      (l: { kind: number; sourceChainId: number; destChainId: number }) =>
        !(l.kind === 2 && (l.sourceChainId === 71003 || l.destChainId === 71003)),
    );
    const registry = parseRegistry(j);
    assert.equal(registry.chain(71003)?.bridges[2], undefined);
  });

  it("error: names the bad entry", () => {
    rejects(
      (j) => (j.chains[1].tokens[0].decimals = 99),
      /chains\[1\] \(beta\)\.tokens\[0\]\.decimals must be an integer from 0 to 77/,
    );
    rejects(
      (j) => (j.chains[0].tokens[1].address = "0x1234"),
      /chains\[0\] \(alpha\)\.tokens\[1\]\.address must be an address/,
    );
    rejects(
      (j) => (j.chains[0].protocolBridges = []),
      /chains\[0\] \(alpha\)\.protocolBridges is no longer read: list these contracts in the top-level `contracts` array/,
    );
    rejects((j) => (j.chains[2].chainId = 71001), /repeats chainId 71001/);
    rejects((j) => (j.chains[2].name = "alpha"), /repeats name alpha/);
    rejects((j) => (j.chains[0].bridgeChainIds["1"] = "102"), /repeats bridgeChainIds\.1 102/);
    rejects(
      (j) => (j.chains[0].dex.pairs[0].token0 = j.chains[1].tokens[3].address),
      /dex\.pairs\[0\]\.token0 .* is not a token of chain alpha/,
    );
    rejects((j) => (j.links[4].destChainId = 5), /links\[4\]\.destChainId 5 is not a listed chain/);
    rejects(
      (j) => (j.links[0].sourceToken = j.chains[1].tokens[0].address),
      /links\[0\]\.sourceToken .* is not a token of alpha/,
    );
    rejects(
      (j) => (j.links[1] = { ...j.links[0] }),
      /links\[1\] repeats kind 0 link of DAI from alpha to beta/,
    );
    rejects((j) => j.chains[0].tokens.push({ ...j.chains[0].tokens[0] }), /repeats token/);
    rejects(
      (j) => j.chains[0].tokens.push({ address: NATIVE_ADDRESS, symbol: "X", decimals: 1 }),
      /reserved for the native coin/,
    );
    rejects(
      (j) => (j.chains[0].bridges["1"] = undefined),
      /must give both bridges\.1 and bridgeChainIds\.1/,
    );
    rejects((j) => (j.links[0].kind = 3), /links\[0\]\.kind must be a bridge kind/);
    rejects((j) => (j.chains = []), /chains must list at least one chain/);
    for (const bad of ["ftp://127.0.0.1/", "http://u:secret@127.0.0.1:99999/", "127.0.0.1:8545"]) {
      rejects(
        (j) => (j.chains[0].rpcUrl = bad),
        /^invalid registry: chains\[0\] \(alpha\)\.rpcUrl must be a valid http\(s\) URL$/,
      );
    }
  });

  it("behavior: publicRpcUrl is kept as given, apart from rpcUrl; absent, none is published", () => {
    const j = json();
    j.chains[0].rpcUrl = "https://user:secret@internal.example/v3/0123456789abcdef0123";
    j.chains[0].publicRpcUrl = "https://rpc.example.org/alpha?chain=1";
    j.chains[1].publicRpcUrl = "http://127.0.0.1:8546";
    const registry = parseRegistry(j);
    assert.equal(registry.chain(71001)?.publicRpcUrl, "https://rpc.example.org/alpha?chain=1");
    assert.equal(registry.chain(71002)?.publicRpcUrl, "http://127.0.0.1:8546");
    assert.equal(registry.chain(71003)?.publicRpcUrl, undefined);
  });

  it("error: a publicRpcUrl that is not http(s), or carries credentials, is refused unquoted", () => {
    const at = /invalid registry: chains\[0\] \(alpha\)\.publicRpcUrl /;
    const refused = (value: unknown, rule: RegExp) => {
      rejects((j) => (j.chains[0].publicRpcUrl = value), new RegExp(at.source + rule.source));
    };
    refused("", /must be a non-empty string/);
    refused(8545, /must be a non-empty string/);
    refused("127.0.0.1:8545", /must be an http:\/\/ or https:\/\/ URL/);
    refused("not a url", /must be an http:\/\/ or https:\/\/ URL such as/);
    refused("wss://rpc.example.org", /must be an http:\/\/ or https:\/\/ URL, got scheme "wss"/);
    refused("localhost:8545", /must be an http:\/\/ or https:\/\/ URL, got scheme "localhost"/);
    refused("https://user:hunter22@rpc.example.org", /must not carry credentials/);
    refused(
      "https://rpc.example.org/?apiKey=hunter22",
      /must not carry a secret-looking query parameter \(apiKey=\)/,
    );
    refused("https://rpc.example.org/#alpha", /must not have a #fragment/);
    const j = json();
    j.chains[0].publicRpcUrl = "https://user:hunter22@rpc.example.org";
    assert.throws(
      () => parseRegistry(j),
      (error: Error) => !error.message.includes("hunter22"),
    );
  });

  it("error: a mixed-case address with a wrong checksum", () => {
    rejects((j) => {
      const address: string = j.chains[0].dex.factory;
      const flipped =
        address.slice(0, 2) +
        [...address.slice(2)]
          .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
          .join("");
      j.chains[0].dex.factory = flipped;
    }, /dex\.factory has a wrong EIP-55 checksum/);
  });
});

describe("parseRegistry of a manifest / loadRegistry", () => {
  let dir = "";
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "registry-test-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("default: accepts the devnet manifest (extra fields ignored)", async () => {
    const j = json();
    for (const chain of j.chains) {
      chain.rpcUrl = "http://127.0.0.1:8545";
      chain.deployBlock = 3;
      chain.weth = chain.dex.hubToken;
      for (const token of chain.tokens) token.bridgeKinds = [];
    }
    const manifest = {
      version: 1,
      createdAt: "2026-01-01T00:00:00Z",
      ...j,
      deployer: {},
      relayer: {},
      accounts: [],
      abis: {},
    };
    const fromObject = parseRegistry(manifest);
    assert.equal(fromObject.chain(71001)?.rpcUrl, "http://127.0.0.1:8545");
    assert.equal(fromObject.chain(71001)?.deployBlock, 3);
    const file = join(dir, "manifest.json");
    await writeFile(file, JSON.stringify(manifest));
    const fromFile = await loadRegistry(file);
    assert.equal(fromFile.links.length, 18);
  });

  it("error: a file that is not JSON, or is invalid, names the file", async () => {
    const bad = join(dir, "bad.json");
    await writeFile(bad, "{ not json");
    await assert.rejects(loadRegistry(bad), /registry file .*bad\.json is not JSON/);
    const invalid = join(dir, "invalid.json");
    await writeFile(invalid, JSON.stringify({ chains: [{}], links: [] }));
    await assert.rejects(
      loadRegistry(invalid),
      /invalid\.json: invalid registry: chains\[0\]\.chainId/,
    );
    await assert.rejects(loadRegistry(join(dir, "missing.json")), /cannot read registry file/);
  });
});
