import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Abi,
  type Address,
  decodeFunctionData,
  toEventSelector,
  toFunctionSelector,
} from "viem";
import { erc20Abi, oftSwapComposerAbi, oftSwapSenderAbi } from "./abi.js";
import { loadLayerZeroArtifacts } from "./artifacts.js";
import { addressToBytes32 } from "./packet.js";
import { buildOftSwapSendApproval, buildOftSwapSendTransaction } from "./periphery.js";

const sender: Address = "0x1111111111111111111111111111111111111111";
const oft: Address = "0x2222222222222222222222222222222222222222";
const usdc: Address = "0x3333333333333333333333333333333333333333";
const user: Address = "0x4444444444444444444444444444444444444444";

/** Function selectors and event topics of an ABI. */
function signatures(abi: Abi): string[] {
  return abi
    .flatMap((item) =>
      item.type === "function"
        ? [toFunctionSelector(item)]
        : item.type === "event"
          ? [toEventSelector(item)]
          : item.type === "error"
            ? [toFunctionSelector(item as never)]
            : [],
    )
    .sort();
}

describe("swap periphery transactions", () => {
  it("default: swapAndSend carries every field, value = the native fee, to = the sender contract", () => {
    const request = buildOftSwapSendTransaction({
      chainId: 71001,
      sender,
      oft,
      tokenIn: usdc,
      amountIn: 1_000_000_000n,
      minAmountOut: 995n * 10n ** 18n,
      dstEid: 40102,
      to: user,
      minAmountLD: 995n * 10n ** 18n,
      nativeFee: 100_000_000_000_000n,
      refundAddress: user,
      composeMsg: "0x01",
    });
    assert.equal(request.to, sender);
    assert.equal(request.value, "0x5af3107a4000");
    const { functionName, args } = decodeFunctionData({
      abi: oftSwapSenderAbi,
      data: request.data,
    });
    assert.equal(functionName, "swapAndSend");
    assert.deepEqual(args, [
      {
        oft,
        tokenIn: usdc,
        amountIn: 1_000_000_000n,
        minAmountOut: 995n * 10n ** 18n,
        dstEid: 40102,
        to: addressToBytes32(user),
        minAmountLD: 995n * 10n ** 18n,
        extraOptions: "0x",
        composeMsg: "0x01",
        refundAddress: user,
      },
    ]);
    assert.throws(() => buildOftSwapSendTransaction({ ...baseline(), amountIn: 0n }), RangeError);
    assert.throws(() => buildOftSwapSendTransaction({ ...baseline(), nativeFee: -1n }), RangeError);
  });

  it("behavior: the approval is the source token's approve(sender, amountIn)", () => {
    const approval = buildOftSwapSendApproval({
      chainId: 71001,
      tokenIn: usdc,
      sender,
      amountIn: 5n,
    });
    assert.equal(approval.transactionRequest.to, usdc);
    assert.deepEqual(
      decodeFunctionData({ abi: erc20Abi, data: approval.transactionRequest.data }),
      {
        functionName: "approve",
        args: [sender, 5n],
      },
    );
  });

  it("behavior: our hand-written periphery ABIs are the compiled contracts' (functions, events, errors)", () => {
    const artifacts = loadLayerZeroArtifacts();
    assert.deepEqual(signatures(oftSwapSenderAbi), signatures(artifacts.OftSwapSender.abi));
    assert.deepEqual(signatures(oftSwapComposerAbi), signatures(artifacts.OftSwapComposer.abi));
  });
});

function baseline() {
  return {
    chainId: 71001,
    sender,
    oft,
    tokenIn: usdc,
    amountIn: 1n,
    minAmountOut: 0n,
    dstEid: 40102,
    to: user,
    minAmountLD: 0n,
    nativeFee: 0n,
    refundAddress: user,
  };
}
