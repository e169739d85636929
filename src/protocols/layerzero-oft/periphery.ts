/**
 * Transactions of a source swap before an OFT send, through our OftSwapSender
 * (contracts/layerzero/OftSwapSender.sol) in one transaction: the caller approves its source token
 * to the sender contract, then calls `swapAndSend` with value = the quoted native fee. Pure; the
 * eth_sendTransaction form of transaction.ts.
 *
 * Amounts: `minAmountOut` bounds the swap's output in the OFT token's local decimals; the OFT then
 * sends that output without its dust (below one shared-decimal unit, returned to the caller), so
 * `minAmountLD` (the OFT's own minimum) is at most removeDust(minAmountOut) (quote-math.ts).
 */
import { type Address, encodeFunctionData, type Hex, numberToHex } from "viem";
import { erc20Abi, oftSwapSenderAbi } from "./abi.js";
import { addressToBytes32 } from "./packet.js";
import type { OftApproval, OftTransactionRequest } from "./transaction.js";

export interface BuildOftSwapSendParameters {
  chainId: number;
  /** OftSwapSender on the source chain. */
  sender: Address;
  /** The OFT or OFTAdapter to send through. */
  oft: Address;
  /** What the caller pays; the OFT's token itself skips the swap. */
  tokenIn: Address;
  amountIn: bigint;
  /** Minimum swap output (the OFT token's local decimals); below it the transaction reverts. */
  minAmountOut: bigint;
  dstEid: number;
  /** Recipient on the destination, or the destination's OftSwapComposer (compose.ts). */
  to: Address;
  /** The OFT's minimum received (dust-free), at most removeDust(minAmountOut). */
  minAmountLD: bigint;
  /** The quoted messaging fee: the transaction's value, all forwarded to OFT.send. */
  nativeFee: bigint;
  /** Gets the part of the native fee the endpoint does not charge. */
  refundAddress: Address;
  extraOptions?: Hex;
  composeMsg?: Hex;
}

/** OftSwapSender.swapAndSend(SwapSendParam) with value = the native fee. */
export function buildOftSwapSendTransaction(p: BuildOftSwapSendParameters): OftTransactionRequest {
  if (p.amountIn <= 0n) throw new RangeError("a swap and send needs a positive amount");
  if (p.nativeFee < 0n || p.minAmountOut < 0n || p.minAmountLD < 0n)
    throw new RangeError("fees and minimums are non-negative");
  const data = encodeFunctionData({
    abi: oftSwapSenderAbi,
    functionName: "swapAndSend",
    args: [
      {
        oft: p.oft,
        tokenIn: p.tokenIn,
        amountIn: p.amountIn,
        minAmountOut: p.minAmountOut,
        dstEid: p.dstEid,
        to: addressToBytes32(p.to),
        minAmountLD: p.minAmountLD,
        extraOptions: p.extraOptions ?? "0x",
        composeMsg: p.composeMsg ?? "0x",
        refundAddress: p.refundAddress,
      },
    ],
  });
  return { chainId: p.chainId, to: p.sender, data, value: numberToHex(p.nativeFee) };
}

/** approve(sender, amountIn) on the source token: always needed before swapAndSend. */
export function buildOftSwapSendApproval(p: {
  chainId: number;
  tokenIn: Address;
  sender: Address;
  amountIn: bigint;
}): OftApproval {
  const data = encodeFunctionData({
    abi: erc20Abi,
    functionName: "approve",
    args: [p.sender, p.amountIn],
  });
  return {
    token: p.tokenIn,
    spender: p.sender,
    amount: p.amountIn,
    transactionRequest: { chainId: p.chainId, to: p.tokenIn, data, value: "0x0" },
  };
}
