/**
 * Bridge kind 2 (burn-and-mint over the messaging endpoint) against real anvil chains: the
 * messaging fee, the packet, delivery by the executor through the endpoint, failure and refund.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type Hex, parseEventLogs, zeroAddress } from "viem";
import type { DevnetManifest, ManifestAccount } from "../../src/devnet/manifest.js";
import {
  type BridgeParamsValue,
  bridgeEvents,
  bridgeFeeOf,
  type ChainConnection,
  expectedSwapOut,
  readBridge,
  relay,
  sendBridge,
  withSlippage,
} from "../setup/anvil.js";
import { type BridgeSuite, setupBridgeSuite, type TokenConfig } from "./bridge-suite.js";

const KIND = 2;
const USDC = (n: bigint) => n * 1_000_000n;

describe("contracts: MessagingBridge + MessagingEndpoint (kind 2)", () => {
  let suite: BridgeSuite | undefined;
  let manifest: DevnetManifest;
  let alpha: ChainConnection;
  let gamma: ChainConnection;
  let user: ManifestAccount;
  let recipient: ManifestAccount;
  let config: TokenConfig;
  let xproto: bigint;

  before(async () => {
    suite = await setupBridgeSuite({
      kind: KIND,
      token: "USDC",
      userAccount: 4,
      recipientAccount: 5,
    });
    ({ manifest, alpha, gamma, user, recipient, config } = suite);
    xproto = await readBridge(manifest, alpha, KIND, "xprotoFee", [40103n]);
  });
  after(async () => suite?.devnet.cleanup());

  /** Direct USDC alpha -> gamma (endpoint id 40103); the fee includes the messaging fee. */
  function directParams(amount: bigint): BridgeParamsValue {
    const params = suite!.directParams(alpha, gamma, amount, xproto);
    assert.equal(params.destChainId, 40103n);
    return params;
  }

  it("default: fees are 2 bps + 0.1 USDC plus the endpoint's messageFee (1.2 USDC to gamma)", async () => {
    assert.deepEqual(config, [2n, 100_000n, USDC(1n), USDC(1_000_000n)]);
    assert.equal(xproto, 1_200_000n);
    const toBeta = await readBridge<bigint>(manifest, alpha, KIND, "xprotoFee", [40102n]);
    assert.equal(toBeta, 1_000_000n);
    const endpointFee = await alpha.client.readContract({
      address: alpha.chain.messagingEndpoint,
      abi: manifest.abis.messagingEndpoint,
      functionName: "messageFee",
      args: [40103],
    });
    assert.equal(endpointFee, xproto);
  });

  it("behavior: USDC alpha -> gamma burns, pays the endpoint, sends a packet; delivery mints", async () => {
    const amount = USDC(5_000n);
    const usdcA = alpha.token("USDC");
    const usdcG = gamma.token("USDC");
    const params = directParams(amount);
    const bridgeFee = bridgeFeeOf(config, amount);
    const net = amount - bridgeFee - xproto;
    const supplyA = (await alpha.client.readContract({
      address: usdcA,
      abi: manifest.abis.erc20,
      functionName: "totalSupply",
    })) as bigint;
    const endpointBefore = await alpha.balanceOf(usdcA, alpha.chain.messagingEndpoint);
    const { receipt, sent } = await sendBridge(manifest, alpha, user, KIND, params);
    assert.equal(sent.bridgeFee, bridgeFee);
    assert.equal(sent.xprotoFee, xproto);
    assert.equal(sent.destBridgeAmount, net);
    assert.equal(sent.destChainId, 40103n);
    assert.equal(
      await alpha.balanceOf(usdcA, alpha.chain.messagingEndpoint),
      endpointBefore + xproto,
    );
    const supplyAfter = (await alpha.client.readContract({
      address: usdcA,
      abi: manifest.abis.erc20,
      functionName: "totalSupply",
    })) as bigint;
    assert.equal(supplyAfter, supplyA - net);

    const [packet] = parseEventLogs({
      abi: manifest.abis.messagingEndpoint,
      logs: receipt.logs,
      eventName: "PacketSent",
    }) as unknown as Array<{
      args: { guid: Hex; srcEid: number; dstEid: number; sender: string; receiver: string };
    }>;
    assert.equal(packet?.args.guid, sent.messageId);
    assert.equal(packet?.args.srcEid, 40101);
    assert.equal(packet?.args.dstEid, 40103);
    assert.equal(packet?.args.sender, alpha.chain.bridges["2"]);
    assert.equal(packet?.args.receiver, gamma.chain.bridges["2"]);

    const before = await gamma.balanceOf(usdcG, recipient.address);
    const destReceipt = await relay(manifest, alpha, gamma, KIND, receipt, sent);
    const [delivered] = bridgeEvents(manifest, destReceipt, "TransferDelivered");
    assert.deepEqual(delivered?.args, {
      messageId: sent.messageId,
      recipient: recipient.address,
      destBridgeToken: usdcG,
      destBridgeAmount: net,
      destToken: usdcG,
      receiveAmount: net,
    });
    const packetDelivered = parseEventLogs({
      abi: manifest.abis.messagingEndpoint,
      logs: destReceipt.logs,
      eventName: "PacketDelivered",
    });
    assert.equal(packetDelivered.length, 1);
    assert.equal(await gamma.balanceOf(usdcG, recipient.address), before + net);
  });

  it("behavior: native coin in (ETH -> USDC on alpha), USDC -> GOV on gamma", async () => {
    const amount = 2n * 10n ** 17n; // 0.2 ETH
    const usdcA = alpha.token("USDC");
    const bridgeAmount = await expectedSwapOut(
      manifest,
      alpha,
      [alpha.token("WETH"), usdcA],
      amount,
    );
    const sourceMinAmount = withSlippage(bridgeAmount);
    const fee = bridgeFeeOf(config, sourceMinAmount) + xproto;
    const net = bridgeAmount - (fee - xproto) - xproto;
    const gov = gamma.token("GOV");
    const govOut = await expectedSwapOut(manifest, gamma, [gamma.token("USDC"), gov], net);
    const params: BridgeParamsValue = {
      ...directParams(amount),
      sourceToken: zeroAddress,
      destToken: gov,
      fee,
      sourceSwap: true,
      sourceMinAmount,
      destSwap: true,
      destMinAmount: withSlippage(govOut),
    };
    const { receipt, sent } = await sendBridge(manifest, alpha, user, KIND, params);
    assert.equal(sent.bridgeAmount, bridgeAmount);
    // bridgeFee(bridgeAmount) exceeds the quote's bridgeFee(sourceMinAmount): p.fee caps it.
    assert.ok(
      bridgeFeeOf(config, bridgeAmount) > fee - xproto,
      "bridgeFeeOf(config, bridgeAmount) > fee - xproto",
    );
    assert.equal(sent.bridgeFee, fee - xproto);
    assert.equal(sent.xprotoFee, xproto);
    assert.equal(sent.destBridgeAmount, net);
    const destReceipt = await relay(manifest, alpha, gamma, KIND, receipt, sent);
    const [delivered] = bridgeEvents(manifest, destReceipt, "TransferDelivered");
    assert.equal(delivered?.args.receiveAmount, govOut);
  });

  it("error: fee must cover the messaging fee too", async () => {
    const params = directParams(USDC(100n));
    await assert.rejects(
      sendBridge(manifest, alpha, user, KIND, { ...params, fee: bridgeFeeOf(config, USDC(100n)) }),
      /fee below required/,
    );
  });

  it("error: unmet destination minimum -> TransferFailed, refund mints the net amount back", async () => {
    const amount = USDC(200n);
    const usdcA = alpha.token("USDC");
    const params: BridgeParamsValue = {
      ...directParams(amount),
      destToken: gamma.token("GOV"),
      destSwap: true,
      destMinAmount: 10n ** 24n,
    };
    const before = await alpha.balanceOf(usdcA, user.address);
    const { receipt, sent } = await sendBridge(manifest, alpha, user, KIND, params);
    const destReceipt = await relay(manifest, alpha, gamma, KIND, receipt, sent);
    const [failed] = bridgeEvents(manifest, destReceipt, "TransferFailed");
    assert.equal(failed?.args.messageId, sent.messageId);
    assert.equal(failed?.args.reason, "SwapAdapter: insufficient output amount");
    const refundReceipt = await alpha.client.waitForTransactionReceipt({
      hash: await alpha.wallet(manifest.relayer).writeContract({
        address: alpha.chain.bridges["2"],
        abi: manifest.abis.bridge,
        functionName: "refund",
        args: [sent.messageId],
      }),
    });
    const [refunded] = bridgeEvents(manifest, refundReceipt, "TransferRefunded");
    const net = amount - sent.bridgeFee - sent.xprotoFee;
    assert.deepEqual(refunded?.args, {
      messageId: sent.messageId,
      sender: user.address,
      token: usdcA,
      amount: net,
    });
    assert.equal(await alpha.balanceOf(usdcA, user.address), before - amount + net);
  });

  it("error: only the executor delivers, once; only the endpoint calls receiveMessage", async () => {
    const { receipt, sent } = await sendBridge(
      manifest,
      alpha,
      user,
      KIND,
      directParams(USDC(20n)),
    );
    await assert.rejects(
      relay(manifest, alpha, gamma, KIND, receipt, sent, user),
      /not the executor/,
    );
    await relay(manifest, alpha, gamma, KIND, receipt, sent);
    await assert.rejects(relay(manifest, alpha, gamma, KIND, receipt, sent), /already delivered/);
    await assert.rejects(
      gamma.wallet(manifest.relayer).writeContract({
        address: gamma.chain.bridges["2"],
        abi: manifest.abis.messagingBridge,
        functionName: "receiveMessage",
        args: [sent.messageId, 40101, alpha.chain.bridges["2"], "0x"],
      }),
      /not the endpoint/,
    );
  });
});
