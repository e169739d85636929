import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { encodeAbiParameters, encodeEventTopics, type Hex } from "viem";
import type { RawLog } from "../../chain/create-chain-client.js";
import { decodeBridgeLog, decodeBridgeLogGeneric } from "./decode-log.js";
import { BRIDGE_EVENTS_ABI } from "./events-abi.js";

const context = { chainId: 71001, kind: 1 as const, blockTime: 1_700_000_000 };
const word = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((b) => `0x${Buffer.from(b).toString("hex")}` as Hex);
const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((b) => `0x${Buffer.from(b).toString("hex")}` as Hex);
const uint = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });

function arbitraryOf(type: string) {
  if (type === "address") return address;
  if (type === "uint256") return uint;
  if (type === "string") return fc.string({ maxLength: 80 });
  return word;
}

/** A log of one of the four events with random argument values, encoded by viem. */
const eventLog = fc.integer({ min: 0, max: BRIDGE_EVENTS_ABI.length - 1 }).chain((i) => {
  const item = BRIDGE_EVENTS_ABI[i]!;
  const inputs = item.inputs as readonly { name: string; type: string; indexed?: boolean }[];
  return fc.tuple(...inputs.map((p) => arbitraryOf(p.type))).map((values) => {
    const args = Object.fromEntries(inputs.map((p, j) => [p.name, values[j]]));
    const topics = encodeEventTopics({
      abi: [item],
      eventName: item.name,
      args: args as never,
    } as never) as Hex[];
    const dataInputs = inputs.filter((p) => p.indexed !== true);
    const data = encodeAbiParameters(
      dataInputs as never,
      dataInputs.map((p) => args[p.name]) as never,
    );
    const log: RawLog = {
      address: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      topics,
      data,
      blockNumber: 7,
      blockHash: `0x${"ab".repeat(32)}`,
      transactionHash: `0x${"cd".repeat(32)}`,
      logIndex: 3,
    };
    return log;
  });
});

describe("decodeBridgeLog", () => {
  it("default: equals viem's strict decoder on random logs of every event", () => {
    fc.assert(
      fc.property(eventLog, (log) => {
        const fast = decodeBridgeLog(log, context);
        assert.notEqual(fast, undefined);
        assert.deepEqual(fast, decodeBridgeLogGeneric(log, context));
        // Stored as JSON: the argument order must match too.
        assert.equal(JSON.stringify(fast), JSON.stringify(decodeBridgeLogGeneric(log, context)));
      }),
      { numRuns: 300 },
    );
  });
  it("behavior: uppercase hex, short or long data, extra or missing topics decode as viem does", () => {
    fc.assert(
      fc.property(eventLog, fc.integer({ min: 0, max: 4 }), (log, change) => {
        const variant: RawLog = { ...log, topics: [...log.topics] };
        if (change === 0) variant.data = `0x${log.data.slice(2).toUpperCase()}` as Hex;
        if (change === 1) variant.data = log.data.slice(0, -64) as Hex;
        if (change === 2) variant.data = `${log.data}${"00".repeat(32)}` as Hex;
        if (change === 3) variant.topics.push(`0x${"11".repeat(32)}`);
        if (change === 4) variant.topics.pop();
        assert.deepEqual(
          decodeBridgeLog(variant, context),
          decodeBridgeLogGeneric(variant, context),
        );
      }),
      { numRuns: 300 },
    );
  });
  it("error: an unknown topic is not ours", () => {
    const log: RawLog = {
      address: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
      topics: [`0x${"00".repeat(32)}`],
      data: "0x",
      blockNumber: 1,
      blockHash: `0x${"ab".repeat(32)}`,
      transactionHash: `0x${"cd".repeat(32)}`,
      logIndex: 0,
    };
    assert.equal(decodeBridgeLog(log, context), undefined);
  });
});
