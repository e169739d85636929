import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Address, zeroAddress } from "viem";
import type { DevnetManifest, ManifestChain } from "./manifest.js";
import {
  amountForUsd,
  applySlippage,
  bridgeFee,
  chooseTransfer,
  createRandom,
  NATIVE,
  swapPath,
} from "./traffic-plan.js";

const addr = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;
const [WETH, USDC, DAI, ORC, GOV] = [addr(1), addr(2), addr(3), addr(4), addr(5)];

function chain(chainId: number, extra: "ORC" | "GOV"): ManifestChain {
  const extraToken = extra === "ORC" ? ORC : GOV;
  return {
    name: `c${chainId}`,
    chainId,
    rpcUrl: "http://127.0.0.1:1",
    deployBlock: 1,
    bridgeChainIds: { 0: `${chainId}`, 1: `${chainId - 70900}`, 2: `${chainId - 31000}` },
    bridges: { 0: addr(chainId * 10), 1: addr(chainId * 10 + 1), 2: addr(chainId * 10 + 2) },
    messagingEndpoint: addr(chainId * 10 + 3),
    dex: {
      factory: addr(90),
      router: addr(91),
      hubToken: WETH,
      pairs: [
        { address: addr(100), token0: USDC, token1: WETH },
        { address: addr(101), token0: DAI, token1: USDC },
        extra === "ORC"
          ? { address: addr(102), token0: ORC, token1: WETH }
          : { address: addr(103), token0: GOV, token1: USDC },
      ],
    },
    weth: WETH,
    tokens: [
      { symbol: "USDC", name: "USD Coin", address: USDC, decimals: 6, bridgeKinds: [1, 2] },
      { symbol: "DAI", name: "Dai", address: DAI, decimals: 18, bridgeKinds: [0] },
      { symbol: "WETH", name: "Wrapped Ether", address: WETH, decimals: 18, bridgeKinds: [] },
      {
        symbol: extra,
        name: extra,
        address: extraToken,
        decimals: extra === "ORC" ? 8 : 18,
        bridgeKinds: [],
      },
    ],
  };
}

const alpha = chain(71001, "ORC");
const beta = chain(71002, "GOV");
const manifest = {
  chains: [alpha, beta],
  links: [0, 1, 2].flatMap((kind) => [
    {
      kind,
      sourceChainId: 71001,
      sourceToken: kind === 0 ? DAI : USDC,
      destChainId: 71002,
      destToken: kind === 0 ? DAI : USDC,
    },
    {
      kind,
      sourceChainId: 71002,
      sourceToken: kind === 0 ? DAI : USDC,
      destChainId: 71001,
      destToken: kind === 0 ? DAI : USDC,
    },
  ]),
  accounts: [],
} as unknown as DevnetManifest;

describe("createRandom", () => {
  it("default: the same seed gives the same sequence, in [0, 1)", () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const xs = Array.from({ length: 100 }, () => a.next());
    assert.deepEqual(
      xs,
      Array.from({ length: 100 }, () => b.next()),
    );
    assert.ok(
      xs.every((x) => x >= 0 && x < 1),
      "xs.every((x) => x >= 0 && x < 1)",
    );
    assert.notDeepEqual(
      xs.slice(0, 5),
      Array.from({ length: 5 }, () => createRandom(43).next()),
    );
  });
  it("error: picking from an empty list throws", () => {
    assert.throws(() => createRandom(1).pick([]), RangeError);
  });
});

describe("swapPath", () => {
  it("default: a direct pair is a one-hop path", () => {
    assert.deepEqual(swapPath(alpha, DAI, USDC), [DAI, USDC]);
  });
  it("behavior: without a direct pair the path goes through the hub token", () => {
    assert.deepEqual(swapPath(alpha, ORC, USDC), [ORC, WETH, USDC]);
  });
  it("behavior: the native coin swaps as WETH", () => {
    assert.deepEqual(swapPath(alpha, zeroAddress, USDC), [WETH, USDC]);
    assert.deepEqual(swapPath(alpha, USDC, zeroAddress), [USDC, WETH]);
  });
  it("behavior: a V3 pool is a venue too, as the SwapAdapter counts it (direct, or as a hub leg)", () => {
    const pool = (token0: Address, token1: Address, fee: number) => ({
      address: addr(200 + fee),
      token0,
      token1,
      fee,
      tickSpacing: 1,
    });
    const withV3 = (pools: ReturnType<typeof pool>[]) => ({
      ...alpha,
      uniswapV3: {
        factory: addr(110),
        positionManager: addr(111),
        swapRouter: addr(112),
        quoterV2: addr(113),
        tickLens: addr(114),
        pools,
      },
    });
    assert.deepEqual(swapPath(withV3([pool(DAI, ORC, 100)]), DAI, ORC), [DAI, ORC]);
    assert.deepEqual(swapPath(withV3([pool(DAI, WETH, 500)]), DAI, ORC), [DAI, WETH, ORC]);
  });
  it("behavior: no route when a hub pair is missing or the tokens are the same", () => {
    assert.equal(swapPath(alpha, DAI, ORC), null); // DAI has no WETH pair
    assert.equal(swapPath(alpha, USDC, USDC), null);
    assert.equal(swapPath(alpha, zeroAddress, WETH), null);
  });
});

describe("fee arithmetic", () => {
  it("default: bridgeFee is flat plus basis points, floored", () => {
    const config = { feeBps: 30n, flatFee: 1000n, minAmount: 0n, maxAmount: 0n };
    assert.equal(bridgeFee(config, 1_000_000n), 1000n + 3000n);
    assert.equal(bridgeFee(config, 333n), 1000n);
  });
  it("default: applySlippage floors", () => {
    assert.equal(applySlippage(1_000_000n, 50n), 995_000n);
    assert.equal(applySlippage(199n, 50n), 198n);
  });
  it("default: amountForUsd uses the token's decimals and rough price", () => {
    assert.equal(amountForUsd({ symbol: "USDC", address: USDC, decimals: 6 }, 1_000n), 10_000_000n);
    assert.equal(amountForUsd(NATIVE, 300_000n), 10n ** 18n);
  });
});

describe("chooseTransfer", () => {
  it("default: picks a link of the wanted kind and tokens that reach its bridge tokens", () => {
    const random = createRandom(7);
    for (let i = 0; i < 200; i++) {
      const kind = ([0, 1, 2] as const)[i % 3] ?? 0;
      const choice = chooseTransfer(manifest, random, { kind, failureRate: 0.2 });
      if (choice === null) continue;
      assert.equal(choice.kind, kind);
      assert.equal(choice.link.kind, kind);
      assert.notEqual(choice.source.chainId, choice.dest.chainId);
      if (choice.sourceToken.address !== choice.link.sourceToken) {
        assert.notEqual(
          swapPath(choice.source, choice.sourceToken.address, choice.link.sourceToken),
          null,
        );
      }
      if (choice.failure !== "none")
        assert.notEqual(choice.destToken.address, choice.link.destToken);
      assert.ok(
        choice.usdCents >= 1_000n && choice.usdCents <= 200_000n,
        "choice.usdCents >= 1_000n && choice.usdCents <= 200_000n",
      );
    }
  });
  it("behavior: over many draws there are swaps on both sides and transfers built to fail", () => {
    const random = createRandom(11);
    const choices = Array.from({ length: 300 }, (_, i) =>
      chooseTransfer(manifest, random, {
        kind: ([0, 1, 2] as const)[i % 3] ?? 0,
        failureRate: 0.2,
      }),
    ).filter((c) => c !== null);
    assert.ok(
      choices.some((c) => c.sourceToken.address !== c.link.sourceToken),
      "choices.some((c) => c.sourceToken.address !== c.link.sourceToken)",
    );
    assert.ok(
      choices.some((c) => c.destToken.address !== c.link.destToken),
      "choices.some((c) => c.destToken.address !== c.link.destToken)",
    );
    assert.ok(
      choices.some((c) => c.sourceToken.address === zeroAddress),
      "choices.some((c) => c.sourceToken.address === zeroAddress)",
    );
    assert.ok(
      choices.some((c) => c.failure === "dest-min-too-high"),
      'choices.some((c) => c.failure === "dest-min-too-high")',
    );
    assert.ok(
      choices.some((c) => c.failure === "none"),
      'choices.some((c) => c.failure === "none")',
    );
  });
  it("behavior: no link of the kind means no transfer", () => {
    const only0 = { ...manifest, links: manifest.links.filter((l) => l.kind === 0) };
    assert.equal(chooseTransfer(only0, createRandom(1), { kind: 2, failureRate: 0 }), null);
  });
});
