/**
 * The transactions of an OFT transfer, in the form eth_sendTransaction takes (hex quantities):
 * `OFT.send(SendParam, MessagingFee, refundAddress)` with value = the quoted native fee
 * (OAppSender requires msg.value == nativeFee exactly), and, for an OFTAdapter (approvalRequired),
 * the ERC-20 approve of the inner token to the adapter first.
 */
import { type Address, encodeFunctionData, type Hex, numberToHex } from "viem";
import { erc20Abi, oftAbi } from "./abi.js";
import { addressToBytes32 } from "./packet.js";

export interface OftTransactionRequest {
  chainId: number;
  to: Address;
  data: Hex;
  /** Wei as a hex quantity ("0x0" for none). */
  value: Hex;
}

export interface OftApproval {
  token: Address;
  spender: Address;
  amount: bigint;
  transactionRequest: OftTransactionRequest;
}

export interface BuildOftSendParameters {
  chainId: number;
  oft: Address;
  dstEid: number;
  /** Recipient on the destination chain. */
  to: Address;
  amountLD: bigint;
  minAmountLD: bigint;
  nativeFee: bigint;
  /** Gets any native fee paid above the endpoint's; usually the sender. */
  refundAddress: Address;
  extraOptions?: Hex;
  /** SendParam.composeMsg: a compose on the destination (compose.ts builds the swap one). */
  composeMsg?: Hex;
}

export function buildOftSendTransaction(p: BuildOftSendParameters): OftTransactionRequest {
  if (p.amountLD <= 0n) throw new RangeError("an OFT send needs a positive amount");
  if (p.nativeFee < 0n || p.minAmountLD < 0n)
    throw new RangeError("fees and minimums are non-negative");
  const data = encodeFunctionData({
    abi: oftAbi,
    functionName: "send",
    args: [
      {
        dstEid: p.dstEid,
        to: addressToBytes32(p.to),
        amountLD: p.amountLD,
        minAmountLD: p.minAmountLD,
        extraOptions: p.extraOptions ?? "0x",
        composeMsg: p.composeMsg ?? "0x",
        oftCmd: "0x",
      },
      { nativeFee: p.nativeFee, lzTokenFee: 0n },
      p.refundAddress,
    ],
  });
  return { chainId: p.chainId, to: p.oft, data, value: numberToHex(p.nativeFee) };
}

/** approve(adapter, amount) on the adapter's inner token; null when the OFT needs none. */
export function buildOftApproval(p: {
  chainId: number;
  approvalRequired: boolean;
  token: Address;
  oft: Address;
  amountLD: bigint;
}): OftApproval | null {
  if (!p.approvalRequired) return null;
  const data = encodeFunctionData({
    abi: erc20Abi,
    functionName: "approve",
    args: [p.oft, p.amountLD],
  });
  return {
    token: p.token,
    spender: p.oft,
    amount: p.amountLD,
    transactionRequest: { chainId: p.chainId, to: p.token, data, value: "0x0" },
  };
}
