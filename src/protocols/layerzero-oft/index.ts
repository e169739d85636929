/**
 * LayerZero V2 OFT through the protocol seam (src/protocols/protocol.ts): the indexer fetches
 * OFTSent / OFTReceived of the registered OFTs and OFTAdapters and PacketSent / LzReceiveAlert
 * of the registered EndpointV2s, plus the native value of every OFTSent transaction (the
 * messaging fee: no event carries it). One transaction's logs are normalised together
 * (decode.ts) and become BridgeEvents paired by the guid:
 *
 * - `sent` (OFTSent + the PacketSent of its guid): the recipient and the destination OFT come
 *   from the packet; `destContract` names that OFT, so the derivation waits for the delivery
 *   there; amounts amountSentLD / amountReceivedLD; bridge fee their difference; messaging fee
 *   the transaction's value in the native coin (xprotoFeeToken 0x0).
 * - `delivered` (OFTReceived): receiveAmount = amountReceivedLD of the destination's token.
 *   The endpoint's PacketDelivered is not fetched (every OApp's deliveries would come with it,
 *   and OFTReceived has what a record needs), so the delivery's nonce and source OFT stay "".
 * - `retrying` (LzReceiveAlert): the delivery reverted and stays stored; the record stays
 *   Processing.
 *
 * A send's `kind` is the transfer's bridge type: 0 when its source or destination contract is
 * an OFTAdapter (lock / unlock), else 2 (burn / mint). Chains are named by endpoint id.
 */
import { type Address, getAddress, type Hex, zeroAddress } from "viem";
import type { RawLog } from "../../chain/create-chain-client.js";
import type { BridgeEvent } from "../../domain/bridge-event.js";
import type { BridgeKind } from "../../domain/bridge-kind.js";
import type { DecodeContext, Protocol } from "../protocol.js";
import {
  LAYERZERO_TOPICS,
  normaliseLayerZeroTransaction,
  type OftTransferEvent,
} from "./decode.js";
import { LAYERZERO_OFT_PROTOCOL } from "./registry.js";
import { layerZeroOftRouting } from "./routing.js";

export { LAYERZERO_OFT_PROTOCOL, layerZeroRegistryBridges } from "./registry.js";

/** One span's logs -> normalised events, transaction by transaction (log order kept). */
export function decodeLayerZeroSpan(
  logs: readonly RawLog[],
  context: DecodeContext,
): BridgeEvent[] {
  const byTx = new Map<string, RawLog[]>();
  for (const log of logs) {
    if (context.contract(log.address) === undefined) continue;
    const key = log.transactionHash.toLowerCase();
    const list = byTx.get(key);
    if (list === undefined) byTx.set(key, [log]);
    else list.push(log);
  }
  const out: BridgeEvent[] = [];
  for (const [txHash, txLogs] of byTx) {
    const byIndex = new Map(txLogs.map((l) => [l.logIndex, l]));
    const normalised = normaliseLayerZeroTransaction(
      txLogs.map((l) => ({
        address: l.address,
        data: l.data,
        topics: l.topics as [Hex, ...Hex[]],
        transactionHash: l.transactionHash,
        blockNumber: BigInt(l.blockNumber),
        logIndex: l.logIndex,
      })),
      {
        txValue: context.transactionValue(txHash as Hex),
        tokenOf: (oft) => {
          const token = context.contract(oft)?.token;
          return token === undefined ? undefined : getAddress(token);
        },
      },
    );
    for (const e of normalised) {
      const log = byIndex.get(e.logIndex)!;
      const event = toBridgeEvent(e, log, context);
      if (event !== undefined) out.push(event);
    }
  }
  return out.sort((a, b) => a.blockNumber - b.blockNumber || a.logIndex - b.logIndex);
}

function toBridgeEvent(
  e: OftTransferEvent,
  log: RawLog,
  context: DecodeContext,
): BridgeEvent | undefined {
  const contract = context.contract(e.address);
  if (contract === undefined) return undefined;
  const at = {
    chainId: context.chainId,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash.toLowerCase() as Hex,
    blockTime: context.blockTime(log),
    txHash: log.transactionHash.toLowerCase() as Hex,
    logIndex: log.logIndex,
    address: getAddress(e.address),
    protocol: LAYERZERO_OFT_PROTOCOL,
    messageId: e.guid.toLowerCase() as Hex,
  };
  switch (e.type) {
    case "sent": {
      // Without the endpoint's PacketSent (endpoint not registered) the recipient is unknown.
      if (e.to === null || e.destinationOft === null) return undefined;
      const token = e.token ?? e.address;
      const destination = context.contractIn(String(e.dstEid), e.destinationOft);
      const destToken: Address = getAddress(destination?.token ?? e.destinationOft);
      const adapterLeg = contract.kind === 0 || destination?.kind === 0;
      const kind: BridgeKind = adapterLeg ? 0 : 2;
      const sent = e.amountSentLD.toString();
      const received = e.amountReceivedLD.toString();
      return {
        ...at,
        kind,
        name: "OFTSent",
        role: "sent",
        args: {
          sender: getAddress(e.from),
          recipient: getAddress(e.to),
          destChainId: String(e.dstEid),
          destContract: getAddress(e.destinationOft),
          sourceToken: getAddress(token),
          sendAmount: sent,
          sourceBridgeToken: getAddress(token),
          bridgeAmount: sent,
          destBridgeToken: destToken,
          destBridgeAmount: received,
          destToken,
          // OFT delivery is exact: the destination credits amountReceivedLD (the send already
          // checked it against the sender's minAmountLD, which no event carries).
          minReceiveAmount: received,
          bridgeFee: (e.amountSentLD - e.amountReceivedLD).toString(),
          // Unknown when one transaction sent several OFTs (the value cannot be split): 0.
          xprotoFee: (e.messagingFee ?? 0n).toString(),
          xprotoFeeToken: zeroAddress,
          subsidy: "0",
          srcEid: e.srcEid === null ? "" : String(e.srcEid),
          dstEid: String(e.dstEid),
          nonce: e.nonce === null ? "" : e.nonce.toString(),
          amountSentLD: sent,
          amountReceivedLD: received,
        },
      };
    }
    case "delivered":
      return {
        ...at,
        kind: contract.kind,
        name: "OFTReceived",
        role: "delivered",
        args: {
          recipient: getAddress(e.to),
          destToken: getAddress(contract.token ?? e.address),
          receiveAmount: e.amountReceivedLD.toString(),
          srcEid: String(e.srcEid),
          nonce: e.nonce === null ? "" : e.nonce.toString(),
          sourceOft: e.sourceOft ?? "",
        },
      };
    case "retryable":
      return {
        ...at,
        kind: contract.kind,
        name: "LzReceiveAlert",
        role: "retrying",
        args: {
          receiver: getAddress(e.oft),
          executor: getAddress(e.executor),
          srcEid: String(e.srcEid),
          nonce: e.nonce.toString(),
          sourceOft: getAddress(e.sourceOft),
          reason: e.reason,
        },
      };
  }
}

export const layerZeroOftProtocol: Protocol = {
  name: LAYERZERO_OFT_PROTOCOL,
  indexing: {
    topics: [
      LAYERZERO_TOPICS.OFTSent,
      LAYERZERO_TOPICS.OFTReceived,
      LAYERZERO_TOPICS.PacketSent,
      LAYERZERO_TOPICS.LzReceiveAlert,
    ],
    valueTopics: [LAYERZERO_TOPICS.OFTSent],
    decodeLogs: decodeLayerZeroSpan,
  },
  // Quoted from the snapshot (routing.ts).
  routing: layerZeroOftRouting,
};
