/**
 * The discovery endpoints over the router fixture (docs/router.md, "Discovery"): chains and
 * tokens as the registry has them, and connections listed exactly when a quote can be asked:
 * every token pair route search takes is listed, every listed pair is one route search takes,
 * and a quote of each listed bridge token at its listed minimum and maximum succeeds.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { DISCOVERY_PATHS } from "../../src/api/routes/discovery.js";
import { parseRegistry } from "../../src/domain/registry.js";
import { createConnectionCatalog } from "../../src/router/connections.js";
import { createRouter } from "../../src/router/create-router.js";
import { createRouterFixture } from "../../src/router/fixtures.js";
import { enumerateRoutes } from "../../src/router/routes.js";
import { buildRouterTestApp, type RouterTestApp } from "./router-app.js";

const TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

interface Listed {
  sourceChain: number;
  destChain: number;
  bridges: {
    bridgeType: number;
    sourceBridgeToken: { address: string };
    destBridgeToken: { address: string };
    sourceTokens: string[];
    destTokens: string[];
    minAmount: string | null;
    maxAmount: string | null;
    fee: { feeBps: number; flatFee: string; messagingFee: string } | null;
  }[];
}

describe("discovery endpoints", () => {
  // Extra tokens: one- and two-hop swap paths, and tokens no path reaches.
  const f = createRouterFixture({ extraTokensPerChain: 3, readAtMs: Date.now() });
  let t: RouterTestApp;
  before(async () => {
    t = await buildRouterTestApp({
      router: createRouter({ registry: f.registry }),
      snapshot: f.snapshot,
    });
  });
  after(() => t?.close());

  const get = async (url: string) => {
    const response = await t.app.inject({ url });
    return { status: response.statusCode, body: response.json() };
  };

  it("default: chains with native coin, bridge chain ids and no indexer; tokens as the registry has them", async () => {
    const chains = await get(DISCOVERY_PATHS.chains);
    assert.equal(chains.status, 200);
    assert.deepEqual(
      chains.body.data.chains,
      f.registry.chains.map((c) => ({
        chainId: c.chainId,
        name: c.name,
        displayName: c.name.charAt(0).toUpperCase() + c.name.slice(1),
        nativeCurrency: { name: c.nativeToken.symbol, symbol: c.nativeToken.symbol, decimals: 18 },
        rpcUrls: [],
        blockExplorerUrls: [],
        bridgeChainIds: Object.fromEntries(
          Object.entries(c.bridgeChainIds).map(([k, v]) => [k, v]),
        ),
        indexOnly: [],
        indexer: null,
      })),
    );
    const linked = new Set(f.registry.links.flatMap((l) => [l.sourceToken, l.destToken]));
    const beta = await get(`${DISCOVERY_PATHS.tokens}?chainId=71002`);
    assert.deepEqual(
      beta.body.data.tokens,
      f.chain("beta").tokens.map((token) => ({
        chainId: 71002,
        address: token.address,
        symbol: token.symbol,
        decimals: token.decimals,
        isBridgeToken: linked.has(token),
      })),
    );
    const all = await get(DISCOVERY_PATHS.tokens);
    assert.equal(
      all.body.data.tokens.length,
      f.registry.chains.reduce((n, c) => n + c.tokens.length, 0),
    );
  });

  it("behavior: the top-level contracts (LayerZero's OFTs) are index-only on their chains; an auxiliary endpoint is not listed", async () => {
    const json = structuredClone(f.registryJson) as {
      chains: { chainId: number }[];
      contracts?: unknown[];
    };
    const oft = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
    const endpoint = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
    const chainId = json.chains[1]!.chainId;
    json.contracts = [
      {
        protocol: "layerzero-oft",
        chainId,
        kind: 2,
        address: endpoint,
        bridgeChainId: "40102",
        auxiliary: true,
      },
      {
        protocol: "layerzero-oft",
        chainId,
        kind: 0,
        address: oft,
        bridgeChainId: "40102",
        token: oft,
      },
    ];
    const listed = await buildRouterTestApp({
      router: createRouter({ registry: parseRegistry(json) }),
      snapshot: f.snapshot,
    });
    try {
      const response = await listed.app.inject({ url: DISCOVERY_PATHS.chains });
      assert.equal(response.statusCode, 200);
      const [first, second] = response.json().data.chains;
      assert.deepEqual(first.indexOnly, []);
      assert.deepEqual(second.indexOnly, [
        { protocol: "layerzero-oft", bridgeType: 0, contract: oft },
      ]);
    } finally {
      await listed.close();
    }
  });

  it("behavior: Across' SpokePool in the top-level contracts is listed as index-only on its chain", async () => {
    const json = structuredClone(f.registryJson) as {
      chains: { chainId: number }[];
      contracts?: unknown[];
    };
    const spokePool = "0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64";
    const chainId = json.chains[0]!.chainId;
    json.contracts = [
      { protocol: "across", chainId, kind: 1, address: spokePool, bridgeChainId: String(chainId) },
    ];
    const listed = await buildRouterTestApp({
      router: createRouter({ registry: parseRegistry(json) }),
      snapshot: f.snapshot,
    });
    try {
      const response = await listed.app.inject({ url: DISCOVERY_PATHS.chains });
      assert.equal(response.statusCode, 200);
      const [first, second] = response.json().data.chains;
      assert.deepEqual(first.indexOnly, [
        { protocol: "across", bridgeType: 1, contract: spokePool },
      ]);
      assert.deepEqual(second.indexOnly, []);
    } finally {
      await listed.close();
    }
  });

  it("behavior: rpcUrls publishes a chain's publicRpcUrl only, never the rpcUrl the server reads", async () => {
    const json = structuredClone(f.registryJson) as { chains: Record<string, unknown>[] };
    for (const chain of json.chains) chain.rpcUrl = "https://reader:s3cret@node.internal/v3/k";
    json.chains[0]!.publicRpcUrl = "https://rpc.example.org/alpha";
    json.chains[1]!.blockExplorerUrl = "https://explorer.example.org/beta/";
    json.chains[1]!.displayName = "Beta Testnet";
    const published = await buildRouterTestApp({
      router: createRouter({ registry: parseRegistry(json) }),
      snapshot: f.snapshot,
    });
    try {
      const response = await published.app.inject({ url: DISCOVERY_PATHS.chains });
      assert.equal(response.statusCode, 200);
      const chains = response.json().data.chains as { chainId: number; rpcUrls: string[] }[];
      assert.deepEqual(
        chains.map((c) => [c.chainId, c.rpcUrls]),
        [
          [71001, ["https://rpc.example.org/alpha"]],
          [71002, []],
          [71003, []],
        ],
      );
      const beta = chains[1] as unknown as { displayName: string; blockExplorerUrls: string[] };
      assert.deepEqual(
        [beta.displayName, beta.blockExplorerUrls],
        ["Beta Testnet", ["https://explorer.example.org/beta"]],
        "the block explorer is published without its trailing slash",
      );
      assert.ok(
        !response.body.includes("node.internal"),
        '!response.body.includes("node.internal")',
      );
    } finally {
      await published.close();
    }
  });

  it("behavior: a token pair is listed exactly when route search has a route for it", async () => {
    const { body } = await get(DISCOVERY_PATHS.connections);
    const connections = body.data.connections as Listed[];
    const listed = new Set<string>();
    for (const c of connections) {
      for (const b of c.bridges) {
        for (const s of b.sourceTokens) {
          for (const d of b.destTokens) listed.add(`${c.sourceChain}:${s}>${c.destChain}:${d}`);
        }
      }
    }
    let quotable = 0;
    let crossChain = 0;
    for (const source of f.registry.chains) {
      for (const dest of f.registry.chains) {
        if (source === dest) continue;
        for (const s of source.tokens) {
          for (const d of dest.tokens) {
            const key = `${source.chainId}:${s.address}>${dest.chainId}:${d.address}`;
            const routes = enumerateRoutes(f.registry, s, d).length > 0;
            crossChain++;
            if (routes) quotable++;
            assert.equal(listed.has(key), routes, key);
          }
        }
      }
    }
    assert.equal(listed.size, quotable);
    assert.ok(quotable > 100 && quotable <= crossChain, `${quotable} of ${crossChain}`);
  });

  it("behavior: a token no swap path reaches is in no connection (and route search has none)", () => {
    const json = structuredClone(f.registryJson) as { chains: { tokens: unknown[] }[] };
    const lone = "0x00000000000000000000000000000000000a11ce";
    json.chains[1]!.tokens.push({ address: lone, symbol: "LONE", decimals: 9 });
    const registry = parseRegistry(json);
    const token = registry.token(71002, lone)!;
    const catalog = createConnectionCatalog(registry, 50);
    const listed = catalog
      .connections(f.snapshot)
      .flatMap((c) => c.bridges.flatMap((b) => [...b.sourceTokens, ...b.destTokens]));
    assert.ok(listed.length > 0, "listed.length > 0");
    assert.ok(!listed.includes(token.address), "!listed.includes(token.address)");
    for (const other of registry.chain(71001)!.tokens) {
      assert.deepEqual(enumerateRoutes(registry, other, token), []);
      assert.deepEqual(enumerateRoutes(registry, token, other), []);
    }
  });

  it("behavior: each listed bridge token quotes at its listed minimum and maximum", async () => {
    const { body } = await get(`${DISCOVERY_PATHS.connections}?sourceChain=71001`);
    const connections = body.data.connections as Listed[];
    assert.deepEqual(
      connections.map((c) => [c.sourceChain, c.destChain]),
      [
        [71001, 71002],
        [71001, 71003],
      ],
    );
    let checked = 0;
    for (const c of connections) {
      for (const b of c.bridges) {
        assert.ok(b.fee !== null && b.minAmount !== null, "the fixture has every state");
        for (const amount of [b.minAmount, b.maxAmount]) {
          if (amount === null) continue;
          const response = await t.app.inject({
            method: "POST",
            url: "/api/oracle/router",
            headers: { authorization: t.key },
            payload: {
              sourceChain: String(c.sourceChain),
              sourceToken: b.sourceBridgeToken.address,
              destChain: String(c.destChain),
              destToken: b.destBridgeToken.address,
              amount,
              to: TO,
            },
          });
          assert.equal(
            response.statusCode,
            200,
            `${JSON.stringify(b)} at ${amount}: ${response.body}`,
          );
          checked++;
        }
      }
    }
    assert.ok(checked >= 6, `${checked} quotes`);
    const both = await get(`${DISCOVERY_PATHS.connections}?sourceChain=71002&destChain=71003`);
    assert.deepEqual(
      (both.body.data.connections as Listed[]).map((c) => [c.sourceChain, c.destChain]),
      [[71002, 71003]],
    );
  });

  it("behavior: a chain id of up to 20 digits with leading zeros names its chain, as in the router", async () => {
    const chainId = f.registry.chains[0]?.chainId as number;
    const padded = String(chainId).padStart(20, "0");
    const tokens = await get(`${DISCOVERY_PATHS.tokens}?chainId=${padded}`);
    assert.equal(tokens.status, 200);
    assert.deepEqual(
      tokens.body.data.tokens,
      (await get(`${DISCOVERY_PATHS.tokens}?chainId=${chainId}`)).body.data.tokens,
    );
    assert.equal((await get(`${DISCOVERY_PATHS.tokens}?chainId=0${padded}`)).status, 400);
  });

  it("error: a chain id that is not a registry chain's numeric id answers 400 40001 naming it", async () => {
    for (const [url, name] of [
      [`${DISCOVERY_PATHS.tokens}?chainId=`, "chainId"],
      [`${DISCOVERY_PATHS.tokens}?chainId=0x1`, "chainId"],
      [`${DISCOVERY_PATHS.tokens}?chainId=1`, "chainId"],
      [`${DISCOVERY_PATHS.tokens}?chainId=71001&chainId=71002`, "chainId"],
      [`${DISCOVERY_PATHS.connections}?sourceChain=abc`, "sourceChain"],
      [
        `${DISCOVERY_PATHS.connections}?sourceChain=71001&destChain=99999999999999999999`,
        "destChain",
      ],
    ] as const) {
      const { status, body } = await get(url);
      assert.equal(status, 400, url);
      assert.equal(body.code, 40001, url);
      assert.equal(body.data, null);
      assert.match(body.msg, new RegExp(`^${name} must`), url);
    }
  });
});

describe("discovery endpoints without a registry", () => {
  it("default: empty lists, and any chain id is refused", async () => {
    const t = await buildRouterTestApp({ router: undefined, snapshot: { chains: new Map() } });
    try {
      for (const [path, key] of [
        [DISCOVERY_PATHS.chains, "chains"],
        [DISCOVERY_PATHS.tokens, "tokens"],
        [DISCOVERY_PATHS.connections, "connections"],
      ] as const) {
        const response = await t.app.inject({ url: path });
        assert.equal(response.statusCode, 200);
        assert.deepEqual(response.json().data, { [key]: [] });
      }
      const refused = await t.app.inject({ url: `${DISCOVERY_PATHS.tokens}?chainId=71001` });
      assert.equal(refused.statusCode, 400);
      assert.match(refused.json().msg, /none configured/);
    } finally {
      await t.close();
    }
  });
});
