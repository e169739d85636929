/**
 * A destination swap through LayerZero's compose: what the source puts in OFT.send's SendParam
 * so that our OftSwapComposer (contracts/layerzero/OftSwapComposer.sol) on the destination swaps
 * the bridged tokens for the recipient, and the compose message as the composer receives it
 * (OFTComposeMsgCodec of @layerzerolabs/oft-evm). Pure.
 *
 * SendParam.to         = the composer (it receives the tokens)
 * SendParam.composeMsg = abi.encode(address tokenOut, uint256 minAmountOut, address recipient)
 * SendParam.extraOptions = type-3 options with lzCompose gas for index 0 (options.ts)
 *
 * On the destination the OFT queues nonce(8) srcEid(4) amountLD(32) composeFrom(32) composeMsg
 * for lzCompose, where amountLD is what it credited the composer and composeFrom the source caller.
 */
import {
  type Address,
  concat,
  decodeAbiParameters,
  encodeAbiParameters,
  type Hex,
  numberToHex,
  size,
  slice,
} from "viem";
import { buildExecutorOptions } from "./options.js";

/** What the composer does with the bridged tokens. */
export interface SwapComposeMsg {
  /** The token the recipient wants on the destination. */
  tokenOut: Address;
  /** Below this the composer pays the bridged token instead (its local decimals: tokenOut's). */
  minAmountOut: bigint;
  recipient: Address;
}

/** The compose message as EndpointV2.lzCompose hands it to the composer. */
export interface OftComposeMessage {
  /** The packet's nonce on its path. */
  nonce: bigint;
  srcEid: number;
  /** What the destination OFT credited the composer, in its local decimals. */
  amountLD: bigint;
  /** The caller of OFT.send on the source, bytes32. */
  composeFrom: Hex;
  /** SendParam.composeMsg as sent. */
  composeMsg: Hex;
}

/**
 * Gas for the composer's lzCompose: the SwapAdapter prices each hop on the V2 pair and up to four
 * V3 fee tiers (QuoterV2 calls, those that revert included), then swaps. The devnet's executor
 * used 188k gas in all for a one-hop DAI -> USDC compose on alpha; a two-hop path about doubles
 * it, and V3 swaps crossing many ticks cost more, hence the margin.
 */
export const DEFAULT_COMPOSE_GAS = 800_000n;

const SWAP_COMPOSE_PARAMETERS = [
  { type: "address", name: "tokenOut" },
  { type: "uint256", name: "minAmountOut" },
  { type: "address", name: "recipient" },
] as const;

/** SendParam.composeMsg for OftSwapComposer: abi.encode(tokenOut, minAmountOut, recipient). */
export function encodeSwapComposeMsg(message: SwapComposeMsg): Hex {
  if (message.minAmountOut < 0n) throw new RangeError("minAmountOut is non-negative");
  return encodeAbiParameters(SWAP_COMPOSE_PARAMETERS, [
    message.tokenOut,
    message.minAmountOut,
    message.recipient,
  ]);
}

export function decodeSwapComposeMsg(composeMsg: Hex): SwapComposeMsg {
  if (size(composeMsg) !== 96) {
    throw new RangeError(`a swap compose message has 96 bytes, got ${size(composeMsg)}`);
  }
  const [tokenOut, minAmountOut, recipient] = decodeAbiParameters(
    SWAP_COMPOSE_PARAMETERS,
    composeMsg,
  );
  return { tokenOut, minAmountOut, recipient };
}

/** OFTComposeMsgCodec.encode plus the composeFrom the OFT message carries. */
export function encodeOftComposeMessage(message: OftComposeMessage): Hex {
  if (size(message.composeFrom) !== 32) throw new RangeError("composeFrom is 32 bytes");
  return concat([
    numberToHex(message.nonce, { size: 8 }),
    numberToHex(message.srcEid, { size: 4 }),
    numberToHex(message.amountLD, { size: 32 }),
    message.composeFrom,
    message.composeMsg,
  ]);
}

/** OFTComposeMsgCodec's readers: nonce, srcEid, amountLD, composeFrom, composeMsg. */
export function decodeOftComposeMessage(message: Hex): OftComposeMessage {
  if (size(message) < 76) {
    throw new RangeError(`an OFT compose message has at least 76 bytes, got ${size(message)}`);
  }
  return {
    nonce: BigInt(slice(message, 0, 8)),
    srcEid: Number(BigInt(slice(message, 8, 12))),
    amountLD: BigInt(slice(message, 12, 44)),
    composeFrom: slice(message, 44, 76),
    composeMsg: size(message) === 76 ? "0x" : slice(message, 76),
  };
}

export interface BuildDestinationSwapParameters extends SwapComposeMsg {
  /** OftSwapComposer on the destination chain. */
  composer: Address;
  /** Gas for lzCompose; default DEFAULT_COMPOSE_GAS. */
  composeGas?: bigint;
  /**
   * Gas for the OFT's lzReceive. Real executors need one (usually from the OFT's enforced
   * options, which are combined with these); leave it out when the OFT enforces it.
   */
  lzReceiveGas?: bigint;
}

/** The SendParam fields of a send whose tokens the destination composer swaps for `recipient`. */
export interface DestinationSwapSendFields {
  /** SendParam.to: the composer. */
  to: Address;
  composeMsg: Hex;
  extraOptions: Hex;
}

export function buildDestinationSwap(p: BuildDestinationSwapParameters): DestinationSwapSendFields {
  return {
    to: p.composer,
    composeMsg: encodeSwapComposeMsg(p),
    extraOptions: buildExecutorOptions({
      ...(p.lzReceiveGas === undefined ? {} : { lzReceive: { gas: p.lzReceiveGas } }),
      lzCompose: [{ index: 0, gas: p.composeGas ?? DEFAULT_COMPOSE_GAS }],
    }),
  };
}
