import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Hex, PublicClient } from "viem";
import { createTxSender } from "./deploy-tx.js";

const FROM = "0x00000000000000000000000000000000000000f1";
const TO = "0x00000000000000000000000000000000000000a1";
const ABI = [
  { type: "function", name: "ping", inputs: [], outputs: [], stateMutability: "nonpayable" },
] as const;

/** A node that answers sends after `delayFor(nonce)` ms and reverts the nonces in `reverting`. */
function fakeClient(delayFor: (nonce: number) => number, reverting: Set<number>) {
  const arrived: number[] = [];
  const waited: Hex[] = [];
  const client = {
    getTransactionCount: async () => 7,
    async request({ params }: { params: [{ nonce: Hex }] }) {
      const nonce = Number(params[0].nonce);
      await new Promise((resolve) => setTimeout(resolve, delayFor(nonce)));
      arrived.push(nonce);
      return `0x${nonce.toString(16).padStart(64, "0")}` as Hex;
    },
    async waitForTransactionReceipt({ hash }: { hash: Hex }) {
      waited.push(hash);
      const nonce = Number(hash);
      return { status: reverting.has(nonce) ? "reverted" : "success", transactionHash: hash };
    },
  };
  return { client: client as unknown as PublicClient, arrived, waited };
}

describe("createTxSender forks", () => {
  it("behavior: forks share the account's nonces, and sends reach the node in nonce order", async () => {
    // The first send is the slowest to answer: without the queue, 8 and 9 would overtake it.
    const node = fakeClient((nonce) => (nonce === 7 ? 30 : 0), new Set());
    const sender = await createTxSender(node.client, FROM);
    const a = sender.fork();
    const b = sender.fork();
    await Promise.all([
      a.call("a1", TO, ABI, "ping"),
      b.call("b1", TO, ABI, "ping"),
      a.call("a2", TO, ABI, "ping"),
    ]);
    assert.deepEqual(node.arrived, [7, 8, 9]);
  });

  it("error: a fork's flush waits for and reports only its own transactions", async () => {
    const node = fakeClient(() => 0, new Set([8]));
    const sender = await createTxSender(node.client, FROM);
    const a = sender.fork();
    const b = sender.fork();
    await a.call("a ok", TO, ABI, "ping"); // nonce 7
    await b.call("b reverts", TO, ABI, "ping"); // nonce 8
    await a.flush();
    assert.deepEqual(node.waited.map(Number), [7]);
    await assert.rejects(b.flush(), /deploy step "b reverts" reverted/);
  });
});
