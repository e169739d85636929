/**
 * LayerZero OFT routes with swaps around them, quoted by the router over the chain state
 * provider (anvil devnet: the real EndpointV2 and OFTs, our OftSwapSender and OftSwapComposer)
 * and executed with the client's executeQuote, relayed by the devnet's LayerZero relayer
 * (lzReceive, then lzCompose for a destination swap):
 * - a source swap (alpha USDC -> DAI, the lzDAI adapter's send to beta);
 * - a destination swap (beta lzDAI -> alpha DAI -> USDC by the composer);
 * - both (alpha USDC -> DAI, adapter, beta lzDAI -> USDC through a pair the test creates on beta,
 *   on a registry with only the OFT routes so the router has to take it);
 * - every token discovery lists around the lzDAI legs, each way;
 * each delivers at least destMinAmount (exactly destMaxAmount: nothing else trades meanwhile) of
 * the destination token. The
 * composed send's messaging fee equals quoteSend of the quote's own SendParam at the block the
 * state was read at.
 * - An OFT whose address has no code (a registry mistake) leaves its own routes unpriced, named
 *   in the provider's status; the chain's other OFTs keep quoting.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Address, decodeFunctionData, type Hex, maxUint256 } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { executeQuote } from "../../packages/client/src/execute-quote.js";
import { toBaseUnits } from "../../src/amount.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import {
  createLayerZeroRelayer,
  type LayerZeroRelayer,
} from "../../src/devnet/protocols/layerzero-oft/relayer.js";
import { uniswapArtifact } from "../../src/devnet/uniswap-artifacts.js";
import { parseRegistry, type Registry } from "../../src/domain/registry.js";
import { erc20Abi, oftAbi } from "../../src/protocols/layerzero-oft/abi.js";
import { createConnectionCatalog } from "../../src/router/connections.js";
import { createRouter } from "../../src/router/create-router.js";
import {
  type ChainStateProvider,
  createChainStateProvider,
} from "../../src/router/providers/chain-state-provider.js";
import type { RouteQuoteData } from "../../src/router/quote-response.js";
import { connectChain, setupDevnet, type TestDevnet } from "../setup/anvil.js";

const GHOST = {
  alpha: privateKeyToAddress(generatePrivateKey()),
  beta: privateKeyToAddress(generatePrivateKey()),
};

describe("OFT routes with swaps quoted and executed on the devnet", () => {
  let devnet: TestDevnet;
  let relayer: LayerZeroRelayer;
  const providers: ChainStateProvider[] = [];

  before(async () => {
    devnet = await setupDevnet({ names: ["alpha", "beta"] });
    relayer = createLayerZeroRelayer({
      layerzero: devnet.manifest.layerzero!,
      chains: devnet.manifest.chains,
      retryDelayMs: 0,
    });
  });
  after(async () => {
    await relayer?.stop();
    for (const provider of providers) await provider.stop();
    await devnet?.cleanup();
  });

  const chainId = (name: string) => devnet.manifest.chains.find((c) => c.name === name)!.chainId;
  const eid = (name: string) =>
    devnet.manifest.layerzero!.chains.find((c) => c.chainId === chainId(name))!.eid;
  const lzDai = (name: string) =>
    devnet.manifest
      .layerzero!.meshes.find((m) => m.symbol === "lzDAI")!
      .deployments.find((d) => d.chainId === chainId(name))!;

  /** The manifest's registry, plus a mesh whose contracts have no code (a registry mistake). */
  function registryOf(manifest: DevnetManifest): Registry {
    const ghosts = (["alpha", "beta"] as const).map((name) => ({
      protocol: "layerzero-oft",
      kind: 2,
      chainId: chainId(name),
      address: GHOST[name],
      bridgeChainId: String(eid(name)),
      token: GHOST[name],
      symbol: "GHOST",
      decimals: 18,
      mesh: "GHOST",
    }));
    return parseRegistry({ ...manifest, contracts: [...(manifest.contracts ?? []), ...ghosts] });
  }

  const warnings: string[] = [];
  async function started(registry: Registry): Promise<ChainStateProvider> {
    const provider = createChainStateProvider({
      registry,
      maxStateAgeMs: 60_000,
      pollIntervalMs: 50,
      logger: { info() {}, warn: (_fields, msg) => warnings.push(msg) },
    });
    providers.push(provider);
    await provider.start();
    return provider;
  }

  async function quote(
    registry: Registry,
    provider: ChainStateProvider,
    from: [string, Address],
    to: [string, Address],
    amount: string,
    recipient: Address,
  ): Promise<RouteQuoteData> {
    await provider.refresh();
    const result = createRouter({ registry, memoizeQuotes: false }).quote(
      {
        sourceChain: String(chainId(from[0])),
        sourceToken: from[1],
        destChain: String(chainId(to[0])),
        destToken: to[1],
        amount,
        to: recipient,
      },
      provider.current(),
    );
    assert.ok(result.ok, result.ok ? "" : `${result.kind}: ${result.message}`);
    return result.data;
  }

  /** Sends the quote with executeQuote from user account 2, relays, returns what `recipient` got. */
  async function execute(
    data: RouteQuoteData,
    from: string,
    to: [string, Address],
    recipient: Address,
  ): Promise<bigint> {
    const sender = devnet.manifest.accounts[2]!;
    const source = connectChain(devnet.manifest, from);
    const dest = connectChain(devnet.manifest, to[0]);
    const before = await dest.balanceOf(to[1], recipient);
    await executeQuote({
      walletClient: source.wallet(sender),
      publicClient: source.client,
      quote: { transactionRequest: data.transactionRequest!, approval: data.approval! },
    });
    for (let i = 0; i < 60; i++) {
      await relayer.poll();
      const now = await dest.balanceOf(to[1], recipient);
      if (now !== before) return now - before;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("the OFT transfer was not delivered");
  }

  function params(data: RouteQuoteData): { sourceSwap: boolean; destSwap: boolean } {
    return JSON.parse(data.signData.params);
  }

  it("default: a source swap and a destination swap, each executed and relayed, deliver at least destMinAmount; an unreadable OFT leaves the others quoting", async () => {
    const registry = registryOf(devnet.manifest);
    const provider = await started(registry);
    const alpha = connectChain(devnet.manifest, "alpha");
    const beta = connectChain(devnet.manifest, "beta");
    const usdcAlpha = alpha.token("USDC");
    const sender = devnet.manifest.accounts[2]!;

    // The ghost OFTs are named in the status; the chains' other state is published.
    const status = provider.status();
    for (const name of ["alpha", "beta"] as const) {
      const chain = status.find((s) => s.name === name)!;
      assert.ok(chain.blockNumber !== null, `${name} state published`);
      assert.deepEqual(
        chain.unreadable?.map((u) => [u.protocol, u.address]),
        [["layerzero-oft", GHOST[name].toLowerCase()]],
      );
      assert.match(chain.unreadable![0]!.reason, /returned no data|reverted/);
    }
    // Logged once, naming the contract (the loop logs it again only when its reason changes).
    await provider.refresh();
    const logged = warnings.filter((w) => w.includes(GHOST.alpha.toLowerCase()));
    assert.equal(logged.length, 1, JSON.stringify(warnings));
    assert.match(logged[0]!, /cannot be read; its routes are not quoted/);

    // Source swap: USDC on alpha to lzDAI on beta, for the sender itself (case 2 sends it back).
    const sourceSwap = await quote(
      registry,
      provider,
      ["alpha", usdcAlpha],
      ["beta", lzDai("beta").token],
      "3000",
      sender.address,
    );
    assert.deepEqual([params(sourceSwap).sourceSwap, params(sourceSwap).destSwap], [true, false]);
    assert.equal(
      sourceSwap.transactionRequest!.to,
      devnet.manifest.layerzero!.chains[0]!.periphery!.swapSender,
    );
    const got1 = await execute(sourceSwap, "alpha", ["beta", lzDai("beta").token], sender.address);
    assert.ok(
      got1 >= toBaseUnits(sourceSwap.destMinAmount, 18),
      `source swap: ${got1} < destMinAmount`,
    );

    // Destination swap: lzDAI on beta to USDC on alpha through alpha's composer.
    const recipient = privateKeyToAddress(generatePrivateKey());
    const destSwap = await quote(
      registry,
      provider,
      ["beta", lzDai("beta").token],
      ["alpha", usdcAlpha],
      "500.000000000000000123",
      recipient,
    );
    assert.deepEqual([params(destSwap).sourceSwap, params(destSwap).destSwap], [false, true]);
    // The composed send's fee is quoteSend of this very SendParam at the block it was read at.
    const call = decodeFunctionData({ abi: oftAbi, data: destSwap.transactionRequest!.data });
    const [sendParam] = call.args as unknown as [
      {
        dstEid: number;
        to: Hex;
        amountLD: bigint;
        minAmountLD: bigint;
        extraOptions: Hex;
        composeMsg: Hex;
        oftCmd: Hex;
      },
    ];
    const fee = await beta.client.readContract({
      address: lzDai("beta").oft,
      abi: oftAbi,
      functionName: "quoteSend",
      args: [sendParam, false],
      blockNumber: BigInt(destSwap.stateBlocks![String(chainId("beta"))]!),
    });
    assert.equal(BigInt(destSwap.transactionRequest!.value), fee.nativeFee);
    // (The devnet's SimpleMessageLib charges a flat fee per message, so there it equals the plain
    // send's; a real executor prices the compose gas and the longer message.)
    const got2 = await execute(destSwap, "beta", ["alpha", usdcAlpha], recipient);
    assert.ok(got2 >= toBaseUnits(destSwap.destMinAmount, 6), `dest swap: ${got2} < destMinAmount`);
    assert.equal(got2, toBaseUnits(destSwap.destMaxAmount, 6), "the composer swaps as priced");
  });

  it("behavior: every token discovery lists around the lzDAI legs: each source swap into beta's lzDAI and each destination swap out of it, executed and relayed, delivers at least destMinAmount", async () => {
    const registry = registryOf(devnet.manifest);
    const provider = await started(registry);
    await provider.refresh();
    const catalog = createConnectionCatalog(registry, 50);
    const leg = (from: string, to: string, bridge: Address) =>
      catalog
        .connections(provider.current(), { sourceChain: chainId(from), destChain: chainId(to) })[0]!
        .bridges.find((b) => b.bridge === bridge)!;
    const out = leg("alpha", "beta", lzDai("alpha").oft);
    const back = leg("beta", "alpha", lzDai("beta").oft);
    assert.equal(out.swaps, undefined, "both swaps offered from alpha to beta");
    // [source swap amount in the token, destination swap amount of lzDAI into it]
    const amounts: Record<string, [string, string]> = {
      USDC: ["250", "75"],
      WETH: ["0.5", "120"],
      ORC: ["150", "80.5"],
      GOV: ["900", "60.000000000000000001"],
    };
    const token = (address: string) => registry.token(chainId("alpha"), address)!;
    const sources = out.sourceTokens.filter((a) => a !== lzDai("alpha").token).map(token);
    const dests = back.destTokens.filter((a) => a !== lzDai("alpha").token).map(token);
    // On the devnet only USDC has a path to alpha's DAI (the DAI/USDC pools); the loops take
    // whatever discovery lists, so a new pool joins them.
    assert.ok(sources.length >= 1 && dests.length >= 1, "swaps on both sides");
    for (const t of [...sources, ...dests])
      assert.ok(t.symbol in amounts, `an amount for ${t.symbol}`);
    for (const t of sources) {
      const recipient = privateKeyToAddress(generatePrivateKey());
      const amount = amounts[t.symbol]![0];
      const data = await quote(
        registry,
        provider,
        ["alpha", t.address],
        ["beta", lzDai("beta").token],
        amount,
        recipient,
      );
      assert.deepEqual([params(data).sourceSwap, params(data).destSwap], [true, false]);
      const got = await execute(data, "alpha", ["beta", lzDai("beta").token], recipient);
      const label = `${amount} ${t.symbol} -> lzDAI`;
      assert.ok(got >= toBaseUnits(data.destMinAmount, 18), `${label}: ${got} < destMinAmount`);
      assert.equal(got, toBaseUnits(data.destMaxAmount, 18), `${label}: as priced`);
    }
    for (const t of dests) {
      const recipient = privateKeyToAddress(generatePrivateKey());
      const amount = amounts[t.symbol]![1];
      const data = await quote(
        registry,
        provider,
        ["beta", lzDai("beta").token],
        ["alpha", t.address],
        amount,
        recipient,
      );
      assert.deepEqual([params(data).sourceSwap, params(data).destSwap], [false, true]);
      const got = await execute(data, "beta", ["alpha", t.address], recipient);
      const label = `${amount} lzDAI -> ${t.symbol}`;
      assert.ok(
        got >= toBaseUnits(data.destMinAmount, t.decimals),
        `${label}: ${got} < destMinAmount`,
      );
      assert.equal(got, toBaseUnits(data.destMaxAmount, t.decimals), `${label}: as priced`);
    }
  });

  it("behavior: both swaps (alpha USDC -> DAI -> beta lzDAI -> USDC through a new pair) executed and relayed deliver at least destMinAmount", async () => {
    const beta = connectChain(devnet.manifest, "beta");
    const alpha = connectChain(devnet.manifest, "alpha");
    const sender = devnet.manifest.accounts[2]!;
    const wallet = beta.wallet(sender);
    const usdcBeta = beta.token("USDC");
    const lz = lzDai("beta").token;
    // A lzDAI/USDC pair on beta from the sender's lzDAI (the first test bridged it there).
    const dex = beta.chain.dex;
    const routerAbi = uniswapArtifact("UniswapV2Router02").abi;
    for (const token of [lz, usdcBeta]) {
      const hash = await wallet.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: "approve",
        args: [dex.router, maxUint256],
      });
      await beta.client.waitForTransactionReceipt({ hash });
    }
    const hash = await wallet.writeContract({
      address: dex.router,
      abi: routerAbi,
      functionName: "addLiquidity",
      args: [
        lz,
        usdcBeta,
        1000n * 10n ** 18n,
        1000n * 10n ** 6n,
        0n,
        0n,
        sender.address,
        maxUint256,
      ],
    });
    await beta.client.waitForTransactionReceipt({ hash });
    const factoryAbi = [
      {
        type: "function",
        name: "getPair",
        stateMutability: "view",
        inputs: [
          { name: "a", type: "address" },
          { name: "b", type: "address" },
        ],
        outputs: [{ name: "", type: "address" }],
      },
    ] as const;
    const pair = await beta.client.readContract({
      address: dex.factory,
      abi: factoryAbi,
      functionName: "getPair",
      args: [lz, usdcBeta],
    });
    const [token0, token1] =
      lz.toLowerCase() < usdcBeta.toLowerCase() ? [lz, usdcBeta] : [usdcBeta, lz];
    // The registry with the new pair and without the reference bridges' links: only OFT routes.
    const manifest: DevnetManifest = {
      ...devnet.manifest,
      links: [],
      chains: devnet.manifest.chains.map((c) =>
        c.name === "beta"
          ? {
              ...c,
              tokens: [
                ...c.tokens,
                { symbol: "lzDAI", name: "lzDAI", address: lz, decimals: 18, bridgeKinds: [] },
              ],
              dex: { ...c.dex, pairs: [...c.dex.pairs, { address: pair, token0, token1 }] },
            }
          : c,
      ),
    };
    const registry = registryOf(manifest);
    const provider = await started(registry);
    const recipient = privateKeyToAddress(generatePrivateKey());
    const data = await quote(
      registry,
      provider,
      ["alpha", alpha.token("USDC")],
      ["beta", usdcBeta],
      "200",
      recipient,
    );
    assert.deepEqual([params(data).sourceSwap, params(data).destSwap], [true, true]);
    assert.equal(data.signData.bridge, lzDai("alpha").oft);
    const got = await execute(data, "alpha", ["beta", usdcBeta], recipient);
    assert.ok(got >= toBaseUnits(data.destMinAmount, 6), `both swaps: ${got} < destMinAmount`);
    // Nothing else trades on the devnet meanwhile: the swaps pay exactly what was priced.
    assert.equal(got, toBaseUnits(data.destMaxAmount, 6), "both swaps deliver destMaxAmount");
  });
});
