import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  getAddress,
  type Hex,
  pad,
  zeroAddress,
} from "viem";
import type { RawLog } from "../../chain/create-chain-client.js";
import type { BridgeKind } from "../../domain/bridge-kind.js";
import type { DecodeContext } from "../protocol.js";
import { endpointAbi, oftAbi } from "./abi.js";
import { decodeLayerZeroLog, LAYERZERO_TOPICS, normaliseLayerZeroTransaction } from "./decode.js";
import { layerZeroOftProtocol } from "./index.js";
import { computeGuid, encodeOftMessage, encodePacket } from "./packet.js";
import { LAYERZERO_OFT_PROTOCOL } from "./registry.js";

const ENDPOINT = getAddress("0x00000000000000000000000000000000000000e1");
const OFT_A = getAddress("0x000000000000000000000000000000000000a0a0");
const OFT_B = getAddress("0x000000000000000000000000000000000000b0b0");
const USER: Address = "0x52908400098527886E0F7030069857D2E4169EE7";
const TX = `0x${"12".repeat(32)}` as Hex;

let logIndex = 0;
/** encodeEventTopics types unindexed slots as null; every slot here is given. */
function log(address: Address, topics: readonly unknown[], data: Hex) {
  return {
    address,
    topics: topics as [Hex, ...Hex[]],
    data,
    transactionHash: TX,
    blockNumber: 10n,
    logIndex: logIndex++,
  };
}

function sendLogs(nonce: bigint, amount: bigint) {
  const packet = {
    nonce,
    srcEid: 40101,
    sender: pad(OFT_A),
    dstEid: 40102,
    receiver: pad(OFT_B),
    message: "0x" as Hex,
  };
  const guid = computeGuid(packet);
  const message = encodeOftMessage({ sendTo: pad(USER), amountSD: amount / 10n ** 12n });
  const encoded = encodePacket({ ...packet, guid, message });
  const packetSent = log(
    ENDPOINT,
    encodeEventTopics({ abi: endpointAbi, eventName: "PacketSent" }),
    encodeAbiParameters(
      [{ type: "bytes" }, { type: "bytes" }, { type: "address" }],
      [encoded, "0x", ENDPOINT],
    ),
  );
  const oftSent = log(
    OFT_A,
    encodeEventTopics({ abi: oftAbi, eventName: "OFTSent", args: { guid, fromAddress: USER } }),
    encodeAbiParameters(
      [{ type: "uint32" }, { type: "uint256" }, { type: "uint256" }],
      [40102, amount, amount],
    ),
  );
  return { guid, logs: [packetSent, oftSent] };
}

describe("LayerZero log decoding", () => {
  it("default: OFTSent pairs with the PacketSent of the same guid; the fee is the transaction's value", () => {
    const { guid, logs } = sendLogs(3n, 7n * 10n ** 18n);
    const [sent, ...rest] = normaliseLayerZeroTransaction(logs, {
      txValue: 100n,
      tokenOf: (oft) => (oft === OFT_A ? OFT_A : undefined),
    });
    assert.equal(rest.length, 0);
    assert.deepEqual(sent, {
      type: "sent",
      guid,
      srcEid: 40101,
      dstEid: 40102,
      oft: OFT_A,
      destinationOft: OFT_B,
      nonce: 3n,
      from: USER,
      to: USER,
      amountSentLD: 7n * 10n ** 18n,
      amountReceivedLD: 7n * 10n ** 18n,
      token: OFT_A,
      messagingFee: 100n,
      address: OFT_A,
      txHash: TX,
      blockNumber: 10n,
      logIndex: logs[1]?.logIndex,
    });
  });

  it("behavior: two sends in one transaction leave the messaging fee unknown; a lone OFTSent has no packet fields", () => {
    const first = sendLogs(1n, 10n ** 18n);
    const second = sendLogs(2n, 2n * 10n ** 18n);
    const both = normaliseLayerZeroTransaction([...first.logs, ...second.logs], { txValue: 200n });
    assert.deepEqual(
      both.map((e) => e.type === "sent" && e.messagingFee),
      [null, null],
    );
    const [lone] = normaliseLayerZeroTransaction([first.logs[1]!], { txValue: 5n });
    assert.equal(lone?.type === "sent" && lone.srcEid, null);
    assert.equal(lone?.type === "sent" && lone.to, null);
    assert.equal(lone?.type === "sent" && lone.messagingFee, 5n);
  });

  it("behavior: OFTReceived pairs with the PacketDelivered after it; LzReceiveAlert is retryable", () => {
    const guid = `0x${"77".repeat(32)}` as Hex;
    const origin = { srcEid: 40101, sender: pad(OFT_A), nonce: 9n };
    const received = log(
      OFT_B,
      encodeEventTopics({ abi: oftAbi, eventName: "OFTReceived", args: { guid, toAddress: USER } }),
      encodeAbiParameters([{ type: "uint32" }, { type: "uint256" }], [40101, 5n]),
    );
    const delivered = log(
      ENDPOINT,
      encodeEventTopics({ abi: endpointAbi, eventName: "PacketDelivered" }),
      encodeAbiParameters(
        [
          {
            type: "tuple",
            components: [{ type: "uint32" }, { type: "bytes32" }, { type: "uint64" }],
          },
          { type: "address" },
        ],
        [[origin.srcEid, origin.sender, origin.nonce], OFT_B],
      ),
    );
    const [d] = normaliseLayerZeroTransaction([received, delivered]);
    assert.equal(d?.type, "delivered");
    assert.equal(d?.type === "delivered" && d.nonce, 9n);
    assert.equal(d?.type === "delivered" && d.sourceOft, OFT_A);

    const alert = log(
      ENDPOINT,
      encodeEventTopics({
        abi: endpointAbi,
        eventName: "LzReceiveAlert",
        args: { receiver: OFT_B, executor: USER },
      }),
      encodeAbiParameters(
        [
          {
            type: "tuple",
            components: [{ type: "uint32" }, { type: "bytes32" }, { type: "uint64" }],
          },
          { type: "bytes32" },
          { type: "uint256" },
          { type: "uint256" },
          { type: "bytes" },
          { type: "bytes" },
          { type: "bytes" },
        ],
        [
          [origin.srcEid, origin.sender, origin.nonce],
          guid,
          1_000_000n,
          0n,
          "0x01",
          "0x",
          "0xdeadbeef",
        ],
      ),
    );
    const [r] = normaliseLayerZeroTransaction([alert]);
    assert.deepEqual(
      r?.type === "retryable" && [r.guid, r.oft, r.executor, r.sourceOft, r.nonce, r.reason],
      [guid, OFT_B, USER, OFT_A, 9n, "0xdeadbeef"],
    );
  });

  it("default: the topics are those of the research table (OFTSent 0x85496b76, PacketSent 0x1ab700d4, ...)", () => {
    assert.equal(LAYERZERO_TOPICS.OFTSent.slice(0, 10), "0x85496b76");
    assert.equal(LAYERZERO_TOPICS.OFTReceived.slice(0, 10), "0xefed6d35");
    assert.equal(LAYERZERO_TOPICS.PacketSent.slice(0, 10), "0x1ab700d4");
    assert.equal(LAYERZERO_TOPICS.PacketDelivered.slice(0, 10), "0x3cd5e48f");
    assert.equal(LAYERZERO_TOPICS.LzReceiveAlert.slice(0, 10), "0x7edfa10f");
  });

  it("error: other contracts' logs are ignored, not errors", () => {
    const transfer = log(
      OFT_A,
      ["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef", pad(USER), pad(OFT_B)],
      pad("0x05"),
    );
    assert.equal(decodeLayerZeroLog(transfer), null);
    assert.deepEqual(normaliseLayerZeroTransaction([transfer]), []);
  });
});

describe("layerZeroOftProtocol.decodeLogs (the seam)", () => {
  const DAI = getAddress("0x000000000000000000000000000000000000da10");
  const entry = (address: Address, kind: BridgeKind, eid: number, token?: Address) => ({
    protocol: LAYERZERO_OFT_PROTOCOL,
    kind,
    chainId: eid - 40101 + 71001,
    address,
    bridgeChainId: String(eid),
    ...(token === undefined ? {} : { token }),
  });
  /** alpha (eid 40101): the endpoint and OFT_A; beta (40102): OFT_B, an adapter over DAI. */
  const registry = [
    entry(ENDPOINT, 2, 40101),
    entry(OFT_A, 2, 40101, OFT_A),
    entry(OFT_B, 0, 40102, DAI),
  ];
  const context = (registered: readonly Address[], value: bigint | undefined): DecodeContext => ({
    chainId: 71001,
    blockTime: () => 1_800_000_000,
    contract: (address) =>
      registry.find(
        (b) => b.chainId === 71001 && registered.includes(b.address) && same(b.address, address),
      ),
    contractIn: (schemeId, address) =>
      registry.find((b) => b.bridgeChainId === schemeId && same(b.address, address)),
    transactionValue: (hash) => (hash === TX ? value : undefined),
  });
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const raw = (logs: ReturnType<typeof sendLogs>["logs"]): RawLog[] =>
    logs.map((l) => ({
      ...l,
      blockNumber: Number(l.blockNumber),
      blockHash: `0x${"ab".repeat(32)}`,
    }));
  const decode = layerZeroOftProtocol.indexing.decodeLogs;

  it("default: a send to an adapter is a kind 0 `sent` naming its destination contract and token, the transaction's value as messaging fee in the native coin", () => {
    const { guid, logs } = sendLogs(4n, 3n * 10n ** 18n);
    const events = decode(raw(logs), context([ENDPOINT, OFT_A], 250n));
    assert.equal(events.length, 1);
    const [sent] = events;
    assert.equal(sent?.role, "sent");
    assert.equal(sent?.messageId, guid.toLowerCase());
    assert.equal(sent?.kind, 0, "the destination is an OFTAdapter: lock / unlock");
    assert.equal(sent?.address, OFT_A);
    assert.equal(sent?.protocol, "layerzero-oft");
    assert.deepEqual(
      {
        recipient: sent?.args.recipient,
        destChainId: sent?.args.destChainId,
        destContract: sent?.args.destContract,
        sourceToken: sent?.args.sourceToken,
        destToken: sent?.args.destToken,
        sendAmount: sent?.args.sendAmount,
        bridgeFee: sent?.args.bridgeFee,
        xprotoFee: sent?.args.xprotoFee,
        xprotoFeeToken: sent?.args.xprotoFeeToken,
      },
      {
        recipient: USER,
        destChainId: "40102",
        destContract: OFT_B,
        sourceToken: OFT_A,
        destToken: DAI,
        sendAmount: (3n * 10n ** 18n).toString(),
        bridgeFee: "0",
        xprotoFee: "250",
        xprotoFeeToken: zeroAddress,
      },
    );
  });

  it("behavior: the valueTopics are OFTSent's only; the endpoint's PacketDelivered is not fetched", () => {
    assert.deepEqual(layerZeroOftProtocol.indexing.valueTopics, [LAYERZERO_TOPICS.OFTSent]);
    assert.equal(
      layerZeroOftProtocol.indexing.topics.includes(LAYERZERO_TOPICS.PacketDelivered),
      false,
    );
  });

  it("error: without the endpoint's PacketSent (endpoint not registered) the recipient is unknown: no event; unregistered OFTs are ignored", () => {
    const { logs } = sendLogs(5n, 10n ** 18n);
    assert.deepEqual(decode(raw(logs), context([OFT_A], 1n)), []);
    assert.deepEqual(decode(raw(logs), context([ENDPOINT], 1n)), []);
  });
});
