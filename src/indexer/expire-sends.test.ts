import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { getAddress, type Hex, keccak256, toHex } from "viem";
import type { BridgeEvent } from "../domain/bridge-event.js";
import type { RegistrySource } from "../domain/bridge-registry.js";
import { EXPIRED_EVENT_NAME, expiredEvents } from "./expire-sends.js";

const SPOKE_B = getAddress("0xacc0000000000000000000000000000000000b02");
const REGISTRY: RegistrySource = {
  chains: [],
  bridges: [
    { protocol: "across", kind: 1, chainId: 2, address: SPOKE_B, bridgeChainId: "2" },
    {
      protocol: "reference",
      kind: 1,
      chainId: 2,
      address: getAddress("0x000000000000000000000000000000000000beef"),
      bridgeChainId: "102",
    },
  ],
};
const HEAD = {
  chainId: 2,
  blockNumber: 40,
  blockHash: `0x${"ab".repeat(32)}` as Hex,
  blockTime: 1000,
};

function send(messageId: string, deadline: string | undefined, protocol = "across"): BridgeEvent {
  return {
    chainId: 1,
    blockNumber: 5,
    blockHash: `0x${"01".repeat(32)}`,
    blockTime: 900,
    txHash: `0x${"02".repeat(32)}`,
    logIndex: 0,
    address: getAddress("0xacc0000000000000000000000000000000000a01"),
    protocol,
    kind: 1,
    name: "FundsDeposited",
    role: "sent",
    messageId: messageId as Hex,
    args: deadline === undefined ? { destChainId: "2" } : { destChainId: "2", deadline },
  };
}

describe("expiredEvents", () => {
  it("default: a deadline before the head's time gives an expired event at the head, on the destination contract", () => {
    const id = `0x${"aa".repeat(32)}`;
    assert.deepEqual(expiredEvents([send(id, "999")], HEAD, REGISTRY), [
      {
        chainId: 2,
        blockNumber: 40,
        blockHash: HEAD.blockHash,
        blockTime: 1000,
        txHash: keccak256(toHex(`expired:${id}`)),
        logIndex: 0,
        address: SPOKE_B,
        protocol: "across",
        kind: 1,
        name: EXPIRED_EVENT_NAME,
        role: "expired",
        messageId: id,
        args: { deadline: "999" },
      },
    ]);
  });

  it("edge: a head exactly at the deadline has not passed it (a fill then still succeeds)", () => {
    assert.deepEqual(expiredEvents([send(`0x${"aa".repeat(32)}`, "1000")], HEAD, REGISTRY), []);
  });

  it("edge: no deadline, a malformed one, or no destination contract of the protocol: nothing", () => {
    const events = expiredEvents(
      [
        send(`0x${"01".repeat(32)}`, undefined),
        send(`0x${"02".repeat(32)}`, "12x"),
        send(`0x${"03".repeat(32)}`, "5", "toy"),
      ],
      HEAD,
      REGISTRY,
    );
    assert.deepEqual(events, []);
  });
});
