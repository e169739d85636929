/**
 * Our LayerZero swap periphery on the devnet (anvil), end to end through the real EndpointV2 and
 * OFTs and the devnet's DVN + executor: a source swap and OFT send in one transaction through
 * OftSwapSender, a destination swap through OftSwapComposer run by lzCompose (paid as swapped, or
 * in the bridged token when the swap misses its minimum or has no route), the executor's
 * out-of-gas guard, and lzCompose callers the composer refuses. Transactions are built by the
 * pure builders (periphery.ts, compose.ts, transaction.ts).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  type Address,
  encodeAbiParameters,
  encodeErrorResult,
  type Hex,
  keccak256,
  pad,
  parseAbi,
  parseEventLogs,
  type TransactionReceipt,
  toFunctionSelector,
  toHex,
} from "viem";
import { adapterSwapOut } from "../../../src/devnet/adapter-quote.js";
import type { ManifestAccount } from "../../../src/devnet/manifest.js";
import {
  endpointAbi,
  erc20Abi,
  oftAbi,
  oftSwapComposerAbi,
  oftSwapSenderAbi,
} from "../../../src/protocols/layerzero-oft/abi.js";
import {
  type LayerZeroArtifacts,
  loadLayerZeroArtifacts,
  runtimeCodeMatches,
} from "../../../src/protocols/layerzero-oft/artifacts.js";
import {
  buildDestinationSwap,
  decodeOftComposeMessage,
  decodeSwapComposeMsg,
  encodeOftComposeMessage,
  encodeSwapComposeMsg,
} from "../../../src/protocols/layerzero-oft/compose.js";
import type {
  LayerZeroManifest,
  LayerZeroManifestPeriphery,
} from "../../../src/protocols/layerzero-oft/devnet/manifest.js";
import {
  createLayerZeroRelayer,
  type LayerZeroRelayer,
} from "../../../src/protocols/layerzero-oft/devnet/relayer.js";
import {
  buildOftSwapSendApproval,
  buildOftSwapSendTransaction,
} from "../../../src/protocols/layerzero-oft/periphery.js";
import { removeDust } from "../../../src/protocols/layerzero-oft/quote-math.js";
import { buildOftSendTransaction } from "../../../src/protocols/layerzero-oft/transaction.js";
import { type ChainConnection, setupDevnet, type TestDevnet } from "../../setup/anvil.js";
import { guidOf, type LayerZeroDevnetView, viewLayerZeroDevnet } from "./send-oft.js";

const DUST_RATE = 10n ** 12n; // 18 local decimals, 6 shared

describe("layerzero-oft swap periphery on the devnet", () => {
  let devnet: TestDevnet;
  let lz: LayerZeroManifest;
  let view: LayerZeroDevnetView;
  let relayer: LayerZeroRelayer;
  let artifacts: LayerZeroArtifacts;

  before(async () => {
    artifacts = loadLayerZeroArtifacts();
    devnet = await setupDevnet();
    view = viewLayerZeroDevnet(devnet.manifest);
    lz = view.lz;
    // Driven with poll(): each test decides when packets and composes are worked.
    relayer = createLayerZeroRelayer({
      layerzero: lz,
      chains: devnet.manifest.chains,
      retryDelayMs: 0,
    });
  });
  after(async () => {
    await relayer?.stop();
    await devnet?.cleanup();
  });

  const chain = (name: string): ChainConnection => view.chain(name);
  const user = (index: number): ManifestAccount => view.user(index);
  const periphery = (name: string): LayerZeroManifestPeriphery => {
    const found = view.lzChain(name).periphery;
    assert.ok(found !== undefined, `${name} has the swap periphery`);
    return found;
  };
  const balance = (name: string, token: Address, owner: Address) =>
    chain(name).balanceOf(token, owner);
  const allowance = (name: string, token: Address, owner: Address, spender: Address) =>
    chain(name).client.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [owner, spender],
    });

  async function sendAs(
    name: string,
    account: ManifestAccount,
    request: { to: Address; data: Hex; value: Hex },
  ): Promise<TransactionReceipt> {
    const hash = await chain(name)
      .wallet(account)
      .sendTransaction({ to: request.to, data: request.data, value: BigInt(request.value) });
    const receipt = await chain(name).client.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success", `transaction on ${name}`);
    return receipt;
  }

  /** quoteSend of the OFT for exactly this SendParam (compose message and options included). */
  async function quoteFee(
    name: string,
    oft: Address,
    sendParam: {
      dstEid: number;
      to: Address;
      amountLD: bigint;
      minAmountLD: bigint;
      extraOptions?: Hex;
      composeMsg?: Hex;
    },
  ): Promise<bigint> {
    const fee = await chain(name).client.readContract({
      address: oft,
      abi: oftAbi,
      functionName: "quoteSend",
      args: [
        {
          dstEid: sendParam.dstEid,
          to: pad(sendParam.to, { size: 32 }),
          amountLD: sendParam.amountLD,
          minAmountLD: sendParam.minAmountLD,
          extraOptions: sendParam.extraOptions ?? "0x",
          composeMsg: sendParam.composeMsg ?? "0x",
          oftCmd: "0x",
        },
        false,
      ],
    });
    return fee.nativeFee;
  }

  /** A source swap of `amountIn` USDC into DAI on alpha, sent through the lzDAI adapter. */
  async function swapAndSendFromAlpha(p: {
    account: ManifestAccount;
    amountIn: bigint;
    minAmountOut: bigint;
    dstName: string;
    to: Address;
    refundAddress: Address;
    nativeFee: bigint;
    composeMsg?: Hex;
    extraOptions?: Hex;
  }) {
    const alpha = chain("alpha");
    const sender = periphery("alpha").swapSender;
    const approval = buildOftSwapSendApproval({
      chainId: alpha.chain.chainId,
      tokenIn: alpha.token("USDC"),
      sender,
      amountIn: p.amountIn,
    });
    await sendAs("alpha", p.account, approval.transactionRequest);
    const request = buildOftSwapSendTransaction({
      chainId: alpha.chain.chainId,
      sender,
      oft: view.deployment("lzDAI", "alpha").oft,
      tokenIn: alpha.token("USDC"),
      amountIn: p.amountIn,
      minAmountOut: p.minAmountOut,
      dstEid: view.lzChain(p.dstName).eid,
      to: p.to,
      minAmountLD: removeDust(p.minAmountOut, DUST_RATE),
      nativeFee: p.nativeFee,
      refundAddress: p.refundAddress,
      ...(p.composeMsg === undefined ? {} : { composeMsg: p.composeMsg }),
      ...(p.extraOptions === undefined ? {} : { extraOptions: p.extraOptions }),
    });
    return request;
  }

  it("default: both periphery contracts are deployed on every chain with our compiled code, wired to the chain's SwapAdapter and endpoint", async () => {
    for (const name of ["alpha", "beta", "gamma"]) {
      const { client } = chain(name);
      const p = periphery(name);
      assert.equal(p.swapAdapter, chain(name).chain.dex.adapter);
      const senderCode = (await client.getCode({ address: p.swapSender })) as Hex;
      assert.ok(runtimeCodeMatches(senderCode, artifacts.OftSwapSender), `${name}: sender code`);
      const composerCode = (await client.getCode({ address: p.swapComposer })) as Hex;
      assert.ok(
        runtimeCodeMatches(composerCode, artifacts.OftSwapComposer),
        `${name}: composer code`,
      );
      const read = (address: Address, abi: typeof oftSwapComposerAbi, fn: "swapAdapter") =>
        client.readContract({ address, abi, functionName: fn });
      assert.equal(await read(p.swapSender, oftSwapComposerAbi, "swapAdapter"), p.swapAdapter);
      assert.equal(await read(p.swapComposer, oftSwapComposerAbi, "swapAdapter"), p.swapAdapter);
      assert.equal(
        await client.readContract({
          address: p.swapComposer,
          abi: oftSwapComposerAbi,
          functionName: "endpoint",
        }),
        view.lzChain(name).endpoint,
      );
      for (const mesh of lz.meshes) {
        assert.equal(
          await client.readContract({
            address: p.swapComposer,
            abi: oftSwapComposerAbi,
            functionName: "trustedOft",
            args: [view.deployment(mesh.symbol, name).oft],
          }),
          true,
          `${name} trusts ${mesh.symbol}`,
        );
      }
    }
  });

  it("behavior: USDC swapped to DAI and sent through the adapter in one transaction; delivered on beta after relaying, dust and excess fee refunded, nothing left in the sender", async () => {
    const alpha = chain("alpha");
    const account = user(0);
    const recipient = user(1).address;
    const refundTo: Address = "0x000000000000000000000000000000000000fee1"; // holds nothing yet
    const usdc = alpha.token("USDC");
    const dai = alpha.token("DAI");
    const adapter = view.deployment("lzDAI", "alpha");
    const lzDaiBeta = view.deployment("lzDAI", "beta");
    const sender = periphery("alpha").swapSender;
    const amountIn = 1_000_123_457n; // 1000.123457 USDC: the DAI out has dust below 10^12
    const expectedOut = await adapterSwapOut(alpha.client, alpha.chain, [usdc, dai], amountIn);
    assert.ok(expectedOut % DUST_RATE !== 0n, "the swap output has dust");
    const sentLD = removeDust(expectedOut, DUST_RATE);
    const fee = await quoteFee("alpha", adapter.oft, {
      dstEid: lzDaiBeta.eid,
      to: recipient,
      amountLD: sentLD,
      minAmountLD: 0n,
    });
    const before = {
      usdc: await balance("alpha", usdc, account.address),
      dai: await balance("alpha", dai, account.address),
      locked: await balance("alpha", dai, adapter.oft),
      refund: await alpha.client.getBalance({ address: refundTo }),
      received: await balance("beta", lzDaiBeta.token, recipient),
    };

    const request = await swapAndSendFromAlpha({
      account,
      amountIn,
      minAmountOut: (expectedOut * 99n) / 100n,
      dstName: "beta",
      to: recipient,
      refundAddress: refundTo,
      nativeFee: fee * 2n, // half of it comes back to refundTo
    });
    const receipt = await sendAs("alpha", account, request);
    const [event, ...others] = parseEventLogs({
      abi: oftSwapSenderAbi,
      eventName: "OftSwapSent",
      logs: receipt.logs,
    });
    assert.ok(event !== undefined && others.length === 0, "one OftSwapSent");
    assert.equal(event.args.sender, account.address);
    assert.equal(event.args.oft, adapter.oft);
    assert.equal(event.args.tokenIn, usdc);
    assert.equal(event.args.amountIn, amountIn);
    assert.equal(event.args.amountSwapped, expectedOut);
    assert.equal(event.args.amountSentLD, sentLD);
    assert.equal(event.args.guid.toLowerCase(), guidOf(receipt));

    assert.equal(before.usdc - (await balance("alpha", usdc, account.address)), amountIn);
    assert.equal(
      (await balance("alpha", dai, account.address)) - before.dai,
      expectedOut - sentLD,
      "the dust goes back to the caller",
    );
    assert.equal((await balance("alpha", dai, adapter.oft)) - before.locked, sentLD);
    assert.equal(
      (await alpha.client.getBalance({ address: refundTo })) - before.refund,
      fee,
      "the endpoint refunds the fee paid above its own",
    );
    for (const token of [usdc, dai]) {
      assert.equal(await balance("alpha", token, sender), 0n, "no token left in the sender");
    }
    assert.equal(await alpha.client.getBalance({ address: sender }), 0n);
    assert.equal(await allowance("alpha", usdc, sender, periphery("alpha").swapAdapter), 0n);
    assert.equal(await allowance("alpha", dai, sender, adapter.oft), 0n);

    await relayer.poll();
    assert.equal(
      (await balance("beta", lzDaiBeta.token, recipient)) - before.received,
      sentLD,
      "delivered on beta",
    );
  });

  it("behavior: through a plain OFT (no approval: it burns from the sender contract) with the OFT's own token in, nothing is swapped and the dust comes back", async () => {
    const alpha = chain("alpha");
    const account = user(0);
    const omni = view.deployment("OMNI", "alpha");
    const omniGamma = view.deployment("OMNI", "gamma");
    const sender = periphery("alpha").swapSender;
    const amountIn = 5n * 10n ** 18n + 123n;
    const sentLD = removeDust(amountIn, DUST_RATE);
    await sendAs(
      "alpha",
      account,
      buildOftSwapSendApproval({
        chainId: alpha.chain.chainId,
        tokenIn: omni.token,
        sender,
        amountIn,
      }).transactionRequest,
    );
    const before = await balance("alpha", omni.token, account.address);
    const receivedBefore = await balance("gamma", omniGamma.token, account.address);
    const receipt = await sendAs(
      "alpha",
      account,
      buildOftSwapSendTransaction({
        chainId: alpha.chain.chainId,
        sender,
        oft: omni.oft,
        tokenIn: omni.token,
        amountIn,
        minAmountOut: amountIn,
        dstEid: omniGamma.eid,
        to: account.address,
        minAmountLD: sentLD,
        nativeFee: BigInt(view.lzChain("alpha").nativeFee),
        refundAddress: account.address,
      }),
    );
    const [event] = parseEventLogs({
      abi: oftSwapSenderAbi,
      eventName: "OftSwapSent",
      logs: receipt.logs,
    });
    assert.equal(event?.args.amountSwapped, amountIn);
    assert.equal(event?.args.amountSentLD, sentLD);
    assert.equal(before - (await balance("alpha", omni.token, account.address)), sentLD);
    assert.equal(await balance("alpha", omni.token, sender), 0n);
    await relayer.poll();
    assert.equal(
      (await balance("gamma", omniGamma.token, account.address)) - receivedBefore,
      sentLD,
    );
  });

  it("behavior: a source swap below its minimum reverts the whole transaction", async () => {
    const alpha = chain("alpha");
    const account = user(0);
    const amountIn = 500_000_000n;
    const expectedOut = await adapterSwapOut(
      alpha.client,
      alpha.chain,
      [alpha.token("USDC"), alpha.token("DAI")],
      amountIn,
    );
    const usdcBefore = await balance("alpha", alpha.token("USDC"), account.address);
    const request = await swapAndSendFromAlpha({
      account,
      amountIn,
      minAmountOut: expectedOut + 1n,
      dstName: "gamma",
      to: account.address,
      refundAddress: account.address,
      nativeFee: BigInt(view.lzChain("alpha").nativeFee),
    });
    await assert.rejects(
      alpha.client.call({
        account: account.address,
        to: request.to,
        data: request.data,
        value: BigInt(request.value),
      }),
      /insufficient output amount/,
    );
    assert.equal(await balance("alpha", alpha.token("USDC"), account.address), usdcBefore);
  });

  /** lzDAI on beta sent to alpha's composer, which swaps the unlocked DAI into USDC. */
  async function sendComposeToAlpha(
    account: ManifestAccount,
    amountLD: bigint,
    swap: {
      minAmountOut: bigint;
      recipient: Address;
      composeGas?: bigint;
    },
  ) {
    const lzDaiBeta = view.deployment("lzDAI", "beta");
    const fields = buildDestinationSwap({
      composer: periphery("alpha").swapComposer,
      tokenOut: chain("alpha").token("USDC"),
      minAmountOut: swap.minAmountOut,
      recipient: swap.recipient,
      ...(swap.composeGas === undefined ? {} : { composeGas: swap.composeGas }),
    });
    const sendParam = {
      dstEid: view.lzChain("alpha").eid,
      to: fields.to,
      amountLD,
      minAmountLD: removeDust(amountLD, DUST_RATE),
      extraOptions: fields.extraOptions,
      composeMsg: fields.composeMsg,
    };
    const nativeFee = await quoteFee("beta", lzDaiBeta.oft, sendParam);
    const request = buildOftSendTransaction({
      chainId: chain("beta").chain.chainId,
      oft: lzDaiBeta.oft,
      ...sendParam,
      nativeFee,
      refundAddress: account.address,
    });
    const receipt = await sendAs("beta", account, request);
    return { guid: guidOf(receipt), sendParam };
  }

  /** The composer's events on alpha for `guid`. */
  async function composerEvents(guid: Hex) {
    const logs = await chain("alpha").client.getLogs({
      address: periphery("alpha").swapComposer,
      fromBlock: BigInt(chain("alpha").chain.deployBlock),
      toBlock: "latest",
    });
    return parseEventLogs({ abi: oftSwapComposerAbi, logs }).filter(
      (e) => e.args.guid.toLowerCase() === guid,
    );
  }

  it("behavior: a send with compose swaps on the destination: the executor runs lzCompose after lzReceive and the recipient gets at least the minimum", async () => {
    const alpha = chain("alpha");
    const account = user(1); // holds lzDAI on beta since the source-swap test
    const recipient = user(2).address;
    const usdc = alpha.token("USDC");
    const dai = alpha.token("DAI");
    const composer = periphery("alpha").swapComposer;
    const amountLD = 300n * 10n ** 18n;
    const expected = await adapterSwapOut(alpha.client, alpha.chain, [dai, usdc], amountLD);
    const minAmountOut = (expected * 99n) / 100n;
    const usdcBefore = await balance("alpha", usdc, recipient);
    const composed = relayer.stats().composed;

    const { guid } = await sendComposeToAlpha(account, amountLD, { minAmountOut, recipient });
    // The packet's compose message is ours, byte for byte.
    await relayer.poll();
    assert.equal(relayer.stats().composed, composed + 1, "lzCompose executed in the same pass");
    assert.equal(relayer.stats().composePending, 0);
    const events = await composerEvents(guid);
    assert.deepEqual(
      events.map((e) => e.eventName),
      ["ComposeSwapped"],
    );
    const swapped = events[0];
    assert.ok(swapped?.eventName === "ComposeSwapped", "ComposeSwapped");
    assert.equal(swapped.args.oft, view.deployment("lzDAI", "alpha").oft);
    assert.equal(swapped.args.recipient, recipient);
    assert.equal(swapped.args.amountIn, amountLD);
    const got = (await balance("alpha", usdc, recipient)) - usdcBefore;
    assert.equal(got, swapped.args.amountOut);
    assert.equal(got, expected, "the SwapAdapter's rule, priced before the delivery");
    assert.ok(got >= minAmountOut, "at least the minimum");
    assert.equal(await balance("alpha", dai, composer), 0n, "nothing left in the composer");
    assert.equal(await allowance("alpha", dai, composer, periphery("alpha").swapAdapter), 0n);
    // The endpoint marks the compose received: a second pass does nothing.
    const queued = await alpha.client.readContract({
      address: view.lzChain("alpha").endpoint,
      abi: endpointAbi,
      functionName: "composeQueue",
      args: [view.deployment("lzDAI", "alpha").oft, composer, guid, 0],
    });
    assert.equal(BigInt(queued), 1n);
    await relayer.poll();
    assert.equal(relayer.stats().composed, composed + 1);
  });

  it("behavior: a compose whose swap would miss the minimum pays the recipient the bridged token instead", async () => {
    const alpha = chain("alpha");
    const account = user(1);
    const recipient = user(3).address;
    const dai = alpha.token("DAI");
    const usdc = alpha.token("USDC");
    const amountLD = 100n * 10n ** 18n;
    const expected = await adapterSwapOut(alpha.client, alpha.chain, [dai, usdc], amountLD);
    const before = {
      dai: await balance("alpha", dai, recipient),
      usdc: await balance("alpha", usdc, recipient),
    };

    const { guid } = await sendComposeToAlpha(account, amountLD, {
      minAmountOut: expected * 2n,
      recipient,
    });
    await relayer.poll();
    const events = await composerEvents(guid);
    assert.deepEqual(
      events.map((e) => e.eventName),
      ["ComposeFallback"],
    );
    const fallback = events[0];
    assert.ok(fallback?.eventName === "ComposeFallback", "ComposeFallback");
    assert.equal(fallback.args.token, dai);
    assert.equal(fallback.args.amount, amountLD);
    assert.equal(
      fallback.args.reason,
      encodeErrorResult({
        abi: parseAbi(["error Error(string)"]),
        errorName: "Error",
        args: ["SwapAdapter: insufficient output amount"],
      }),
    );
    assert.equal((await balance("alpha", dai, recipient)) - before.dai, amountLD);
    assert.equal(await balance("alpha", usdc, recipient), before.usdc);
    assert.equal(await balance("alpha", dai, periphery("alpha").swapComposer), 0n);
  });

  it("behavior: both ends in one route: a source swap on alpha composes on beta, where lzDAI has no pool, so the recipient gets lzDAI", async () => {
    const alpha = chain("alpha");
    const account = user(4);
    const recipient = user(5).address;
    const lzDaiBeta = view.deployment("lzDAI", "beta");
    const amountIn = 200_000_000n;
    const expectedOut = await adapterSwapOut(
      alpha.client,
      alpha.chain,
      [alpha.token("USDC"), alpha.token("DAI")],
      amountIn,
    );
    const fields = buildDestinationSwap({
      composer: periphery("beta").swapComposer,
      tokenOut: chain("beta").token("USDC"),
      minAmountOut: 1n,
      recipient,
    });
    const fee = await quoteFee("alpha", view.deployment("lzDAI", "alpha").oft, {
      dstEid: lzDaiBeta.eid,
      to: fields.to,
      amountLD: removeDust(expectedOut, DUST_RATE),
      minAmountLD: 0n,
      extraOptions: fields.extraOptions,
      composeMsg: fields.composeMsg,
    });
    const request = await swapAndSendFromAlpha({
      account,
      amountIn,
      minAmountOut: expectedOut,
      dstName: "beta",
      to: fields.to,
      refundAddress: account.address,
      nativeFee: fee,
      composeMsg: fields.composeMsg,
      extraOptions: fields.extraOptions,
    });
    await sendAs("alpha", account, request);
    const before = await balance("beta", lzDaiBeta.token, recipient);
    await relayer.poll();
    assert.equal(
      (await balance("beta", lzDaiBeta.token, recipient)) - before,
      removeDust(expectedOut, DUST_RATE),
    );
    assert.equal(await balance("beta", lzDaiBeta.token, periphery("beta").swapComposer), 0n);
    const logs = await chain("beta").client.getLogs({
      address: periphery("beta").swapComposer,
      fromBlock: BigInt(chain("beta").chain.deployBlock),
      toBlock: "latest",
    });
    const [fallback] = parseEventLogs({
      abi: oftSwapComposerAbi,
      eventName: "ComposeFallback",
      logs,
    });
    assert.equal(fallback?.args.token, lzDaiBeta.token);
    assert.equal(
      fallback?.args.reason,
      encodeErrorResult({
        abi: parseAbi(["error Error(string)"]),
        errorName: "Error",
        args: ["Bridge: no swap route"],
      }),
    );
  });

  it("error: a compose given too little gas for its swap reverts (alerted, stays queued) instead of paying the fallback; executed again with enough gas it swaps", async () => {
    const alpha = chain("alpha");
    const account = user(1);
    const recipient = user(6).address;
    const usdc = alpha.token("USDC");
    const composer = periphery("alpha").swapComposer;
    const alerted = relayer.stats().composeAlerted;
    const usdcBefore = await balance("alpha", usdc, recipient);
    const amountLD = 10n * 10n ** 18n;
    const { guid } = await sendComposeToAlpha(account, amountLD, {
      minAmountOut: 1n,
      recipient,
      composeGas: 120_000n,
    });
    await relayer.poll();
    assert.equal(relayer.stats().composeAlerted, alerted + 1);
    assert.equal(relayer.stats().composePending, 1, "still queued");
    assert.equal(await balance("alpha", usdc, recipient), usdcBefore);
    const alerts = parseEventLogs({
      abi: endpointAbi,
      eventName: "LzComposeAlert",
      logs: await alpha.client.getLogs({
        address: view.lzChain("alpha").endpoint,
        fromBlock: BigInt(alpha.chain.deployBlock),
        toBlock: "latest",
      }),
    }).filter((e) => e.args.guid.toLowerCase() === guid);
    assert.equal(alerts.length, 1);
    assert.equal(alerts[0]?.args.to, composer);
    assert.equal(alerts[0]?.args.gas, 120_000n);
    assert.equal(alerts[0]?.args.reason, toFunctionSelector("SwapOutOfGas()"));

    // lzCompose is permissionless: anyone may execute the queued compose with enough gas.
    const lzDaiAlpha = view.deployment("lzDAI", "alpha").oft;
    const message = alerts[0]?.args.message as Hex;
    const decoded = decodeOftComposeMessage(message);
    assert.equal(decoded.amountLD, amountLD);
    assert.equal(decoded.srcEid, view.lzChain("beta").eid);
    assert.equal(decoded.composeFrom, pad(account.address.toLowerCase() as Hex, { size: 32 }));
    assert.deepEqual(decodeSwapComposeMsg(decoded.composeMsg), {
      tokenOut: usdc,
      minAmountOut: 1n,
      recipient,
    });
    const hash = await alpha.wallet(user(7)).writeContract({
      address: view.lzChain("alpha").endpoint,
      abi: endpointAbi,
      functionName: "lzCompose",
      args: [lzDaiAlpha, composer, guid, 0, message, "0x"],
      gas: 2_000_000n,
    });
    const receipt = await alpha.client.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    assert.ok((await balance("alpha", usdc, recipient)) > usdcBefore, "swapped for the recipient");
    await relayer.poll();
    assert.equal(relayer.stats().composePending, 0, "the relayer sees it done");
    // A restarted relayer rescans every ComposeSent and, from composeQueue, redoes none.
    const restarted = createLayerZeroRelayer({ layerzero: lz, chains: devnet.manifest.chains });
    await restarted.poll();
    const stats = restarted.stats();
    assert.ok(stats.seen > 0, "it saw the packets again");
    assert.deepEqual(
      [stats.delivered, stats.composed, stats.composeAlerted, stats.composePending, stats.pending],
      [0, 0, 0, 0, 0],
    );
  });

  it("error: lzCompose is refused from anyone but the endpoint, and through the endpoint from anyone but a trusted OFT", async () => {
    const alpha = chain("alpha");
    const attacker = user(7);
    const composer = periphery("alpha").swapComposer;
    const endpoint = view.lzChain("alpha").endpoint;
    const guid = keccak256(toHex("not a LayerZero message"));
    const message = encodeOftComposeMessage({
      nonce: 1n,
      srcEid: view.lzChain("beta").eid,
      amountLD: 10n ** 18n,
      composeFrom: pad(attacker.address, { size: 32 }),
      composeMsg: encodeSwapComposeMsg({
        tokenOut: alpha.token("USDC"),
        minAmountOut: 0n,
        recipient: attacker.address,
      }),
    });
    // Directly, even naming a trusted OFT as `from`.
    await assert.rejects(
      alpha.client.simulateContract({
        account: attacker.address,
        address: composer,
        abi: oftSwapComposerAbi,
        functionName: "lzCompose",
        args: [view.deployment("lzDAI", "alpha").oft, guid, message, attacker.address, "0x"],
      }),
      /OnlyEndpoint/,
    );
    // Through the endpoint: sendCompose is open to anyone, so `from` is the attacker itself.
    const wallet = alpha.wallet(attacker);
    const queued = await wallet.writeContract({
      address: endpoint,
      abi: parseAbi([
        "function sendCompose(address to, bytes32 guid, uint16 index, bytes message)",
      ]),
      functionName: "sendCompose",
      args: [composer, guid, 0, message],
    });
    assert.equal(
      (await alpha.client.waitForTransactionReceipt({ hash: queued })).status,
      "success",
    );
    await assert.rejects(
      alpha.client.simulateContract({
        account: attacker.address,
        address: endpoint,
        abi: [...endpointAbi, ...oftSwapComposerAbi],
        functionName: "lzCompose",
        args: [attacker.address, composer, guid, 0, message, "0x"],
      }),
      /UntrustedOft/,
    );
    assert.equal(
      (await alpha.client.readContract({
        address: endpoint,
        abi: endpointAbi,
        functionName: "composeQueue",
        args: [attacker.address, composer, guid, 0],
      })) as Hex,
      keccak256(message),
      "still queued, never executed",
    );
    // The encoding the attacker used is the real one: the refusal is about who, not what.
    assert.equal(
      encodeAbiParameters(
        [{ type: "address" }, { type: "uint256" }, { type: "address" }],
        [alpha.token("USDC"), 0n, attacker.address],
      ),
      decodeOftComposeMessage(message).composeMsg,
    );
  });
});
