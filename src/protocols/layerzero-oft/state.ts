/**
 * Reads, at one block, what quoting an OFT needs (quote-math.ts): the decimal conversion rate,
 * quoteOFT's limits, and quoteSend's messaging fee to each destination for a plain send's message
 * (32-byte recipient + 8-byte amount: its length and the fee do not depend on the amount or the
 * recipient). Destinations without a peer are left out (send would revert with NoPeer).
 *
 * For destinations with our OftSwapComposer, also the fee of a composed send as a destination
 * swap makes it (compose.ts buildDestinationSwap): the message adds the 32-byte composeFrom and
 * the composer's 96-byte composeMsg, abi.encode(address, uint256, address), whose length does not
 * depend on its values, and the options carry the compose gas; the fee differs from a plain one.
 */
import {
  type Address,
  type BlockTag,
  type Hex,
  type PublicClient,
  zeroAddress,
  zeroHash,
} from "viem";
import { oftAbi } from "./abi.js";
import { buildDestinationSwap } from "./compose.js";
import type { MessagingFee, OftQuoteState } from "./quote-math.js";

export interface ReadOftStateParameters {
  oft: Address;
  dstEids: readonly number[];
  /** Those of dstEids whose chain has our composer: their composed send's fee is read too. */
  composedDstEids?: readonly number[];
  /** The block to read at; default latest. */
  blockNumber?: bigint;
  blockTag?: BlockTag;
  /**
   * The OFT's fixed fields from an earlier read: not read again. OFTCore sets them in its
   * constructor (immutable or pure), so only a proxy upgrade could change them; the router's
   * reader keeps them for the process's life and reads only what can move per block.
   */
  fixed?: OftFixedFields;
}

/** What an OFT fixes at deployment (OFTCore: immutable or pure). */
export interface OftFixedFields {
  token: Address;
  approvalRequired: boolean;
  sharedDecimals: number;
  decimalConversionRate: bigint;
}

export interface OftState extends OftQuoteState {
  oft: Address;
  blockNumber: bigint;
  token: Address;
  approvalRequired: boolean;
  sharedDecimals: number;
  /** Destination endpoint id -> peer (bytes32) for those that have one. */
  peers: ReadonlyMap<number, Hex>;
  /** quoteSend's fee of a destination swap's composed send (composedDstEids with a peer). */
  composeFeeByDstEid: ReadonlyMap<number, MessagingFee>;
}

/**
 * The SendParam fields of a destination swap as far as the fee sees them: a composeMsg of the
 * composer's fixed length and the compose options, exactly those a quote's transaction sends.
 */
export const COMPOSED_SEND_FEE_FIELDS = (() => {
  const fields = buildDestinationSwap({
    composer: zeroAddress,
    tokenOut: zeroAddress,
    minAmountOut: 0n,
    recipient: zeroAddress,
  });
  return { composeMsg: fields.composeMsg, extraOptions: fields.extraOptions };
})();

const PLAIN_SEND = {
  to: zeroHash,
  amountLD: 0n,
  minAmountLD: 0n,
  extraOptions: "0x",
  composeMsg: "0x",
  oftCmd: "0x",
} as const;

export async function readOftState(
  client: Pick<PublicClient, "readContract" | "getBlockNumber">,
  parameters: ReadOftStateParameters,
): Promise<OftState> {
  const blockNumber = parameters.blockNumber ?? (await client.getBlockNumber());
  const read = <T>(functionName: string, args: readonly unknown[] = []): Promise<T> =>
    client.readContract({
      address: parameters.oft,
      abi: oftAbi,
      functionName,
      args,
      blockNumber,
    } as never) as Promise<T>;
  const readFixed = async (): Promise<OftFixedFields> => {
    const [token, approvalRequired, sharedDecimals, decimalConversionRate] = await Promise.all([
      read<Address>("token"),
      read<boolean>("approvalRequired"),
      read<number>("sharedDecimals"),
      read<bigint>("decimalConversionRate"),
    ]);
    return { token, approvalRequired, sharedDecimals, decimalConversionRate };
  };
  const [fixed, limits, peerList] = await Promise.all([
    parameters.fixed ?? readFixed(),
    read<readonly [{ minAmountLD: bigint; maxAmountLD: bigint }, unknown, unknown]>("quoteOFT", [
      { ...PLAIN_SEND, dstEid: parameters.dstEids[0] ?? 0 },
    ]),
    Promise.all(parameters.dstEids.map((eid) => read<Hex>("peers", [eid]))),
  ]);
  const peers = new Map<number, Hex>();
  parameters.dstEids.forEach((eid, i) => {
    const peer = peerList[i];
    if (peer !== undefined && peer !== zeroHash) peers.set(eid, peer);
  });
  const fees = await Promise.all(
    [...peers.keys()].map(async (eid) => {
      const fee = await read<MessagingFee>("quoteSend", [{ ...PLAIN_SEND, dstEid: eid }, false]);
      return [eid, { nativeFee: fee.nativeFee, lzTokenFee: fee.lzTokenFee }] as const;
    }),
  );
  const composed = (parameters.composedDstEids ?? []).filter((eid) => peers.has(eid));
  const composeFees = await Promise.all(
    composed.map(async (eid) => {
      const send = { ...PLAIN_SEND, ...COMPOSED_SEND_FEE_FIELDS, dstEid: eid };
      const fee = await read<MessagingFee>("quoteSend", [send, false]);
      return [eid, { nativeFee: fee.nativeFee, lzTokenFee: fee.lzTokenFee }] as const;
    }),
  );
  return {
    oft: parameters.oft,
    blockNumber,
    token: fixed.token,
    approvalRequired: fixed.approvalRequired,
    sharedDecimals: fixed.sharedDecimals,
    decimalConversionRate: fixed.decimalConversionRate,
    minAmountLD: limits[0].minAmountLD,
    maxAmountLD: limits[0].maxAmountLD,
    feeByDstEid: new Map(fees),
    peers,
    composeFeeByDstEid: new Map(composeFees),
  };
}
