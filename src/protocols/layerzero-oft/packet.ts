/**
 * LayerZero V2 packets and OFT messages, byte for byte as PacketV1Codec (lz-evm-protocol-v2) and
 * OFTMsgCodec (oft-evm) lay them out. Pure.
 *
 * packet  = version(1) nonce(8) srcEid(4) sender(32) dstEid(4) receiver(32) | guid(32) message
 * message = sendTo(32) amountSD(8) [composeFrom(32) composeMsg]
 */
import {
  type Address,
  concat,
  getAddress,
  type Hex,
  keccak256,
  numberToHex,
  pad,
  size,
  slice,
} from "viem";

export interface Packet {
  version: number;
  nonce: bigint;
  srcEid: number;
  /** The sending OApp (bytes32, an EVM address left-padded). */
  sender: Hex;
  dstEid: number;
  /** The receiving OApp on the destination (bytes32). */
  receiver: Hex;
  guid: Hex;
  message: Hex;
}

export interface OftMessage {
  /** Recipient as bytes32 (an EVM address left-padded on EVM chains). */
  sendTo: Hex;
  amountSD: bigint;
  /** Present for SEND_AND_CALL: the source caller and the compose payload. */
  compose?: { from: Hex; message: Hex };
}

export class LayerZeroDecodeError extends Error {
  override name = "LayerZeroDecodeError";
}

const HEADER_LENGTH = 81;
const PAYLOAD_OFFSET = 113;

const uint = (hex: Hex, start: number, end: number): bigint => BigInt(slice(hex, start, end));

export function decodePacket(encoded: Hex): Packet {
  if (size(encoded) < PAYLOAD_OFFSET) {
    throw new LayerZeroDecodeError(
      `a packet has at least ${PAYLOAD_OFFSET} bytes, got ${size(encoded)}`,
    );
  }
  const version = Number(uint(encoded, 0, 1));
  if (version !== 1) throw new LayerZeroDecodeError(`unknown packet version ${version}`);
  return {
    version,
    nonce: uint(encoded, 1, 9),
    srcEid: Number(uint(encoded, 9, 13)),
    sender: slice(encoded, 13, 45),
    dstEid: Number(uint(encoded, 45, 49)),
    receiver: slice(encoded, 49, HEADER_LENGTH),
    guid: slice(encoded, HEADER_LENGTH, PAYLOAD_OFFSET),
    message: size(encoded) === PAYLOAD_OFFSET ? "0x" : slice(encoded, PAYLOAD_OFFSET),
  };
}

export function encodePacket(packet: Omit<Packet, "version">): Hex {
  return concat([
    "0x01",
    numberToHex(packet.nonce, { size: 8 }),
    numberToHex(packet.srcEid, { size: 4 }),
    pad(packet.sender, { size: 32 }),
    numberToHex(packet.dstEid, { size: 4 }),
    pad(packet.receiver, { size: 32 }),
    packet.guid,
    packet.message,
  ]);
}

/** GUID.generate: keccak256(nonce, srcEid, sender, dstEid, receiver), packed. */
export function computeGuid(
  parameters: Pick<Packet, "nonce" | "srcEid" | "sender" | "dstEid" | "receiver">,
): Hex {
  return keccak256(
    concat([
      numberToHex(parameters.nonce, { size: 8 }),
      numberToHex(parameters.srcEid, { size: 4 }),
      pad(parameters.sender, { size: 32 }),
      numberToHex(parameters.dstEid, { size: 4 }),
      pad(parameters.receiver, { size: 32 }),
    ]),
  );
}

export function decodeOftMessage(message: Hex): OftMessage {
  const length = size(message);
  if (length < 40)
    throw new LayerZeroDecodeError(`an OFT message has at least 40 bytes, got ${length}`);
  const decoded: OftMessage = { sendTo: slice(message, 0, 32), amountSD: uint(message, 32, 40) };
  if (length > 40) {
    if (length < 72)
      throw new LayerZeroDecodeError(`a composed OFT message has at least 72 bytes, got ${length}`);
    decoded.compose = {
      from: slice(message, 40, 72),
      message: length === 72 ? "0x" : slice(message, 72),
    };
  }
  return decoded;
}

/** OFTMsgCodec.encode (the compose caller is the source `msg.sender`). */
export function encodeOftMessage(message: OftMessage): Hex {
  const head = concat([
    pad(message.sendTo, { size: 32 }),
    numberToHex(message.amountSD, { size: 8 }),
  ]);
  if (message.compose === undefined) return head;
  return concat([head, pad(message.compose.from, { size: 32 }), message.compose.message]);
}

/** bytes32 -> EVM address (the low 20 bytes), as OFTMsgCodec.bytes32ToAddress. */
export function bytes32ToAddress(value: Hex): Address {
  return getAddress(slice(pad(value, { size: 32 }), 12, 32));
}

export function addressToBytes32(address: Address): Hex {
  return pad(address, { size: 32 });
}
