import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { WalletFlowError, walletErrorCode, walletErrorMessage } from "./wallet-errors.js";

describe("wallet errors in plain words", () => {
  it("default: EIP-1193 codes", () => {
    assert.match(walletErrorMessage({ code: 4001, message: "User rejected" }), /^You rejected/);
    assert.match(walletErrorMessage({ code: 4902, message: "x" }), /does not know this chain/);
    assert.match(walletErrorMessage({ code: 4100, message: "x" }), /not connected this page/);
    assert.match(walletErrorMessage({ code: -32002, message: "x" }), /already has a request/);
  });

  it("behavior: wrapped errors, insufficient funds and reverts are read from their messages", () => {
    assert.equal(walletErrorCode({ cause: { code: 4001 } }), 4001);
    assert.match(
      walletErrorMessage({ code: -32000, message: "insufficient funds for gas * price + value" }),
      /not have enough of the native coin/,
    );
    assert.equal(
      walletErrorMessage({
        code: 3,
        message: "execution reverted: ERC20: transfer amount exceeds balance",
      }),
      "The transaction would fail on chain: ERC20: transfer amount exceeds balance. Nothing was sent.",
    );
    assert.equal(
      walletErrorMessage(new WalletFlowError("This quote expired.")),
      "This quote expired.",
    );
    assert.equal(walletErrorMessage("weird"), "The wallet reported an error.");
    assert.equal(walletErrorMessage(new Error("boom")), "The wallet reported: boom");
  });
});
