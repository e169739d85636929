/**
 * Bridge kind 0 (lock-and-mint DAI) against real anvil chains: locks on alpha (home), mints
 * wrapped DAI on beta/gamma, burns on the way back and unlocks on alpha; cap and minimum.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
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

const KIND = 0;
const DAI = (n: bigint) => n * 10n ** 18n;

describe("contracts: LockMintBridge (kind 0)", () => {
  let suite: BridgeSuite | undefined;
  let manifest: DevnetManifest;
  let alpha: ChainConnection;
  let beta: ChainConnection;
  let gamma: ChainConnection;
  let user: ManifestAccount;
  let recipient: ManifestAccount;
  let config: TokenConfig;
  let directParams: BridgeSuite["directParams"];

  before(async () => {
    suite = await setupBridgeSuite({
      kind: KIND,
      token: "DAI",
      userAccount: 2,
      recipientAccount: 3,
    });
    ({ manifest, alpha, beta, gamma, user, recipient, config, directParams } = suite);
  });
  after(async () => suite?.devnet.cleanup());

  const totalSupply = (conn: ChainConnection, token: `0x${string}`) =>
    conn.client.readContract({
      address: token,
      abi: manifest.abis.erc20,
      functionName: "totalSupply",
    }) as Promise<bigint>;

  it("default: config is 10 bps + 1 DAI, min 5 DAI, cap 50,000 DAI", () => {
    assert.deepEqual(config, [10n, DAI(1n), DAI(5n), DAI(50_000n)]);
  });

  it("behavior: alpha -> beta locks DAI on alpha and mints wrapped DAI on beta", async () => {
    const amount = DAI(2_000n);
    const daiA = alpha.token("DAI");
    const daiB = beta.token("DAI");
    const lockedBefore = await alpha.balanceOf(daiA, alpha.chain.bridges["0"]);
    const supplyBefore = await totalSupply(beta, daiB);
    const { receipt, sent } = await sendBridge(
      manifest,
      alpha,
      user,
      KIND,
      directParams(alpha, beta, amount),
    );
    const fee = DAI(1n) + (amount * 10n) / 10_000n;
    assert.equal(sent.bridgeFee, fee);
    assert.equal(sent.xprotoFee, 0n);
    assert.equal(sent.destChainId, 71002n);
    assert.equal(sent.destBridgeAmount, amount - fee);
    // Everything stays on alpha: the net amount locked, the fee accrued.
    assert.equal(await alpha.balanceOf(daiA, alpha.chain.bridges["0"]), lockedBefore + amount);
    const before = await beta.balanceOf(daiB, recipient.address);
    const destReceipt = await relay(manifest, alpha, beta, KIND, receipt, sent);
    const [delivered] = bridgeEvents(manifest, destReceipt, "TransferDelivered");
    assert.deepEqual(delivered?.args, {
      messageId: sent.messageId,
      recipient: recipient.address,
      destBridgeToken: daiB,
      destBridgeAmount: amount - fee,
      destToken: daiB,
      receiveAmount: amount - fee,
    });
    assert.equal(await beta.balanceOf(daiB, recipient.address), before + amount - fee);
    assert.equal(await totalSupply(beta, daiB), supplyBefore + amount - fee);
  });

  it("behavior: beta -> alpha burns wrapped DAI on beta and unlocks on alpha", async () => {
    const amount = DAI(500n);
    const daiA = alpha.token("DAI");
    const daiB = beta.token("DAI");
    const supplyBefore = await totalSupply(beta, daiB);
    const lockedBefore = await readBridge<bigint>(manifest, alpha, KIND, "availableLiquidity", [
      daiA,
    ]);
    const { receipt, sent } = await sendBridge(
      manifest,
      beta,
      user,
      KIND,
      directParams(beta, alpha, amount),
    );
    const net = amount - sent.bridgeFee;
    assert.equal(await totalSupply(beta, daiB), supplyBefore - net);
    const before = await alpha.balanceOf(daiA, recipient.address);
    await relay(manifest, beta, alpha, KIND, receipt, sent);
    assert.equal(await alpha.balanceOf(daiA, recipient.address), before + net);
    assert.equal(
      await readBridge<bigint>(manifest, alpha, KIND, "availableLiquidity", [daiA]),
      lockedBefore - net,
    );
  });

  it("behavior: USDC -> DAI swap on alpha, DAI -> USDC swap on gamma", async () => {
    const usdcA = alpha.token("USDC");
    const daiA = alpha.token("DAI");
    const amount = 1_000n * 10n ** 6n;
    const bridgeAmount = await expectedSwapOut(manifest, alpha, [usdcA, daiA], amount);
    const sourceMinAmount = withSlippage(bridgeAmount);
    const fee = bridgeFeeOf(config, sourceMinAmount);
    const net = bridgeAmount - fee;
    const daiG = gamma.token("DAI");
    const usdcG = gamma.token("USDC");
    const out = await expectedSwapOut(manifest, gamma, [daiG, usdcG], net);
    const params: BridgeParamsValue = {
      ...directParams(alpha, gamma, amount),
      sourceToken: usdcA,
      destToken: usdcG,
      fee,
      sourceSwap: true,
      sourceMinAmount,
      destSwap: true,
      destMinAmount: withSlippage(out),
    };
    const { receipt, sent } = await sendBridge(manifest, alpha, user, KIND, params);
    assert.equal(sent.bridgeAmount, bridgeAmount);
    assert.equal(sent.bridgeFee, fee);
    assert.equal(sent.destBridgeAmount, net);
    const before = await gamma.balanceOf(usdcG, recipient.address);
    const destReceipt = await relay(manifest, alpha, gamma, KIND, receipt, sent);
    const [delivered] = bridgeEvents(manifest, destReceipt, "TransferDelivered");
    assert.equal(delivered?.args.receiveAmount, out);
    assert.equal(await gamma.balanceOf(usdcG, recipient.address), before + out);
  });

  it("error: the per-transfer cap and the minimum are enforced", async () => {
    const over = DAI(50_000n) + 1n;
    await assert.rejects(
      sendBridge(manifest, alpha, user, KIND, directParams(alpha, beta, over)),
      /amount above maximum/,
    );
    const atCap = await sendBridge(
      manifest,
      alpha,
      user,
      KIND,
      directParams(alpha, beta, DAI(50_000n)),
    );
    assert.equal(atCap.sent.bridgeAmount, DAI(50_000n));
    const under = DAI(5n) - 1n;
    await assert.rejects(
      sendBridge(manifest, alpha, user, KIND, directParams(alpha, beta, under)),
      /amount below minimum/,
    );
  });

  it("error: a destination swap that cannot meet destMinAmount fails and is refunded on beta by minting", async () => {
    const amount = DAI(100n);
    const daiB = beta.token("DAI");
    const params: BridgeParamsValue = {
      ...directParams(beta, alpha, amount),
      destToken: alpha.token("USDC"),
      destSwap: true,
      destMinAmount: 200n * 10n ** 6n,
    };
    const before = await beta.balanceOf(daiB, user.address);
    const { receipt, sent } = await sendBridge(manifest, beta, user, KIND, params);
    const destReceipt = await relay(manifest, beta, alpha, KIND, receipt, sent);
    assert.equal(bridgeEvents(manifest, destReceipt, "TransferFailed").length, 1);
    const refundReceipt = await beta.client.waitForTransactionReceipt({
      hash: await beta.wallet(manifest.relayer).writeContract({
        address: beta.chain.bridges["0"],
        abi: manifest.abis.bridge,
        functionName: "refund",
        args: [sent.messageId],
      }),
    });
    const [refunded] = bridgeEvents(manifest, refundReceipt, "TransferRefunded");
    assert.equal(refunded?.args.amount, amount - sent.bridgeFee);
    assert.equal(await beta.balanceOf(daiB, user.address), before - sent.bridgeFee);
  });
});
