import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  encodeAbiParameters,
  encodeEventTopics,
  getAddress,
  type Hex,
  keccak256,
  pad,
  toHex,
} from "viem";
import type { RawLog } from "../../chain/create-chain-client.js";
import type { RegistryBridge } from "../../domain/bridge-registry.js";
import type { DecodeContext } from "../protocol.js";
import { ACROSS_PROTOCOL, decodeAcrossLogs } from "./decode-log.js";
import { ACROSS_EVENTS_ABI } from "./events-abi.js";
import { acrossMessageId } from "./pairing.js";

const SPOKE_A = getAddress("0xacc0000000000000000000000000000000000a01");
const SPOKE_B = getAddress("0xacc0000000000000000000000000000000000b02");
const USDC_A = getAddress("0x05dc000000000000000000000000000000000a01");
const USDC_B = getAddress("0x05dc000000000000000000000000000000000b02");
const DEPOSITOR = getAddress("0x5e0d000000000000000000000000000000000001");
const RECIPIENT = getAddress("0x4ec1000000000000000000000000000000000002");
const RELAYER = getAddress("0x4e1a000000000000000000000000000000000003");
const b32 = (a: Hex) => pad(a, { size: 32 });

function rawLog(address: Hex, eventName: string, args: Record<string, unknown>, n = 1): RawLog {
  const event = ACROSS_EVENTS_ABI.find((e) => e.type === "event" && e.name === eventName)!;
  const inputs = (event as { inputs: readonly { name: string; indexed?: boolean }[] }).inputs;
  const data = inputs.filter((i) => i.indexed !== true);
  return {
    address,
    topics: encodeEventTopics({
      abi: [event],
      eventName,
      args: Object.fromEntries(inputs.filter((i) => i.indexed).map((i) => [i.name, args[i.name]])),
    } as never) as Hex[],
    data: encodeAbiParameters(data as never, data.map((i) => args[i.name]) as never),
    blockNumber: n,
    blockHash: keccak256(toHex(`block ${n}`)),
    transactionHash: keccak256(toHex(`${eventName} ${n}`)),
    logIndex: 3,
  };
}

function context(chainId: number, decimals?: Record<string, number>): DecodeContext {
  const bridges: Record<string, RegistryBridge> = {
    [SPOKE_A.toLowerCase()]: {
      protocol: ACROSS_PROTOCOL,
      kind: 1,
      chainId: 10,
      address: SPOKE_A,
      bridgeChainId: "10",
    },
    [SPOKE_B.toLowerCase()]: {
      protocol: ACROSS_PROTOCOL,
      kind: 1,
      chainId: 8453,
      address: SPOKE_B,
      bridgeChainId: "8453",
    },
  };
  return {
    chainId,
    blockTime: () => 1_800_000_000,
    contract: (address) => bridges[address.toLowerCase()],
    contractIn: () => undefined,
    transactionValue: () => undefined,
    tokenDecimals:
      decimals === undefined ? undefined : (_chain, address) => decimals[address.toLowerCase()],
  };
}

const deposit = {
  inputToken: b32(USDC_A),
  outputToken: b32(USDC_B),
  inputAmount: 25_000_000n,
  outputAmount: 24_990_000n,
  destinationChainId: 8453n,
  depositId: 77n,
  quoteTimestamp: 1_799_999_990,
  fillDeadline: 1_800_003_600,
  exclusivityDeadline: 0,
  depositor: b32(DEPOSITOR),
  recipient: b32(RECIPIENT),
  exclusiveRelayer: b32("0x0000000000000000000000000000000000000000"),
  message: "0x",
};

const fill = {
  inputToken: b32(USDC_A),
  outputToken: b32(USDC_B),
  inputAmount: 25_000_000n,
  outputAmount: 24_990_000n,
  repaymentChainId: 8453n,
  originChainId: 10n,
  depositId: 77n,
  fillDeadline: 1_800_003_600,
  exclusivityDeadline: 0,
  exclusiveRelayer: b32("0x0000000000000000000000000000000000000000"),
  relayer: b32(RELAYER),
  depositor: b32(DEPOSITOR),
  recipient: b32(RECIPIENT),
  messageHash: `0x${"0".repeat(64)}`,
  relayExecutionInfo: {
    updatedRecipient: b32(RECIPIENT),
    updatedMessageHash: `0x${"0".repeat(64)}`,
    updatedOutputAmount: 24_990_000n,
    fillType: 0,
  },
};

describe("decodeAcrossLogs", () => {
  it("default: FundsDeposited is the send, keyed by (origin chain id, deposit id), fee = input - output", () => {
    const [event] = decodeAcrossLogs([rawLog(SPOKE_A, "FundsDeposited", deposit)], context(10));
    assert.ok(event !== undefined, "the deposit decodes");
    assert.equal(event.role, "sent");
    assert.equal(event.protocol, ACROSS_PROTOCOL);
    assert.equal(event.kind, 1);
    assert.equal(event.name, "FundsDeposited");
    assert.equal(event.messageId, acrossMessageId(10n, 77n));
    assert.deepEqual(
      {
        sender: event.args.sender,
        recipient: event.args.recipient,
        destChainId: event.args.destChainId,
        sourceToken: event.args.sourceToken,
        sendAmount: event.args.sendAmount,
        destToken: event.args.destToken,
        minReceiveAmount: event.args.minReceiveAmount,
        bridgeFee: event.args.bridgeFee,
        xprotoFee: event.args.xprotoFee,
        subsidy: event.args.subsidy,
        deadline: event.args.deadline,
      },
      {
        sender: DEPOSITOR,
        recipient: RECIPIENT,
        destChainId: "8453",
        sourceToken: USDC_A,
        sendAmount: "25000000",
        destToken: USDC_B,
        minReceiveAmount: "24990000",
        bridgeFee: "10000",
        xprotoFee: "0",
        subsidy: "0",
        deadline: "1800003600",
      },
    );
  });

  it("behavior: FilledRelay on the destination is the delivery with the same key", () => {
    const [event] = decodeAcrossLogs([rawLog(SPOKE_B, "FilledRelay", fill)], context(8453));
    assert.equal(event?.role, "delivered");
    assert.equal(event?.messageId, acrossMessageId(10n, 77n));
    assert.equal(event?.args.receiveAmount, "24990000");
    assert.equal(event?.args.recipient, RECIPIENT);
    assert.equal(event?.args.destToken, USDC_B);
    assert.equal(event?.args.relayer, RELAYER);
  });

  it("behavior: the legacy V3FundsDeposited / FilledV3Relay pair under the same key", () => {
    const legacyDeposit = {
      ...deposit,
      inputToken: USDC_A,
      outputToken: USDC_B,
      depositor: DEPOSITOR,
      recipient: RECIPIENT,
      exclusiveRelayer: "0x0000000000000000000000000000000000000000",
      depositId: 77,
    };
    const legacyFill = {
      ...fill,
      inputToken: USDC_A,
      outputToken: USDC_B,
      depositor: DEPOSITOR,
      recipient: RECIPIENT,
      relayer: RELAYER,
      exclusiveRelayer: "0x0000000000000000000000000000000000000000",
      depositId: 77,
      message: "0x",
      relayExecutionInfo: {
        updatedRecipient: "0x0000000000000000000000000000000000000000",
        updatedMessage: "0x",
        updatedOutputAmount: 24_000_000n,
        fillType: 0,
      },
    };
    const [sent] = decodeAcrossLogs(
      [rawLog(SPOKE_A, "V3FundsDeposited", legacyDeposit)],
      context(10),
    );
    const [delivered] = decodeAcrossLogs(
      [rawLog(SPOKE_B, "FilledV3Relay", legacyFill)],
      context(8453),
    );
    assert.equal(sent?.messageId, acrossMessageId(10n, 77n));
    assert.equal(delivered?.messageId, sent?.messageId);
    // no updated recipient: the deposit's; the amount actually sent is the updated one
    assert.equal(delivered?.args.recipient, RECIPIENT);
    assert.equal(delivered?.args.receiveAmount, "24000000");
  });

  it("behavior: differing decimals (6 in, 18 out) are normalised when the context knows them", () => {
    const [event] = decodeAcrossLogs(
      [
        rawLog(SPOKE_A, "FundsDeposited", {
          ...deposit,
          outputAmount: 24_990_000_000_000_000_000n,
        }),
      ],
      context(10, { [USDC_A.toLowerCase()]: 6, [USDC_B.toLowerCase()]: 18 }),
    );
    assert.equal(event?.args.bridgeFee, "10000");
  });

  it("edge: a log of another contract, a non-EVM recipient and a foreign log are left out", () => {
    const other = getAddress("0x0000000000000000000000000000000000000bad");
    const events = decodeAcrossLogs(
      [
        rawLog(other, "FundsDeposited", deposit),
        rawLog(SPOKE_A, "FundsDeposited", { ...deposit, recipient: `0x${"11".repeat(32)}` }),
        { ...rawLog(SPOKE_A, "FundsDeposited", deposit), data: "0x1234" },
      ],
      context(10),
    );
    assert.deepEqual(events, []);
  });
});
