import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Address, decodeFunctionData } from "viem";
import { erc20Abi, oftAbi } from "./abi.js";
import { addressToBytes32 } from "./packet.js";
import { buildOftApproval, buildOftSendTransaction } from "./transaction.js";

const oft: Address = "0x1111111111111111111111111111111111111111";
const token: Address = "0x2222222222222222222222222222222222222222";
const user: Address = "0x3333333333333333333333333333333333333333";

describe("OFT transactions", () => {
  it("default: OFT.send carries the SendParam, the quoted fee and value = the native fee", () => {
    const request = buildOftSendTransaction({
      chainId: 71001,
      oft,
      dstEid: 40102,
      to: user,
      amountLD: 10n ** 18n + 5n,
      minAmountLD: 10n ** 18n,
      nativeFee: 100_000_000_000_000n,
      refundAddress: user,
    });
    assert.equal(request.to, oft);
    assert.equal(request.chainId, 71001);
    assert.equal(request.value, "0x5af3107a4000");
    const { functionName, args } = decodeFunctionData({ abi: oftAbi, data: request.data });
    assert.equal(functionName, "send");
    assert.deepEqual(args, [
      {
        dstEid: 40102,
        to: addressToBytes32(user),
        amountLD: 10n ** 18n + 5n,
        minAmountLD: 10n ** 18n,
        extraOptions: "0x",
        composeMsg: "0x",
        oftCmd: "0x",
      },
      { nativeFee: 100_000_000_000_000n, lzTokenFee: 0n },
      user,
    ]);
  });

  it("behavior: a compose message and options go into the SendParam as given", () => {
    const request = buildOftSendTransaction({
      chainId: 1,
      oft,
      dstEid: 2,
      to: user,
      amountLD: 1n,
      minAmountLD: 0n,
      nativeFee: 0n,
      refundAddress: user,
      extraOptions: "0x0003",
      composeMsg: "0xabcd",
    });
    const { args } = decodeFunctionData({ abi: oftAbi, data: request.data });
    const sendParam = args[0] as { extraOptions: string; composeMsg: string };
    assert.equal(sendParam.extraOptions, "0x0003");
    assert.equal(sendParam.composeMsg, "0xabcd");
  });

  it("behavior: only an adapter gets an approval, of its inner token to the adapter", () => {
    assert.equal(
      buildOftApproval({ chainId: 1, approvalRequired: false, token: oft, oft, amountLD: 5n }),
      null,
    );
    const approval = buildOftApproval({
      chainId: 1,
      approvalRequired: true,
      token,
      oft,
      amountLD: 5n,
    });
    assert.ok(approval !== null, "approval !== null");
    assert.equal(approval.transactionRequest.to, token);
    assert.equal(approval.transactionRequest.value, "0x0");
    const { functionName, args } = decodeFunctionData({
      abi: erc20Abi,
      data: approval.transactionRequest.data,
    });
    assert.equal(functionName, "approve");
    assert.deepEqual(args, [oft, 5n]);
  });

  it("error: a zero amount or a negative fee is refused", () => {
    const base = {
      chainId: 1,
      oft,
      dstEid: 2,
      to: user,
      minAmountLD: 0n,
      nativeFee: 0n,
      refundAddress: user,
    };
    assert.throws(() => buildOftSendTransaction({ ...base, amountLD: 0n }), /positive amount/);
    assert.throws(
      () => buildOftSendTransaction({ ...base, amountLD: 1n, nativeFee: -1n }),
      /non-negative/,
    );
  });
});
