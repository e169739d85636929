/**
 * The devnet's Uniswap V2 (UniswapV2Factory, UniswapV2Pair, UniswapV2Router02 as published on
 * npm) against real anvil: the mainnet init code hash, quotes and swaps equal the integer formula
 * of docs/protocol.md exactly, and the bridges' swap path rule (direct, else via WETH).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Address, encodePacked, getContractAddress, keccak256, maxUint256 } from "viem";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import {
  UNISWAP_V2_PAIR_INIT_CODE_HASH,
  uniswapArtifact,
} from "../../src/devnet/uniswap-artifacts.js";
import {
  amountOut,
  type ChainConnection,
  connectChain,
  reservesOf,
  setupDevnet,
  type TestDevnet,
} from "../setup/anvil.js";

describe("contracts: DEX (Uniswap V2 factory, pair, router; path rule)", () => {
  let devnet: TestDevnet;
  let manifest: DevnetManifest;
  let alpha: ChainConnection;
  let beta: ChainConnection;

  before(async () => {
    devnet = await setupDevnet();
    manifest = devnet.manifest;
    alpha = connectChain(manifest, "alpha");
    beta = connectChain(manifest, "beta");
  });
  after(async () => devnet?.cleanup());

  const amountsOut = (conn: ChainConnection, amountIn: bigint, path: Address[]) =>
    conn.client.readContract({
      address: conn.chain.dex.router,
      abi: manifest.abis.dexRouter,
      functionName: "getAmountsOut",
      args: [amountIn, path],
    }) as Promise<readonly bigint[]>;

  it("default: pairs are seeded at the protocol prices with deep liquidity", async () => {
    const [usdc, weth] = await reservesOf(
      manifest,
      alpha,
      alpha.token("USDC"),
      alpha.token("WETH"),
    );
    assert.equal(usdc, 3_000_000n * 10n ** 6n);
    assert.equal(weth, 1_000n * 10n ** 18n);
    const [dai, usdc2] = await reservesOf(manifest, beta, beta.token("DAI"), beta.token("USDC"));
    assert.equal(dai / 10n ** 12n, usdc2); // 1 DAI = 1 USDC
    const [orc, weth2] = await reservesOf(manifest, alpha, alpha.token("ORC"), alpha.token("WETH"));
    assert.equal((weth2 * 3_000n * 10n ** 8n) / orc / 10n ** 18n, 15n); // ORC = 15 USDC
    const [gov, usdc3] = await reservesOf(manifest, beta, beta.token("GOV"), beta.token("USDC"));
    assert.equal((usdc3 * 10n ** 18n) / gov / 10n ** 6n, 2n); // GOV = 2 USDC
    assert.equal(alpha.chain.dex.pairs.length, 3);
    assert.equal(beta.chain.dex.pairs.length, 4);
  });

  it("default: Uniswap V2 as published: the pair's creation code hashes to mainnet's init code hash, and pairs sit at its CREATE2 addresses", async () => {
    const pair = uniswapArtifact("UniswapV2Pair");
    assert.equal(keccak256(pair.bytecode), UNISWAP_V2_PAIR_INIT_CODE_HASH);
    assert.equal(
      UNISWAP_V2_PAIR_INIT_CODE_HASH,
      "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f",
    );
    for (const chain of [alpha, beta]) {
      for (const { address, token0, token1 } of chain.chain.dex.pairs) {
        const create2 = getContractAddress({
          opcode: "CREATE2",
          from: chain.chain.dex.factory,
          salt: keccak256(encodePacked(["address", "address"], [token0, token1])),
          bytecodeHash: UNISWAP_V2_PAIR_INIT_CODE_HASH,
        });
        assert.equal(address, create2, `${chain.chain.name} pair ${address}`);
      }
    }
    // UniswapV2Router02 derives pair addresses with that hash (pairFor): its quotes work.
    const [code, router] = await Promise.all([
      alpha.client.getCode({ address: alpha.chain.dex.pairs[0]!.address }),
      alpha.client.getCode({ address: alpha.chain.dex.router }),
    ]);
    assert.ok(code !== undefined && code.length > 2, "pair code");
    assert.ok(router?.includes(UNISWAP_V2_PAIR_INIT_CODE_HASH.slice(2)), "router embeds the hash");
  });

  it("behavior: getAmountsOut equals the formula for one and two hops", async () => {
    const usdc = alpha.token("USDC");
    const weth = alpha.token("WETH");
    const orc = alpha.token("ORC");
    const amountIn = 12_345n * 10n ** 6n;
    const [rUsdc, rWeth] = await reservesOf(manifest, alpha, usdc, weth);
    const hop1 = amountOut(amountIn, rUsdc, rWeth);
    assert.deepEqual(await amountsOut(alpha, amountIn, [usdc, weth]), [amountIn, hop1]);
    const [rWeth2, rOrc] = await reservesOf(manifest, alpha, weth, orc);
    const hop2 = amountOut(hop1, rWeth2, rOrc);
    assert.deepEqual(await amountsOut(alpha, amountIn, [usdc, weth, orc]), [amountIn, hop1, hop2]);
    // Visible price impact: 12,345 USDC buys noticeably less than 12,345 / 3,000 WETH.
    assert.ok(hop1 < (amountIn * 10n ** 12n) / 3_000n, "hop1 < (amountIn * 10n ** 12n) / 3_000n");
  });

  it("behavior: a swap pays exactly the quoted amount and moves the reserves by it", async () => {
    const trader = manifest.accounts[6]!;
    const wallet = alpha.wallet(trader);
    const usdc = alpha.token("USDC");
    const weth = alpha.token("WETH");
    const amountIn = 50_000n * 10n ** 6n;
    const [rUsdc, rWeth] = await reservesOf(manifest, alpha, usdc, weth);
    const expected = amountOut(amountIn, rUsdc, rWeth);
    await alpha.client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: usdc,
        abi: manifest.abis.erc20,
        functionName: "approve",
        args: [alpha.chain.dex.router, amountIn],
      }),
    });
    const before = await alpha.balanceOf(weth, trader.address);
    await alpha.client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: alpha.chain.dex.router,
        abi: manifest.abis.dexRouter,
        functionName: "swapExactTokensForTokens",
        args: [amountIn, expected, [usdc, weth], trader.address, maxUint256],
      }),
    });
    assert.equal(await alpha.balanceOf(weth, trader.address), before + expected);
    assert.deepEqual(await reservesOf(manifest, alpha, usdc, weth), [
      rUsdc + amountIn,
      rWeth - expected,
    ]);
  });

  it("error: a swap below amountOutMin reverts", async () => {
    const trader = manifest.accounts[6]!;
    const usdc = alpha.token("USDC");
    const weth = alpha.token("WETH");
    const amountIn = 1_000n * 10n ** 6n;
    const [rUsdc, rWeth] = await reservesOf(manifest, alpha, usdc, weth);
    await assert.rejects(
      alpha.wallet(trader).writeContract({
        address: alpha.chain.dex.router,
        abi: manifest.abis.dexRouter,
        functionName: "swapExactTokensForTokens",
        args: [
          amountIn,
          amountOut(amountIn, rUsdc, rWeth) + 1n,
          [usdc, weth],
          trader.address,
          maxUint256,
        ],
      }),
      /UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT/,
    );
  });

  it("behavior: getAmountsIn is the smallest input that yields the output", async () => {
    const usdc = alpha.token("USDC");
    const weth = alpha.token("WETH");
    const want = 10n ** 18n;
    const [rUsdc, rWeth] = await reservesOf(manifest, alpha, usdc, weth);
    const amounts = (await alpha.client.readContract({
      address: alpha.chain.dex.router,
      abi: manifest.abis.dexRouter,
      functionName: "getAmountsIn",
      args: [want, [usdc, weth]],
    })) as readonly bigint[];
    const amountIn = amounts[0]!;
    assert.equal(amountIn, (rUsdc * want * 1000n) / ((rWeth - want) * 997n) + 1n);
    assert.ok(
      amountOut(amountIn, rUsdc, rWeth) >= want,
      "amountOut(amountIn, rUsdc, rWeth) >= want",
    );
    assert.ok(
      amountOut(amountIn - 1n, rUsdc, rWeth) < want,
      "amountOut(amountIn - 1n, rUsdc, rWeth) < want",
    );
  });

  it("behavior: the bridges' path rule: direct pair, else through WETH, else no route", async () => {
    const path = (a: Address, b: Address) =>
      beta.client.readContract({
        address: beta.chain.bridges["1"],
        abi: manifest.abis.poolBridge,
        functionName: "swapPath",
        args: [a, b],
      }) as Promise<readonly Address[]>;
    const [usdc, weth, orc, gov, dai] = ["USDC", "WETH", "ORC", "GOV", "DAI"].map((s) =>
      beta.token(s),
    ) as [Address, Address, Address, Address, Address];
    assert.deepEqual(await path(usdc, gov), [usdc, gov]);
    assert.deepEqual(await path(orc, usdc), [orc, weth, usdc]);
    // GOV has no WETH pair on beta: no route to ORC although both tokens exist there.
    await assert.rejects(path(gov, orc), /no swap route/);
    await assert.rejects(path(dai, weth), /no swap route/);
    await assert.rejects(path(gov, dai), /no swap route/);
  });
});
