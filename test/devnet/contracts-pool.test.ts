/**
 * Bridge kind 1 (liquidity pools) against real anvil chains: sent exactly as an integrator does
 * (approve + bridge(params)), relayed as the relayer account does (bridge.deliver(message)).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Address, maxUint256, zeroAddress } from "viem";
import { formatAmount, toBaseUnits } from "../../src/amount.js";
import type { DevnetManifest, ManifestAccount } from "../../src/devnet/manifest.js";
import {
  type BridgeParamsValue,
  bridgeEvents,
  bridgeFeeOf,
  type ChainConnection,
  expectedSwapOut,
  messageOf,
  readBridge,
  relay,
  sendBridge,
  withSlippage,
} from "../setup/anvil.js";
import { type BridgeSuite, setupBridgeSuite, type TokenConfig } from "./bridge-suite.js";

const KIND = 1;
const USDC = (n: bigint) => n * 1_000_000n;

describe("contracts: PoolBridge (kind 1)", () => {
  let suite: BridgeSuite | undefined;
  let manifest: DevnetManifest;
  let alpha: ChainConnection;
  let beta: ChainConnection;
  let user: ManifestAccount;
  let recipient: ManifestAccount;
  let config: TokenConfig;

  before(async () => {
    suite = await setupBridgeSuite({
      kind: KIND,
      token: "USDC",
      userAccount: 0,
      recipientAccount: 1,
    });
    ({ manifest, alpha, beta, user, recipient, config } = suite);
  });
  after(async () => suite?.devnet.cleanup());

  /** Direct USDC -> USDC params to beta (pool chain id 102); the fee as the router quotes it. */
  function directParams(amount: bigint): BridgeParamsValue {
    const params = suite!.directParams(alpha, beta, amount);
    assert.equal(params.destChainId, 102n);
    return params;
  }

  it("default: USDC alpha -> beta without swaps; every event field and balance", async () => {
    const amount = USDC(1_000n);
    const params = directParams(amount);
    const usdcA = alpha.token("USDC");
    const usdcB = beta.token("USDC");
    const userBefore = await alpha.balanceOf(usdcA, user.address);
    const poolABefore = await readBridge<bigint>(manifest, alpha, KIND, "availableLiquidity", [
      usdcA,
    ]);
    const poolBBefore = await readBridge<bigint>(manifest, beta, KIND, "availableLiquidity", [
      usdcB,
    ]);
    const recipientBefore = await beta.balanceOf(usdcB, recipient.address);

    const { receipt, sent } = await sendBridge(manifest, alpha, user, KIND, params);
    const fee = bridgeFeeOf(config, amount);
    assert.equal(fee, 500_000n + (amount * 6n) / 10_000n);
    assert.match(sent.messageId, /^0x[0-9a-f]{64}$/);
    assert.notEqual(BigInt(sent.messageId), 0n);
    assert.deepEqual(
      { ...sent, messageId: undefined },
      {
        messageId: undefined,
        sender: user.address,
        recipient: recipient.address,
        destChainId: 102n,
        sourceToken: usdcA,
        sendAmount: amount,
        sourceBridgeToken: usdcA,
        bridgeAmount: amount,
        destBridgeToken: usdcB,
        destBridgeAmount: amount - fee,
        destToken: usdcB,
        minReceiveAmount: amount - fee,
        bridgeFee: fee,
        xprotoFee: 0n,
        subsidy: 0n,
      },
    );
    const [sentLog] = bridgeEvents(manifest, receipt, "TransferSent");
    assert.equal(sentLog?.address.toLowerCase(), alpha.chain.bridges["1"].toLowerCase());
    assert.equal(await alpha.balanceOf(usdcA, user.address), userBefore - amount);
    // The net amount joins the source pool; the fee is kept apart.
    assert.equal(
      await readBridge<bigint>(manifest, alpha, KIND, "availableLiquidity", [usdcA]),
      poolABefore + amount - fee,
    );

    const destReceipt = await relay(manifest, alpha, beta, KIND, receipt, sent);
    const [delivered] = bridgeEvents(manifest, destReceipt, "TransferDelivered");
    assert.deepEqual(delivered?.args, {
      messageId: sent.messageId,
      recipient: recipient.address,
      destBridgeToken: usdcB,
      destBridgeAmount: amount - fee,
      destToken: usdcB,
      receiveAmount: amount - fee,
    });
    assert.equal(await beta.balanceOf(usdcB, recipient.address), recipientBefore + amount - fee);
    assert.equal(
      await readBridge<bigint>(manifest, beta, KIND, "availableLiquidity", [usdcB]),
      poolBBefore - (amount - fee),
    );
    assert.equal(
      await readBridge<number>(manifest, beta, KIND, "deliveryStatus", [sent.messageId]),
      1,
    );
  });

  it("behavior: ORC -> USDC via WETH at the source, USDC -> GOV at the destination; fee capped at p.fee", async () => {
    const orc = alpha.token("ORC");
    const usdcA = alpha.token("USDC");
    const weth = alpha.token("WETH");
    const amount = 100n * 10n ** 8n; // 100 ORC, about 1,500 USDC
    const path = (await alpha.client.readContract({
      address: alpha.chain.bridges["1"],
      abi: manifest.abis.poolBridge,
      functionName: "swapPath",
      args: [orc, usdcA],
    })) as Address[];
    assert.deepEqual(path, [orc, weth, usdcA]);
    const expectedBridgeAmount = await expectedSwapOut(manifest, alpha, path, amount);
    const sourceMinAmount = withSlippage(expectedBridgeAmount);
    const fee = bridgeFeeOf(config, sourceMinAmount);
    const net = expectedBridgeAmount - fee;
    const gov = beta.token("GOV");
    const usdcB = beta.token("USDC");
    const expectedGov = await expectedSwapOut(manifest, beta, [usdcB, gov], net);
    const params: BridgeParamsValue = {
      ...directParams(amount),
      sourceToken: orc,
      destToken: gov,
      fee,
      sourceSwap: true,
      sourceSwapFee: (amount * 3n) / 1000n,
      sourceMinAmount,
      destSwap: true,
      destSwapFee: (net * 3n) / 1000n,
      destMinAmount: withSlippage(expectedGov),
    };
    const { receipt, sent } = await sendBridge(manifest, alpha, user, KIND, params);
    assert.equal(sent.bridgeAmount, expectedBridgeAmount);
    // bridgeFee(bridgeAmount) is above the quoted fee, so exactly p.fee is charged.
    assert.ok(
      bridgeFeeOf(config, expectedBridgeAmount) > fee,
      "bridgeFeeOf(config, expectedBridgeAmount) > fee",
    );
    assert.equal(sent.bridgeFee, fee);
    assert.equal(sent.destBridgeAmount, net);
    assert.equal(sent.sourceToken, orc);
    assert.equal(sent.destToken, gov);

    const govBefore = await beta.balanceOf(gov, recipient.address);
    const destReceipt = await relay(manifest, alpha, beta, KIND, receipt, sent);
    const [delivered] = bridgeEvents(manifest, destReceipt, "TransferDelivered");
    assert.equal(delivered?.args.receiveAmount, expectedGov);
    assert.equal(delivered?.args.destBridgeAmount, net);
    assert.equal(await beta.balanceOf(gov, recipient.address), govBefore + expectedGov);
  });

  it("behavior: native coin in, native coin out (wrap, swap, swap, unwrap)", async () => {
    const usdcA = alpha.token("USDC");
    const usdcB = beta.token("USDC");
    const amount = 10n ** 18n; // 1 ETH
    const bridgeAmount = await expectedSwapOut(
      manifest,
      alpha,
      [alpha.token("WETH"), usdcA],
      amount,
    );
    const sourceMinAmount = withSlippage(bridgeAmount);
    const fee = bridgeFeeOf(config, sourceMinAmount);
    const net = bridgeAmount - fee;
    const ethOut = await expectedSwapOut(manifest, beta, [usdcB, beta.token("WETH")], net);
    const params: BridgeParamsValue = {
      ...directParams(amount),
      sourceToken: zeroAddress,
      destToken: zeroAddress,
      fee,
      sourceSwap: true,
      sourceMinAmount,
      destSwap: true,
      destMinAmount: withSlippage(ethOut),
    };
    const { receipt, sent } = await sendBridge(manifest, alpha, user, KIND, params);
    assert.equal(sent.sourceToken, zeroAddress);
    assert.equal(sent.sendAmount, amount);
    assert.equal(sent.bridgeAmount, bridgeAmount);
    const nativeBefore = await beta.balanceOf(zeroAddress, recipient.address);
    const destReceipt = await relay(manifest, alpha, beta, KIND, receipt, sent);
    const [delivered] = bridgeEvents(manifest, destReceipt, "TransferDelivered");
    assert.equal(delivered?.args.receiveAmount, ethOut);
    assert.equal(delivered?.args.destToken, zeroAddress);
    assert.equal(await beta.balanceOf(zeroAddress, recipient.address), nativeBefore + ethOut);
  });

  it("error: destination pool short of liquidity -> TransferFailed, then refund -> TransferRefunded", async () => {
    const usdcA = alpha.token("USDC");
    const usdcB = beta.token("USDC");
    const deployer = manifest.deployer;
    const poolB = beta.chain.bridges["1"];
    const drained =
      (await readBridge<bigint>(manifest, beta, KIND, "availableLiquidity", [usdcB])) - USDC(10n);
    const deployerWallet = beta.wallet(deployer);
    await beta.client.waitForTransactionReceipt({
      hash: await deployerWallet.writeContract({
        address: poolB,
        abi: manifest.abis.poolBridge,
        functionName: "removeLiquidity",
        args: [usdcB, drained],
      }),
    });
    try {
      const amount = USDC(100n);
      const userBefore = await alpha.balanceOf(usdcA, user.address);
      const recipientBefore = await beta.balanceOf(usdcB, recipient.address);
      const { receipt, sent } = await sendBridge(manifest, alpha, user, KIND, directParams(amount));
      const destReceipt = await relay(manifest, alpha, beta, KIND, receipt, sent);
      assert.equal(destReceipt.status, "success");
      assert.equal(bridgeEvents(manifest, destReceipt, "TransferDelivered").length, 0);
      const [failed] = bridgeEvents(manifest, destReceipt, "TransferFailed");
      assert.deepEqual(failed?.args, {
        messageId: sent.messageId,
        recipient: recipient.address,
        reason: "Bridge: insufficient pool liquidity",
      });
      assert.equal(await beta.balanceOf(usdcB, recipient.address), recipientBefore);
      assert.equal(
        await readBridge<number>(manifest, beta, KIND, "deliveryStatus", [sent.messageId]),
        2,
      );

      const refundHash = await alpha.wallet(manifest.relayer).writeContract({
        address: alpha.chain.bridges["1"],
        abi: manifest.abis.bridge,
        functionName: "refund",
        args: [sent.messageId],
      });
      const refundReceipt = await alpha.client.waitForTransactionReceipt({ hash: refundHash });
      const [refunded] = bridgeEvents(manifest, refundReceipt, "TransferRefunded");
      const net = amount - sent.bridgeFee;
      assert.deepEqual(refunded?.args, {
        messageId: sent.messageId,
        sender: user.address,
        token: usdcA,
        amount: net,
      });
      assert.equal(await alpha.balanceOf(usdcA, user.address), userBefore - amount + net);
      await assert.rejects(
        alpha.wallet(manifest.relayer).writeContract({
          address: alpha.chain.bridges["1"],
          abi: manifest.abis.bridge,
          functionName: "refund",
          args: [sent.messageId],
        }),
        /already refunded/,
      );
    } finally {
      const erc20 = manifest.abis.erc20;
      await beta.client.waitForTransactionReceipt({
        hash: await deployerWallet.writeContract({
          address: usdcB,
          abi: erc20,
          functionName: "approve",
          args: [poolB, maxUint256],
        }),
      });
      await beta.client.waitForTransactionReceipt({
        hash: await deployerWallet.writeContract({
          address: poolB,
          abi: manifest.abis.poolBridge,
          functionName: "addLiquidity",
          args: [usdcB, drained],
        }),
      });
    }
  });

  it("error: destination swap below destMinAmount -> TransferFailed with state undone, refund repays", async () => {
    const usdcA = alpha.token("USDC");
    const usdcB = beta.token("USDC");
    const amount = USDC(300n);
    const params: BridgeParamsValue = {
      ...directParams(amount),
      destToken: beta.token("WETH"),
      destSwap: true,
      destMinAmount: 10n ** 18n, // 1 WETH for 300 USDC: impossible at 3,000 USDC per WETH
    };
    const poolBefore = await readBridge<bigint>(manifest, beta, KIND, "availableLiquidity", [
      usdcB,
    ]);
    const { receipt, sent } = await sendBridge(manifest, alpha, user, KIND, params);
    const destReceipt = await relay(manifest, alpha, beta, KIND, receipt, sent);
    const [failed] = bridgeEvents(manifest, destReceipt, "TransferFailed");
    assert.equal(failed?.args.reason, "SwapAdapter: insufficient output amount");
    assert.equal(
      await readBridge<bigint>(manifest, beta, KIND, "availableLiquidity", [usdcB]),
      poolBefore,
    );
    const before = await alpha.balanceOf(usdcA, user.address);
    const refundReceipt = await alpha.client.waitForTransactionReceipt({
      hash: await alpha.wallet(manifest.relayer).writeContract({
        address: alpha.chain.bridges["1"],
        abi: manifest.abis.bridge,
        functionName: "refund",
        args: [sent.messageId],
      }),
    });
    assert.equal(bridgeEvents(manifest, refundReceipt, "TransferRefunded").length, 1);
    assert.equal(await alpha.balanceOf(usdcA, user.address), before + sent.destBridgeAmount);
  });

  it("error: delivery by anyone but the relayer is rejected; a second delivery is rejected", async () => {
    const { receipt, sent } = await sendBridge(
      manifest,
      alpha,
      user,
      KIND,
      directParams(USDC(50n)),
    );
    await assert.rejects(
      relay(manifest, alpha, beta, KIND, receipt, sent, user),
      /not the relayer/,
    );
    const first = await relay(manifest, alpha, beta, KIND, receipt, sent);
    assert.equal(bridgeEvents(manifest, first, "TransferDelivered").length, 1);
    await assert.rejects(relay(manifest, alpha, beta, KIND, receipt, sent), /already processed/);
    await assert.rejects(
      alpha.wallet(user).writeContract({
        address: alpha.chain.bridges["1"],
        abi: manifest.abis.bridge,
        functionName: "refund",
        args: [sent.messageId],
      }),
      /not the relayer/,
    );
  });

  it("behavior: a quote's params (human-unit strings) execute once converted with each field's token decimals", async () => {
    // As in docs/devnet-contracts.md: amount in the source token's decimals (ORC, 8), fee and
    // sourceMinAmount in the source bridge token's (USDC, 6), destMinAmount in the dest token's.
    const orc = alpha.token("ORC");
    const usdcA = alpha.token("USDC");
    const gov = beta.token("GOV");
    const expected = await expectedSwapOut(
      manifest,
      alpha,
      [orc, alpha.token("WETH"), usdcA],
      25n * 10n ** 8n,
    );
    const minOut = withSlippage(expected);
    const quoteParams = JSON.stringify({
      destChainId: "102",
      sourceToken: orc,
      destToken: gov,
      amount: "25",
      fee: formatAmount(bridgeFeeOf(config, minOut), 6),
      to: recipient.address,
      sourceSwap: true,
      sourceSwapFee: "0.075",
      sourceBridgeToken: usdcA,
      sourceMinAmount: formatAmount(minOut, 6),
      destSwap: true,
      destSwapFee: "0.1",
      destBridgeToken: beta.token("USDC"),
      destMinAmount: "100.5",
    });
    const p = JSON.parse(quoteParams);
    const decimalsOf = (conn: ChainConnection, address: string) =>
      conn.chain.tokens.find((t) => t.address === address)!.decimals;
    const params: BridgeParamsValue = {
      destChainId: BigInt(p.destChainId),
      sourceToken: p.sourceToken,
      destToken: p.destToken,
      amount: toBaseUnits(p.amount, decimalsOf(alpha, p.sourceToken)),
      fee: toBaseUnits(p.fee, decimalsOf(alpha, p.sourceBridgeToken)),
      to: p.to,
      sourceSwap: p.sourceSwap,
      sourceSwapFee: toBaseUnits(p.sourceSwapFee, decimalsOf(alpha, p.sourceToken)),
      sourceBridgeToken: p.sourceBridgeToken,
      sourceMinAmount: toBaseUnits(p.sourceMinAmount, decimalsOf(alpha, p.sourceBridgeToken)),
      destSwap: p.destSwap,
      destSwapFee: toBaseUnits(p.destSwapFee, decimalsOf(beta, p.destBridgeToken)),
      destBridgeToken: p.destBridgeToken,
      destMinAmount: toBaseUnits(p.destMinAmount, decimalsOf(beta, p.destToken)),
    };
    const { receipt, sent } = await sendBridge(manifest, alpha, user, KIND, params);
    assert.equal(sent.sendAmount, 25n * 10n ** 8n);
    assert.equal(sent.bridgeAmount, expected);
    const destReceipt = await relay(manifest, alpha, beta, KIND, receipt, sent);
    const [delivered] = bridgeEvents(manifest, destReceipt, "TransferDelivered");
    assert.ok(
      (delivered?.args.receiveAmount as bigint) >= 1005n * 10n ** 17n,
      "(delivered?.args.receiveAmount as bigint) >= 1005n * 10n ** 17n",
    );
  });

  it("error: the relayer cannot deliver a token the bridge does not carry or from an unknown chain", async () => {
    const { sent } = await sendBridge(manifest, alpha, user, KIND, directParams(USDC(10n)));
    const message = messageOf(sent, alpha.chain, KIND);
    const deliver = (m: typeof message) =>
      beta.wallet(manifest.relayer).writeContract({
        address: beta.chain.bridges["1"],
        abi: manifest.abis.poolBridge,
        functionName: "deliver",
        args: [m],
      });
    await assert.rejects(
      deliver({ ...message, destBridgeToken: beta.token("GOV") }),
      /token not carried/,
    );
    await assert.rejects(deliver({ ...message, srcChainId: 999n }), /unknown source chain/);
  });

  it("error: source rules (fee below required, destMinAmount above net, wrong bridge token)", async () => {
    const params = directParams(USDC(100n));
    await assert.rejects(
      sendBridge(manifest, alpha, user, KIND, { ...params, fee: params.fee - 1n }),
      /fee below required/,
    );
    await assert.rejects(
      sendBridge(manifest, alpha, user, KIND, {
        ...params,
        destMinAmount: params.destMinAmount + 1n,
      }),
      /below destMinAmount/,
    );
    await assert.rejects(
      sendBridge(manifest, alpha, user, KIND, { ...params, destBridgeToken: beta.token("DAI") }),
      /wrong destination bridge token/,
    );
    await assert.rejects(
      sendBridge(manifest, alpha, user, KIND, { ...params, amount: USDC(1n) / 2n, fee: USDC(1n) }),
      /amount below minimum/,
    );
  });
});
