import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type Address, concat, decodeAbiParameters, type Hex, pad } from "viem";
import {
  buildDestinationSwap,
  DEFAULT_COMPOSE_GAS,
  decodeOftComposeMessage,
  decodeSwapComposeMsg,
  encodeOftComposeMessage,
  encodeSwapComposeMsg,
} from "./compose.js";
import { composeGasOf, decodeExecutorOptions } from "./options.js";

const composer: Address = "0x1111111111111111111111111111111111111111";
const usdc: Address = "0x2222222222222222222222222222222222222222";
const user: Address = "0x3333333333333333333333333333333333333333";

describe("destination swap compose", () => {
  it("default: the compose message is abi.encode(tokenOut, minAmountOut, recipient), what OftSwapComposer decodes", () => {
    const encoded = encodeSwapComposeMsg({ tokenOut: usdc, minAmountOut: 995n, recipient: user });
    assert.deepEqual(
      decodeAbiParameters([{ type: "address" }, { type: "uint256" }, { type: "address" }], encoded),
      [usdc, 995n, user],
    );
    assert.deepEqual(decodeSwapComposeMsg(encoded), {
      tokenOut: usdc,
      minAmountOut: 995n,
      recipient: user,
    });
    assert.throws(() => decodeSwapComposeMsg(`${encoded}00`), RangeError);
  });

  it("behavior: buildDestinationSwap sends to the composer with lzCompose gas for index 0 (and lzReceive gas when asked)", () => {
    const fields = buildDestinationSwap({
      composer,
      tokenOut: usdc,
      minAmountOut: 1n,
      recipient: user,
    });
    assert.equal(fields.to, composer);
    assert.equal(composeGasOf(decodeExecutorOptions(fields.extraOptions)), DEFAULT_COMPOSE_GAS);
    assert.equal(decodeExecutorOptions(fields.extraOptions).lzReceive, null);
    const withReceive = buildDestinationSwap({
      composer,
      tokenOut: usdc,
      minAmountOut: 1n,
      recipient: user,
      composeGas: 300_000n,
      lzReceiveGas: 80_000n,
    });
    const decoded = decodeExecutorOptions(withReceive.extraOptions);
    assert.deepEqual(decoded.lzReceive, { gas: 80_000n, value: 0n });
    assert.equal(composeGasOf(decoded), 300_000n);
  });

  it("behavior: the OFT compose message is OFTComposeMsgCodec's layout: nonce(8) srcEid(4) amountLD(32) composeFrom(32) composeMsg", () => {
    const composeMsg = encodeSwapComposeMsg({ tokenOut: usdc, minAmountOut: 7n, recipient: user });
    const composeFrom = pad(user, { size: 32 });
    const message = encodeOftComposeMessage({
      nonce: 5n,
      srcEid: 40102,
      amountLD: 10n ** 18n,
      composeFrom,
      composeMsg,
    });
    assert.equal(
      message,
      concat([
        "0x0000000000000005",
        "0x00009ca6",
        pad("0x0de0b6b3a7640000", { size: 32 }),
        composeFrom,
        composeMsg,
      ]),
    );
    assert.deepEqual(decodeOftComposeMessage(message), {
      nonce: 5n,
      srcEid: 40102,
      amountLD: 10n ** 18n,
      composeFrom,
      composeMsg,
    });
    assert.throws(() => decodeOftComposeMessage(message.slice(0, 100) as Hex), RangeError);
  });
});
