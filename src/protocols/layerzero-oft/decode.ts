/**
 * Pure decoding of LayerZero V2 OFT logs, in two steps:
 *
 * 1. `decodeLayerZeroLog`: one log -> one plain event (OFTSent, OFTReceived, PacketSent with its
 *    packet and OFT message decoded, PacketDelivered, LzReceiveAlert), or null for anything else.
 * 2. `normaliseLayerZeroTransaction`: one transaction's logs -> the normalised events a record is
 *    built from, paired inside the transaction the way the contracts emit them:
 *    - "sent": OFTSent + the endpoint's PacketSent with the same guid (srcEid, nonce, the
 *      destination OApp and the recipient come from the packet), messaging fee = the
 *      transaction's native value when the caller passes it and the transaction sent one OFT;
 *    - "delivered": OFTReceived + the PacketDelivered of the same lzReceive call;
 *    - "retryable": LzReceiveAlert (a delivery that reverted and may be retried: Processing).
 *
 * The guid (topic1 of OFTSent and OFTReceived) is the pairing key across chains (message_id).
 */
import {
  type Address,
  decodeEventLog,
  getAddress,
  type Hex,
  type Log,
  toEventSelector,
} from "viem";
import { endpointAbi, oftAbi } from "./abi.js";
import {
  bytes32ToAddress,
  decodeOftMessage,
  decodePacket,
  type OftMessage,
  type Packet,
} from "./packet.js";

export interface LogPosition {
  /** The emitting contract: the OFT (OFTSent/OFTReceived) or the endpoint. */
  address: Address;
  txHash: Hex;
  blockNumber: bigint;
  logIndex: number;
}

export type LayerZeroLogEvent =
  | ({
      event: "OFTSent";
      guid: Hex;
      dstEid: number;
      from: Address;
      amountSentLD: bigint;
      amountReceivedLD: bigint;
    } & LogPosition)
  | ({
      event: "OFTReceived";
      guid: Hex;
      srcEid: number;
      to: Address;
      amountReceivedLD: bigint;
    } & LogPosition)
  | ({
      event: "PacketSent";
      packet: Packet;
      /** The packet's message read as an OFT message; undefined when it is not one. */
      oftMessage: OftMessage | undefined;
      options: Hex;
      sendLibrary: Address;
    } & LogPosition)
  | ({
      event: "PacketDelivered";
      srcEid: number;
      sender: Hex;
      nonce: bigint;
      receiver: Address;
    } & LogPosition)
  | ({
      event: "LzReceiveAlert";
      receiver: Address;
      executor: Address;
      srcEid: number;
      sender: Hex;
      nonce: bigint;
      guid: Hex;
      gas: bigint;
      value: bigint;
      message: Hex;
      extraData: Hex;
      reason: Hex;
    } & LogPosition);

export const LAYERZERO_TOPICS = {
  OFTSent: toEventSelector(oftAbi.find((x) => x.type === "event" && x.name === "OFTSent") as never),
  OFTReceived: toEventSelector(
    oftAbi.find((x) => x.type === "event" && x.name === "OFTReceived") as never,
  ),
  PacketSent: toEventSelector(
    endpointAbi.find((x) => x.type === "event" && x.name === "PacketSent") as never,
  ),
  PacketDelivered: toEventSelector(
    endpointAbi.find((x) => x.type === "event" && x.name === "PacketDelivered") as never,
  ),
  LzReceiveAlert: toEventSelector(
    endpointAbi.find((x) => x.type === "event" && x.name === "LzReceiveAlert") as never,
  ),
} as const;

const OFT_TOPICS = new Set<string>([LAYERZERO_TOPICS.OFTSent, LAYERZERO_TOPICS.OFTReceived]);

type RawLog = Pick<
  Log,
  "address" | "data" | "topics" | "transactionHash" | "blockNumber" | "logIndex"
>;

function positionOf(log: RawLog): LogPosition {
  if (log.transactionHash === null || log.blockNumber === null || log.logIndex === null) {
    throw new Error("a pending log (no transaction hash, block or index) cannot be decoded");
  }
  return {
    address: getAddress(log.address),
    txHash: log.transactionHash,
    blockNumber: log.blockNumber,
    logIndex: log.logIndex,
  };
}

function tryOftMessage(message: Hex): OftMessage | undefined {
  try {
    return decodeOftMessage(message);
  } catch {
    return undefined; // another OApp's message
  }
}

/** One log -> its LayerZero event, or null when it is none of the five. */
export function decodeLayerZeroLog(log: RawLog): LayerZeroLogEvent | null {
  const topic = log.topics[0];
  if (topic === undefined) return null;
  const abi = OFT_TOPICS.has(topic) ? oftAbi : endpointAbi;
  let decoded: ReturnType<typeof decodeEventLog<typeof abi>>;
  try {
    decoded = decodeEventLog({ abi, data: log.data, topics: log.topics as [Hex, ...Hex[]] });
  } catch {
    return null; // not one of ours
  }
  const at = positionOf(log);
  switch (decoded.eventName) {
    case "OFTSent":
      return {
        event: "OFTSent",
        guid: decoded.args.guid,
        dstEid: decoded.args.dstEid,
        from: decoded.args.fromAddress,
        amountSentLD: decoded.args.amountSentLD,
        amountReceivedLD: decoded.args.amountReceivedLD,
        ...at,
      };
    case "OFTReceived":
      return {
        event: "OFTReceived",
        guid: decoded.args.guid,
        srcEid: decoded.args.srcEid,
        to: decoded.args.toAddress,
        amountReceivedLD: decoded.args.amountReceivedLD,
        ...at,
      };
    case "PacketSent": {
      const packet = decodePacket(decoded.args.encodedPayload);
      return {
        event: "PacketSent",
        packet,
        oftMessage: tryOftMessage(packet.message),
        options: decoded.args.options,
        sendLibrary: decoded.args.sendLibrary,
        ...at,
      };
    }
    case "PacketDelivered":
      return {
        event: "PacketDelivered",
        srcEid: decoded.args.origin.srcEid,
        sender: decoded.args.origin.sender,
        nonce: decoded.args.origin.nonce,
        receiver: decoded.args.receiver,
        ...at,
      };
    case "LzReceiveAlert":
      return {
        event: "LzReceiveAlert",
        receiver: decoded.args.receiver,
        executor: decoded.args.executor,
        srcEid: decoded.args.origin.srcEid,
        sender: decoded.args.origin.sender,
        nonce: decoded.args.origin.nonce,
        guid: decoded.args.guid,
        gas: decoded.args.gas,
        value: decoded.args.value,
        message: decoded.args.message,
        extraData: decoded.args.extraData,
        reason: decoded.args.reason,
        ...at,
      };
    default:
      return null;
  }
}

/** A send on the source chain (record fields: send side, fees). */
export interface OftSentEvent extends LogPosition {
  type: "sent";
  guid: Hex;
  srcEid: number | null;
  dstEid: number;
  /** The OFT or OFTAdapter that sent (the OFTSent log's address). */
  oft: Address;
  /** The OApp on the destination (the packet's receiver); null without the PacketSent. */
  destinationOft: Address | null;
  nonce: bigint | null;
  from: Address;
  /** Recipient on the destination (the OFT message's sendTo); null without the PacketSent. */
  to: Address | null;
  amountSentLD: bigint;
  amountReceivedLD: bigint;
  /** The ERC-20 moved on the source: the OFT itself, or the adapter's inner token. */
  token: Address | null;
  /** Native coin paid for messaging (the transaction's value); null when unknown. */
  messagingFee: bigint | null;
}

/** A delivery on the destination chain. */
export interface OftDeliveredEvent extends LogPosition {
  type: "delivered";
  guid: Hex;
  srcEid: number;
  /** The OFT or adapter that received (the OFTReceived log's address). */
  oft: Address;
  to: Address;
  amountReceivedLD: bigint;
  /** From the PacketDelivered of the same call; null without it. */
  nonce: bigint | null;
  sourceOft: Address | null;
}

/** A delivery that reverted in lzReceive and stays stored for a retry (Processing). */
export interface OftRetryableEvent extends LogPosition {
  type: "retryable";
  guid: Hex;
  srcEid: number;
  sourceOft: Address;
  nonce: bigint;
  /** The OApp whose lzReceive reverted. */
  oft: Address;
  executor: Address;
  reason: Hex;
}

export type OftTransferEvent = OftSentEvent | OftDeliveredEvent | OftRetryableEvent;

export interface NormaliseContext {
  /** The transaction's native value (eth_getTransactionByHash `value`), for the messaging fee. */
  txValue?: bigint;
  /** OFT address -> the token it moves (itself for an OFT; token() for an adapter). */
  tokenOf?: (oft: Address) => Address | undefined;
}

const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * One transaction's logs (in log order) -> normalised OFT events. Logs of other contracts are
 * ignored. The messaging fee is the transaction's value only when it sent exactly one OFT
 * transfer (OAppSender requires msg.value == nativeFee; a batch through another contract would
 * make the split unknowable, so it stays null).
 */
export function normaliseLayerZeroTransaction(
  logs: readonly RawLog[],
  context: NormaliseContext = {},
): OftTransferEvent[] {
  const events = logs.map(decodeLayerZeroLog).filter((e): e is LayerZeroLogEvent => e !== null);
  const packets = new Map<string, Extract<LayerZeroLogEvent, { event: "PacketSent" }>>();
  for (const e of events) if (e.event === "PacketSent") packets.set(e.packet.guid, e);
  const sentCount = events.filter((e) => e.event === "OFTSent").length;
  const out: OftTransferEvent[] = [];
  for (const [index, e] of events.entries()) {
    if (e.event === "OFTSent") {
      const packet = packets.get(e.guid);
      out.push({
        type: "sent",
        guid: e.guid,
        srcEid: packet?.packet.srcEid ?? null,
        dstEid: e.dstEid,
        oft: e.address,
        destinationOft: packet === undefined ? null : bytes32ToAddress(packet.packet.receiver),
        nonce: packet?.packet.nonce ?? null,
        from: e.from,
        to: packet?.oftMessage === undefined ? null : bytes32ToAddress(packet.oftMessage.sendTo),
        amountSentLD: e.amountSentLD,
        amountReceivedLD: e.amountReceivedLD,
        token: context.tokenOf?.(e.address) ?? null,
        messagingFee: sentCount === 1 && context.txValue !== undefined ? context.txValue : null,
        address: e.address,
        txHash: e.txHash,
        blockNumber: e.blockNumber,
        logIndex: e.logIndex,
      });
    } else if (e.event === "OFTReceived") {
      // EndpointV2.lzReceive emits PacketDelivered right after the receiver's own events.
      const delivered = events
        .slice(index + 1)
        .find(
          (d): d is Extract<LayerZeroLogEvent, { event: "PacketDelivered" }> =>
            d.event === "PacketDelivered" &&
            sameAddress(d.receiver, e.address) &&
            d.srcEid === e.srcEid,
        );
      out.push({
        type: "delivered",
        guid: e.guid,
        srcEid: e.srcEid,
        oft: e.address,
        to: e.to,
        amountReceivedLD: e.amountReceivedLD,
        nonce: delivered?.nonce ?? null,
        sourceOft: delivered === undefined ? null : bytes32ToAddress(delivered.sender),
        address: e.address,
        txHash: e.txHash,
        blockNumber: e.blockNumber,
        logIndex: e.logIndex,
      });
    } else if (e.event === "LzReceiveAlert") {
      out.push({
        type: "retryable",
        guid: e.guid,
        srcEid: e.srcEid,
        sourceOft: bytes32ToAddress(e.sender),
        nonce: e.nonce,
        oft: e.receiver,
        executor: e.executor,
        reason: e.reason,
        address: e.address,
        txHash: e.txHash,
        blockNumber: e.blockNumber,
        logIndex: e.logIndex,
      });
    }
  }
  return out;
}
