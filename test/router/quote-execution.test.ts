/**
 * End to end on the devnet: a key created with `bridge-oracle keys create`, the real app with the
 * router route over the chain state provider (reading the anvil chains), quotes of every bridge
 * kind with and without swaps on each side and the native coin in and out, executed from a fresh
 * funded account by sending the quote's `approval.transactionRequest` and `transactionRequest`
 * unchanged with plain viem (docs/router.md, "Executing a quote"), relayed as the relayer does,
 * indexed into the app's database: the record is `Success` and its receive_amount is what the
 * recipient (a fresh address, so gas never blurs a balance) got, between destMinAmount and
 * destMaxAmount; with nothing else moving the pools, exactly destMaxAmount. estimatedDuration is
 * null until enough transfers settled, then the percentiles of the list endpoint's records.
 * The other cases execute by hand as docs/devnet-contracts.md tells (params -> base units,
 * approve, bridge); a quote whose destination pool moves past the tolerance before delivery
 * fails and is refunded instead.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import {
  type Address,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  parseEventLogs,
  zeroAddress,
} from "viem";
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from "viem/accounts";
import { formatAmount, toBaseUnits } from "../../src/amount.js";
import { buildApp } from "../../src/api/app.js";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { registerRateLimit } from "../../src/api/plugins/rate-limit.js";
import { run as serve } from "../../src/cli/serve.js";
import { loadConfig } from "../../src/config/env.js";
import type { DevnetManifest, ManifestChain } from "../../src/devnet/manifest.js";
import { writeManifest } from "../../src/devnet/write-manifest.js";
import type { BridgeKind } from "../../src/domain/bridge-kind.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { parseRegistry, type Registry } from "../../src/domain/registry.js";
import { createRouter } from "../../src/router/create-router.js";
import { getAmountOut } from "../../src/router/dex.js";
import {
  type ChainStateProvider,
  createChainStateProvider,
} from "../../src/router/providers/chain-state-provider.js";
import {
  createDurationEstimator,
  type DurationEstimator,
  nearestRank,
} from "../../src/router/providers/duration-estimator.js";
import type { RouteQuoteData } from "../../src/router/quote-response.js";
import type { RouterRequest } from "../../src/router/validate-request.js";
import { type Database, openDatabase } from "../../src/store/index.js";
import { configOf, indexUntilIdle, openTestIndexer, type TestIndexer } from "../indexer/helpers.js";
import { runKeys } from "../keys/cli-io.js";
import {
  type BridgeParamsValue,
  type ChainConnection,
  connectChain,
  relay,
  sendBridge,
  setupDevnet,
  type TestDevnet,
  type TransferSentValue,
} from "../setup/anvil.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { waitForValue } from "../setup/eventually.js";
import { freePort } from "../setup/free-port.js";
import { assertQuoteRelations } from "./quote-relations.js";

/** docs/devnet-contracts.md "The entry function": the quote's params in base units. */
function bridgeParamsFromQuote(manifest: DevnetManifest, data: RouteQuoteData): BridgeParamsValue {
  const { signData } = data;
  const p = JSON.parse(signData.params);
  const source = manifest.chains.find((c) => c.name === signData.chainName)!;
  const decimalsOf = (chain: ManifestChain, address: string): number =>
    address === zeroAddress
      ? 18
      : chain.tokens.find((t) => t.address.toLowerCase() === address.toLowerCase())!.decimals;
  const dest = manifest.chains.find(
    (c) => c.bridgeChainIds[`${signData.bridgeType}` as `${BridgeKind}`] === p.destChainId,
  )!;
  return {
    destChainId: BigInt(p.destChainId),
    sourceToken: p.sourceToken as Address,
    destToken: p.destToken as Address,
    amount: toBaseUnits(p.amount, decimalsOf(source, p.sourceToken)),
    fee: toBaseUnits(p.fee, decimalsOf(source, p.sourceBridgeToken)),
    to: p.to as Address,
    sourceSwap: p.sourceSwap,
    sourceSwapFee: toBaseUnits(p.sourceSwapFee, decimalsOf(source, p.sourceToken)),
    sourceBridgeToken: p.sourceBridgeToken as Address,
    sourceMinAmount: toBaseUnits(p.sourceMinAmount, decimalsOf(source, p.sourceBridgeToken)),
    destSwap: p.destSwap,
    destSwapFee: toBaseUnits(p.destSwapFee, decimalsOf(dest, p.destBridgeToken)),
    destBridgeToken: p.destBridgeToken as Address,
    destMinAmount: toBaseUnits(p.destMinAmount, decimalsOf(dest, p.destToken)),
  };
}

describe("router quotes execute on the devnet", () => {
  let devnet: TestDevnet;
  let manifest: DevnetManifest;
  let registry: Registry;
  let conns: Map<string, ChainConnection>;
  let provider: ChainStateProvider;
  let db: IsolatedDatabase;
  let store: Database;
  let app: FastifyInstance;
  let key: string;
  let userIndex = 0;
  let ix: TestIndexer;
  let durations: DurationEstimator;

  before(async () => {
    devnet = await setupDevnet();
    manifest = devnet.manifest;
    registry = parseRegistry(manifest);
    conns = new Map(manifest.chains.map((c) => [c.name, connectChain(manifest, c.name)]));
    provider = createChainStateProvider({ registry, maxStateAgeMs: 15_000, pollIntervalMs: 100 });
    await provider.start();
    db = await setupIsolatedDatabase("sqlite");
    store = await openDatabase(db.databaseUrl);
    const created = await runKeys(db.databaseUrl, "create", "--name", "devnet-integrator");
    assert.equal(created.code, 0, created.stderr);
    key = created.lastLine;
    ix = await openTestIndexer(db.databaseUrl, configOf(manifest));
    durations = createDurationEstimator({ source: store.transfers });
    const config = loadConfig({ DATABASE_URL: db.databaseUrl, LOG_LEVEL: "silent" });
    app = await buildApp({
      config,
      store,
      plugins: [
        (root) => registerApiKeyAuth(root, { repository: store.apiKeys }),
        (root) => registerRateLimit(root, { keyPerMinute: 0 }),
      ],
      router: {
        router: createRouter({
          registry,
          extensions: { ttlSeconds: 30, estimatedDuration: durations.lookup },
        }),
        state: provider,
        maxStateAgeMs: 15_000,
      },
    });
    await app.ready();
  });
  after(async () => {
    await app?.close();
    await provider?.stop();
    await ix?.store.close();
    await store?.close();
    await db?.cleanup();
    await devnet?.cleanup();
  });

  const token = (chain: string, symbol: string): Address =>
    symbol === "ETH" ? zeroAddress : conns.get(chain)!.token(symbol);

  /** Asks the HTTP route for a quote once the provider has read every chain's latest block. */
  async function quote(request: RouterRequest): Promise<RouteQuoteData> {
    await provider.refresh();
    for (const chain of registry.chains) {
      const head = await conns.get(chain.name)!.client.getBlockNumber({ cacheTime: 0 });
      assert.equal(provider.current().chains.get(chain.chainId)?.blockNumber, head);
    }
    const response = await app.inject({
      method: "POST",
      url: "/api/oracle/router",
      headers: { authorization: key },
      payload: request,
    });
    assert.equal(response.statusCode, 200, response.body);
    const data = response.json().data as RouteQuoteData;
    assertQuoteRelations(registry, request, data);
    return data;
  }

  function request(
    sourceChain: string,
    sourceSymbol: string,
    destChain: string,
    destSymbol: string,
    amount: string,
  ): RouterRequest {
    return {
      sourceChain: String(conns.get(sourceChain)!.chain.chainId),
      sourceToken: token(sourceChain, sourceSymbol),
      destChain: String(conns.get(destChain)!.chain.chainId),
      destToken: token(destChain, destSymbol),
      amount,
      to: privateKeyToAddress(generatePrivateKey()),
    };
  }

  /** Executes a quote as an integrator, returns the source receipt and TransferSent. */
  async function execute(data: RouteQuoteData) {
    const source = conns.get(data.signData.chainName)!;
    const user = manifest.accounts[userIndex++ % manifest.accounts.length]!;
    assert.equal(source.chain.bridges[`${data.signData.bridgeType}`], data.signData.bridge);
    const params = bridgeParamsFromQuote(manifest, data);
    const sent = await sendBridge(manifest, source, user, data.signData.bridgeType, params);
    return { ...sent, user, source, params };
  }

  /**
   * Executes a quote as an integrator with only the answer and viem: a fresh account (never one
   * the devnet's traffic uses) gets gas money and the source amount from a funded account, then
   * sends `approval.transactionRequest` (when there is one) and `transactionRequest` unchanged.
   */
  async function executeAsIntegrator(data: RouteQuoteData, request: RouterRequest) {
    const tx = data.transactionRequest!;
    const source = [...conns.values()].find((c) => c.chain.chainId === tx.chainId)!;
    const funder = manifest.accounts[userIndex++ % manifest.accounts.length]!;
    const account = privateKeyToAccount(generatePrivateKey());
    const amount = toBaseUnits(
      data.signData.amount,
      registry.token(tx.chainId, request.sourceToken)!.decimals,
    );
    const native = request.sourceToken === zeroAddress;
    const funding = source.wallet(funder);
    const wait = async (hash: Hex) => {
      const receipt = await source.client.waitForTransactionReceipt({ hash });
      assert.equal(receipt.status, "success", `transaction ${hash}`);
      return receipt;
    };
    await wait(
      await funding.sendTransaction({
        to: account.address,
        value: 10n ** 18n + (native ? amount : 0n),
      }),
    );
    if (!native) {
      await wait(
        await funding.writeContract({
          address: request.sourceToken as Address,
          abi: manifest.abis.erc20,
          functionName: "transfer",
          args: [account.address, amount],
        }),
      );
    }
    // The integrator's side: plain viem, the quote's transactions as they came.
    const wallet = createWalletClient({
      account,
      chain: defineChain({
        id: tx.chainId,
        name: "source",
        nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
        rpcUrls: { default: { http: [source.chain.rpcUrl] } },
      }),
      transport: http(source.chain.rpcUrl),
    });
    const send = (t: NonNullable<RouteQuoteData["transactionRequest"]>) =>
      wallet.sendTransaction({ to: t.to, data: t.data, value: BigInt(t.value) });
    assert.equal(data.approval === null, native);
    if (data.approval) await wait(await send(data.approval.transactionRequest));
    const receipt = await wait(await send(tx));
    const [log] = parseEventLogs({
      abi: manifest.abis.bridge,
      logs: receipt.logs,
      eventName: "TransferSent",
    });
    assert.ok(log, "TransferSent in the bridge() receipt");
    const sent = (log as unknown as { args: TransferSentValue }).args;
    assert.equal(sent.sender, account.address);
    return { receipt, sent, source };
  }

  /** The list endpoint's records of an address (recipient or sender). */
  async function recordsOf(address: string): Promise<BridgeTransaction[]> {
    const response = await app.inject({
      url: `/api/oracle/bridge-transactions?addressOrTxHash=${address}&pageNo=1&pageSize=100`,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().data.data as BridgeTransaction[];
  }

  /**
   * Someone sells `sellSymbol` for `buySymbol` in alpha's direct pair first: as much as leaves a
   * swap of `amountIn` still paying at least `floor` (found on the pool's own formula). Returns
   * what that swap pays out afterwards, within a few base units of `floor`.
   */
  async function sellIntoSourcePool(
    sellSymbol: string,
    buySymbol: string,
    amountIn: bigint,
    floor: bigint,
  ): Promise<bigint> {
    const alpha = conns.get("alpha")!;
    const sell = alpha.token(sellSymbol);
    const buy = alpha.token(buySymbol);
    const wanted = [sell, buy]
      .map((t) => t.toLowerCase())
      .sort()
      .join();
    const pair = alpha.chain.dex.pairs.find(
      (p) =>
        [p.token0, p.token1]
          .map((t) => t.toLowerCase())
          .sort()
          .join() === wanted,
    )!;
    const [reserve0, reserve1] = (await alpha.client.readContract({
      address: pair.address,
      abi: manifest.abis.dexPair,
      functionName: "getReserves",
    })) as readonly [bigint, bigint, number];
    const sellIs0 = pair.token0.toLowerCase() === sell.toLowerCase();
    const [reserveSell, reserveBuy] = sellIs0 ? [reserve0, reserve1] : [reserve1, reserve0];
    const outputAfter = (sold: bigint) => {
      const taken = getAmountOut(sold, reserveSell, reserveBuy);
      return getAmountOut(amountIn, reserveSell + sold, reserveBuy - taken);
    };
    let lo = 0n;
    let hi = reserveSell;
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      if (outputAfter(mid) >= floor) lo = mid;
      else hi = mid;
    }
    const sold = lo;
    const edgeOutput = outputAfter(sold);
    assert.ok(edgeOutput >= floor && edgeOutput - floor < 100n, "the swap lands at the edge");

    const whale = manifest.accounts[manifest.accounts.length - 1]!;
    const wallet = alpha.wallet(whale);
    const approve = await wallet.writeContract({
      address: sell,
      abi: manifest.abis.erc20,
      functionName: "approve",
      args: [alpha.chain.dex.router, sold],
    });
    await alpha.client.waitForTransactionReceipt({ hash: approve });
    const swap = await wallet.writeContract({
      address: alpha.chain.dex.router,
      abi: manifest.abis.dexRouter,
      functionName: "swapExactTokensForTokens",
      args: [sold, 0n, [sell, buy], whale.address, 2n ** 40n],
    });
    assert.equal((await alpha.client.waitForTransactionReceipt({ hash: swap })).status, "success");
    return edgeOutput;
  }

  /** Recipients of the transfers the integrator test made: their records are the list's. */
  const recipients: string[] = [];
  /** Labels of transfers whose swaps went through a Uniswap V3 pool (its logs in a receipt). */
  const v3Swaps = new Set<string>();

  /**
   * Quote, execute as an integrator, relay, index: the record is Success and its receive_amount
   * is the recipient's balance change, between destMinAmount and destMaxAmount.
   */
  async function bridgeAsIntegrator(req: RouterRequest, label: string) {
    const data = await quote(req);
    const kind = data.signData.bridgeType;
    const { receipt, sent, source } = await executeAsIntegrator(data, req);
    const dc = registry.chain(Number(req.destChain))!.name;
    const dest = conns.get(dc)!;
    const before = await dest.balanceOf(req.destToken as Address, req.to as Address);
    const delivery = await relay(manifest, source, dest, kind, receipt, sent);
    assert.equal(delivery.status, "success", label);
    const received = (await dest.balanceOf(req.destToken as Address, req.to as Address)) - before;
    const decimals = registry.token(dest.chain.chainId, req.destToken)!.decimals;
    const min = toBaseUnits(data.destMinAmount, decimals);
    const max = toBaseUnits(data.destMaxAmount, decimals);
    assert.ok(received >= min, `${label} kind ${kind}: received ${received} < min ${min}`);
    assert.ok(received <= max, `${label} kind ${kind}: received ${received} > max ${max}`);
    assert.equal(received, max, `${label}: nothing else moved the pools, so exactly the quote`);
    for (const [conn, r] of [
      [source, receipt],
      [dest, delivery],
    ] as const) {
      const pools = new Set(conn.chain.uniswapV3?.pools.map((p) => p.address.toLowerCase()));
      if (r.logs.some((log) => pools.has(log.address.toLowerCase()))) v3Swaps.add(label);
    }
    await indexUntilIdle(ix.indexer.chains);
    recipients.push(req.to);
    const records = await recordsOf(req.to);
    const record = records.find((r) => r.source_tx_hash === receipt.transactionHash);
    assert.ok(record, `${label}: indexed`);
    assert.equal(record.status, "Success", label);
    assert.equal(record.receive_amount, formatAmount(received, decimals), label);
    return {
      data,
      params: JSON.parse(data.signData.params) as { sourceSwap: boolean; destSwap: boolean },
    };
  }

  it("behavior: every kind, swaps on each side, the native coin in and out: the quote's own transactions, sent unchanged, settle as quoted", async () => {
    const cases: [string, string, string, string, string][] = [
      ["alpha", "USDC", "beta", "USDC", "1234.567891"],
      ["beta", "USDC", "gamma", "USDC", "100000"],
      ["alpha", "DAI", "gamma", "DAI", "4321.000000000000000001"],
      ["alpha", "ETH", "gamma", "GOV", "1.5"],
      ["beta", "ORC", "alpha", "ETH", "37.12345678"],
      ["gamma", "USDC", "alpha", "ORC", "250"],
      ["beta", "GOV", "alpha", "USDC", "5000"],
    ];
    const kinds = new Set<number>();
    const swaps = new Set<string>();
    const natives = new Set<string>();
    for (const [sc, st, dc, dt, amount] of cases) {
      const req = request(sc, st, dc, dt, amount);
      const label = `${amount} ${st}@${sc} -> ${dt}@${dc}`;
      const { data, params } = await bridgeAsIntegrator(req, label);
      // A fresh devnet: nothing had settled before these quotes.
      assert.equal(data.estimatedDuration, null, label);
      kinds.add(data.signData.bridgeType);
      swaps.add(`${params.sourceSwap ? "source" : "-"}/${params.destSwap ? "dest" : "-"}`);
      if (st === "ETH") natives.add("in");
      if (dt === "ETH") natives.add("out");
    }
    assert.deepEqual([...kinds].sort(), [0, 1, 2]);
    assert.deepEqual([...swaps].sort(), ["-/-", "-/dest", "source/-", "source/dest"]);
    assert.deepEqual([...natives].sort(), ["in", "out"]);
    // The best venue of these swaps is a Uniswap V3 pool in several cases, and those quotes
    // delivered exactly destMaxAmount, too.
    assert.ok(v3Swaps.size >= 2, `swaps through V3 pools: ${[...v3Swaps].join("; ")}`);
  });

  it("behavior: estimatedDuration is null below 5 settled transfers, then the percentiles of the list endpoint's records", async () => {
    const req = () => request("alpha", "USDC", "beta", "USDC", "1234.567891");
    // The first test settled one such transfer; with three more, still too few.
    for (let i = 0; i < 3; i++) await bridgeAsIntegrator(req(), `transfer ${i + 2}`);
    await durations.refresh();
    const four = await quote(req());
    assert.equal(four.estimatedDuration, null);
    await bridgeAsIntegrator(req(), "transfer 5");
    await durations.refresh();
    const five = await quote(req());
    const source = registry.chain(71001)!;
    const settled = (await Promise.all(recipients.map(recordsOf)))
      .flat()
      .filter(
        (r) =>
          r.status === "Success" &&
          r.source_contract === five.signData.bridge &&
          r.source_chain_name === "alpha" &&
          r.dest_chain_name === "beta",
      );
    assert.equal(settled.length, 5);
    assert.equal(source.bridges[five.signData.bridgeType], five.signData.bridge);
    const seconds = (t: string) => Date.parse(`${t.replace(" ", "T")}Z`) / 1000;
    const durationsSeen = settled
      .map((r) => Math.max(0, seconds(r.end_time) - seconds(r.start_time)))
      .sort((a, b) => a - b);
    assert.deepEqual(five.estimatedDuration, {
      p50Seconds: nearestRank(durationsSeen, 50),
      p90Seconds: nearestRank(durationsSeen, 90),
      samples: 5,
    });
  });

  it("behavior: a source pool moved until the swap pays out exactly about sourceMinAmount still executes and delivers destMinAmount", async () => {
    // DAI on alpha -> USDC on beta: a source swap, the pool bridge's flat 0.5 USDC fee, no
    // destination swap, so the contract itself checks destMinAmount on the source chain.
    const req = request("alpha", "DAI", "beta", "USDC", "1000");
    const data = await quote(req);
    const params = bridgeParamsFromQuote(manifest, data);
    assert.equal(params.sourceSwap, true);
    assert.equal(params.destSwap, false);

    // Someone sells DAI into alpha's DAI/USDC pool first: as much as leaves this transfer's
    // swap output still at or above sourceMinAmount (found on the pool's own formula).
    const edgeOutput = await sellIntoSourcePool(
      "DAI",
      "USDC",
      params.amount,
      params.sourceMinAmount,
    );

    const { receipt, sent, source } = await execute(data);
    assert.equal(sent.bridgeAmount, edgeOutput);
    const beta = conns.get("beta")!;
    const before = await beta.balanceOf(req.destToken as Address, req.to as Address);
    const delivery = await relay(manifest, source, beta, data.signData.bridgeType, receipt, sent);
    assert.equal(delivery.status, "success");
    const received = (await beta.balanceOf(req.destToken as Address, req.to as Address)) - before;
    const min = toBaseUnits(data.destMinAmount, 6);
    const max = toBaseUnits(data.destMaxAmount, 6);
    assert.ok(received >= min, `received ${received} < destMinAmount ${min}`);
    // "destMaxAmount less 0.5 %" alone would have promised more than this transfer delivers,
    // and the contract would have reverted it.
    assert.ok(received < (max * 9950n) / 10000n, `received ${received}: not at the edge`);
  });

  it("behavior: a quote at the route's minimum still executes when the source price falls within the tolerance", async () => {
    // DAI on alpha -> USDC on beta below every route's minimum: 42202 names the accepted range.
    const tooSmall = request("alpha", "DAI", "beta", "USDC", "0.5");
    await provider.refresh();
    const refused = await app.inject({
      method: "POST",
      url: "/api/oracle/router",
      headers: { authorization: key },
      payload: tooSmall,
    });
    assert.equal(refused.statusCode, 422, refused.body);
    const minimum = /at least ([0-9.]+) DAI|between ([0-9.]+) and/.exec(refused.json().msg);
    assert.ok(minimum, refused.body);
    const data = await quote({ ...tooSmall, amount: (minimum[1] ?? minimum[2])! });
    const params = bridgeParamsFromQuote(manifest, data);
    assert.equal(params.sourceSwap, true);

    // The DAI price falls until this swap pays out only sourceMinAmount: the bridge's minAmount
    // must still be met there (before, the quoted minimum reverted "amount below minimum").
    await sellIntoSourcePool("DAI", "USDC", params.amount, params.sourceMinAmount);
    const { receipt, sent, source } = await execute(data);
    const beta = conns.get("beta")!;
    const delivery = await relay(manifest, source, beta, data.signData.bridgeType, receipt, sent);
    assert.equal(delivery.status, "success");
  });

  it("behavior: a destination pool moved past the tolerance fails and refunds the sender", async () => {
    const req = request("alpha", "USDC", "gamma", "GOV", "2000");
    const data = await quote(req);
    const params = JSON.parse(data.signData.params);
    assert.equal(params.destSwap, true);
    const { receipt, sent, user, source } = await execute(data);
    const sourceUsdc = source.token("USDC");
    const senderBefore = await source.balanceOf(sourceUsdc, user.address);

    // Someone buys GOV with 50,000 USDC in gamma's GOV/USDC pool (1,000,000 USDC deep): the
    // price moves by about 10 %, far past the 0.5 % tolerance.
    const gamma = conns.get("gamma")!;
    const whale = manifest.accounts[manifest.accounts.length - 1]!;
    const wallet = gamma.wallet(whale);
    const usdc = gamma.token("USDC");
    const amountIn = 50_000_000000n;
    const approve = await wallet.writeContract({
      address: usdc,
      abi: manifest.abis.erc20,
      functionName: "approve",
      args: [gamma.chain.dex.router, amountIn],
    });
    await gamma.client.waitForTransactionReceipt({ hash: approve });
    const swap = await wallet.writeContract({
      address: gamma.chain.dex.router,
      abi: manifest.abis.dexRouter,
      functionName: "swapExactTokensForTokens",
      args: [amountIn, 0n, [usdc, gamma.token("GOV")], whale.address, 2n ** 40n],
    });
    assert.equal((await gamma.client.waitForTransactionReceipt({ hash: swap })).status, "success");

    const recipientBefore = await gamma.balanceOf(req.destToken as Address, req.to as Address);
    const delivery = await relay(manifest, source, gamma, data.signData.bridgeType, receipt, sent);
    const failed = parseEventLogs({
      abi: manifest.abis.bridge,
      logs: delivery.logs,
      eventName: "TransferFailed",
    }) as unknown as { args: { messageId: Hex } }[];
    assert.equal(failed.length, 1, "TransferFailed on the destination");
    assert.equal(failed[0]!.args.messageId, sent.messageId);
    assert.equal(
      await gamma.balanceOf(req.destToken as Address, req.to as Address),
      recipientBefore,
    );

    // The relayer refunds on the source: the sender gets the net amount back in USDC.
    const relayerWallet = source.wallet(manifest.relayer);
    const refundHash = await relayerWallet.writeContract({
      address: data.signData.bridge as Address,
      abi: manifest.abis.bridge,
      functionName: "refund",
      args: [sent.messageId],
    });
    const refund = await source.client.waitForTransactionReceipt({ hash: refundHash });
    const refunded = parseEventLogs({
      abi: manifest.abis.bridge,
      logs: refund.logs,
      eventName: "TransferRefunded",
    });
    assert.equal(refunded.length, 1, "TransferRefunded on the source");
    const net = sent.bridgeAmount - sent.bridgeFee - sent.xprotoFee;
    assert.equal(await source.balanceOf(sourceUsdc, user.address), senderBefore + net);
  });

  it("behavior: a DEX pair anyone creates beyond the registry is priced through, as the contracts swap through it", async () => {
    // The registry (the devnet manifest) has no ORC/USDC pair on beta: USDC -> ORC goes through
    // WETH. A user creates one at 10 USDC per ORC (WETH prices ORC at 15): from now on the
    // contracts swap USDC -> ORC directly, and so must the quote.
    const beta = conns.get("beta")!;
    const orc = beta.token("ORC");
    const usdc = beta.token("USDC");
    const user = manifest.accounts[manifest.accounts.length - 2]!;
    const wallet = beta.wallet(user);
    for (const [token, amount] of [
      [orc, 10n * 10n ** 8n],
      [usdc, 100n * 10n ** 6n],
    ] as const) {
      const hash = await wallet.writeContract({
        address: token,
        abi: manifest.abis.erc20,
        functionName: "approve",
        args: [beta.chain.dex.router, amount],
      });
      await beta.client.waitForTransactionReceipt({ hash });
    }
    const add = await wallet.writeContract({
      address: beta.chain.dex.router,
      abi: manifest.abis.dexRouter,
      functionName: "addLiquidity",
      args: [orc, usdc, 10n * 10n ** 8n, 100n * 10n ** 6n, 0n, 0n, user.address, 2n ** 40n],
    });
    assert.equal((await beta.client.waitForTransactionReceipt({ hash: add })).status, "success");

    const req = request("alpha", "USDC", "beta", "ORC", "100");
    const data = await quote(req);
    const params = bridgeParamsFromQuote(manifest, data);
    assert.equal(params.destSwap, true);
    const { receipt, sent, source } = await execute(data);
    const before = await beta.balanceOf(orc, req.to as Address);
    const delivery = await relay(manifest, source, beta, data.signData.bridgeType, receipt, sent);
    assert.equal(delivery.status, "success");
    const failed = parseEventLogs({
      abi: manifest.abis.bridge,
      logs: delivery.logs,
      eventName: "TransferFailed",
    });
    assert.equal(failed.length, 0, "delivered, not failed and refunded");
    const received = (await beta.balanceOf(orc, req.to as Address)) - before;
    assert.equal(received, toBaseUnits(data.destMaxAmount, 8), "exactly the quote");
  });

  it("behavior: kind 0 deliveries into DAI's home chain are capped by the DAI locked there, read from the bridge", async () => {
    // Regression: the router read no liquidity for lock-and-mint, so a quote into alpha could
    // exceed the DAI its bridge holds and fail on delivery. Off the home chain the bridge mints.
    await provider.refresh();
    for (const [name, home] of [
      ["alpha", true],
      ["beta", false],
    ] as const) {
      const conn = conns.get(name)!;
      const dai = conn.token("DAI");
      const onChain = (await conn.client.readContract({
        address: conn.chain.bridges["0"]!,
        abi: manifest.abis.bridge,
        functionName: "availableLiquidity",
        args: [dai],
        blockNumber: provider.current().chains.get(conn.chain.chainId)!.blockNumber,
      })) as bigint;
      const read = provider.current().chains.get(conn.chain.chainId)!.bridges[0]!;
      assert.equal(read.availableLiquidity?.get(dai.toLowerCase()), onChain);
      if (home) assert.ok(onChain > 0n && onChain < 2n ** 255n, "the locked balance");
      else assert.equal(onChain, 2n ** 256n - 1n, "minted: unlimited");
    }
  });

  it("behavior: `serve` finds the devnet manifest in DEVNET_DIR, quotes with a CLI key, reports chains in /readyz", async () => {
    const dir = await mkdtemp(join(tmpdir(), "router-serve-"));
    let stop: (signal: string) => void = () => {};
    const stopSignal = new Promise<string>((resolve) => {
      stop = resolve;
    });
    try {
      await writeManifest(manifest, join(dir, "devnet"));
      const databaseUrl = join(dir, "db.sqlite");
      const port = await freePort();
      const env = {
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        DEVNET_DIR: join(dir, "devnet"),
        LOG_LEVEL: "silent",
      };
      const exited = serve([], { env, stopSignal });
      const base = `http://127.0.0.1:${port}`;
      const ready = await waitForValue(async () => {
        const response = await fetch(`${base}/readyz`);
        return response.status === 200
          ? ((await response.json()) as { data: { router: unknown[] } })
          : undefined;
      });
      assert.deepEqual(
        (ready.data.router as { name: string; fresh: boolean }[]).map((c) => [c.name, c.fresh]),
        [
          ["alpha", true],
          ["beta", true],
          ["gamma", true],
        ],
      );
      const created = await runKeys(databaseUrl, "create", "--name", "served");
      const body = request("alpha", "ETH", "gamma", "GOV", "1.5");
      const response = await waitForValue(async () => {
        // The server's key cache picks the new key up within about a second.
        const r = await fetch(`${base}/api/oracle/router`, {
          method: "POST",
          headers: { authorization: created.lastLine, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        return r.status === 401 ? undefined : r;
      });
      assert.equal(response.status, 200);
      assertQuoteRelations(
        registry,
        body,
        ((await response.json()) as { data: RouteQuoteData }).data,
      );
      stop("SIGTERM");
      assert.equal(await exited, 0);
    } finally {
      stop("SIGTERM");
      await rm(dir, { recursive: true, force: true });
    }
  });
});
