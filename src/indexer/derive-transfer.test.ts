import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Address, Hex } from "viem";
import type { BridgeEvent } from "./bridge-event.js";
import { createBridgeRegistry } from "./bridge-registry.js";
import { type DeriveContext, deriveTransfer, formatUtc } from "./derive-transfer.js";

const SRC_BRIDGE = "0x1111111111111111111111111111111111111111" as Address;
const DST_BRIDGE = "0x2222222222222222222222222222222222222222" as Address;
const USDC_A = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48" as Address;
const USDC_B = "0x3333333333333333333333333333333333333333" as Address;
const SENDER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const RECIPIENT = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const ID = `0x${"ab".repeat(32)}` as Hex;

const registry = createBridgeRegistry(
  [
    { name: "alpha", chainId: 71001, nativeSymbol: "ETH" },
    { name: "beta", chainId: 71002, nativeSymbol: "ETH" },
  ],
  [
    { kind: 1, chainId: 71001, address: SRC_BRIDGE, bridgeChainId: "101" },
    { kind: 1, chainId: 71002, address: DST_BRIDGE, bridgeChainId: "102" },
  ],
);
const context: DeriveContext = {
  registry,
  token: (chainId, address) =>
    address.toLowerCase() === (chainId === 71001 ? USDC_A : USDC_B).toLowerCase()
      ? { symbol: "USDC", decimals: 6 }
      : undefined,
};

function event(partial: Partial<BridgeEvent> & Pick<BridgeEvent, "name" | "args">): BridgeEvent {
  return {
    chainId: 71001,
    blockNumber: 10,
    blockHash: `0x${"01".repeat(32)}`,
    blockTime: 1_700_000_000,
    txHash: `0x${"AA".repeat(32)}` as Hex,
    logIndex: 0,
    address: SRC_BRIDGE,
    kind: 1,
    messageId: ID,
    ...partial,
  };
}

const send = event({
  name: "TransferSent",
  args: {
    messageId: ID,
    sender: SENDER,
    recipient: RECIPIENT,
    destChainId: "102",
    sourceToken: USDC_A,
    sendAmount: "1500000",
    sourceBridgeToken: USDC_A,
    bridgeAmount: "1500000",
    destBridgeToken: USDC_B,
    destBridgeAmount: "1490000",
    destToken: USDC_B,
    minReceiveAmount: "1480000",
    bridgeFee: "10000",
    xprotoFee: "0",
    subsidy: "0",
  },
});
const delivery = event({
  name: "TransferDelivered",
  chainId: 71002,
  address: DST_BRIDGE,
  blockNumber: 4,
  blockTime: 1_700_000_060,
  txHash: `0x${"bb".repeat(32)}` as Hex,
  args: {
    messageId: ID,
    recipient: RECIPIENT,
    destBridgeToken: USDC_B,
    destBridgeAmount: "1490000",
    destToken: USDC_B,
    receiveAmount: "1490000",
  },
});
const failure = event({
  name: "TransferFailed",
  chainId: 71002,
  address: DST_BRIDGE,
  blockTime: 1_700_000_070,
  txHash: `0x${"cc".repeat(32)}` as Hex,
  args: { messageId: ID, recipient: RECIPIENT, reason: "no liquidity" },
});
const NOW = "2026-11-21 12:00:00";

describe("deriveTransfer", () => {
  it("default: a send alone is Processing with every unknown field empty", () => {
    const r = deriveTransfer([send], context, undefined, NOW)!;
    assert.equal(r.status, "Processing");
    assert.equal(r.message_id, ID);
    assert.equal(r.source_tx_hash, `0x${"aa".repeat(32)}`);
    assert.equal(r.dest_tx_hash, "");
    assert.equal(r.receive_amount, "");
    assert.equal(r.end_time, "");
    assert.equal(r.send_amount, "1.5");
    assert.equal(r.min_receive_amount, "1.48");
    assert.equal(r.dest_bridge_token_amount, "1.49");
    assert.equal(r.bridge_fee, "0.01");
    assert.equal(r.xproto_fee, "0");
    assert.equal(r.subsidy_amount, "0");
    assert.equal(r.fee_address, USDC_A);
    assert.equal(r.fee_symbol, "USDC");
    assert.equal(r.source_chain_name, "alpha");
    assert.equal(r.dest_chain_name, "beta");
    assert.equal(r.source_contract, SRC_BRIDGE);
    assert.equal(r.dest_contract, DST_BRIDGE);
    assert.equal(r.start_time, "2023-11-14 22:13:20");
    assert.equal(r.created_at, NOW);
    assert.equal(r.updated_at, NOW);
  });
  it("behavior: a delivery makes it Success whatever the arrival order", () => {
    const a = deriveTransfer([send, delivery], context, undefined, NOW)!;
    const b = deriveTransfer([delivery, send], context, undefined, NOW)!;
    assert.deepEqual(a, b);
    assert.equal(a.status, "Success");
    assert.equal(a.dest_tx_hash, `0x${"bb".repeat(32)}`);
    assert.equal(a.receive_amount, "1.49");
    assert.equal(a.end_time, formatUtc(1_700_000_060));
  });
  it("behavior: a destination event without its send makes no record", () => {
    assert.equal(deriveTransfer([delivery], context, undefined, NOW), undefined);
  });
  it("behavior: a failure or a refund makes it Failed", () => {
    const f = deriveTransfer([send, failure], context, undefined, NOW)!;
    assert.equal(f.status, "Failed");
    assert.equal(f.dest_tx_hash, `0x${"cc".repeat(32)}`);
    assert.equal(f.receive_amount, "0", "a failure delivered nothing: known, zero");
    const refund = event({
      name: "TransferRefunded",
      blockNumber: 20,
      args: { messageId: ID, sender: SENDER, token: USDC_A, amount: "1490000" },
    });
    const refunded = deriveTransfer([send, refund], context, undefined, NOW)!;
    assert.equal(refunded.status, "Failed");
    assert.equal(refunded.receive_amount, "0");
    assert.equal(refunded.dest_tx_hash, "", "a refund happens on the source chain");
  });
  it("behavior: an outcome from another contract is ignored", () => {
    const spoof = { ...delivery, address: SRC_BRIDGE };
    assert.equal(deriveTransfer([send, spoof], context, undefined, NOW)!.status, "Processing");
  });
  it("behavior: created_at is kept, updated_at moves only on a change", () => {
    const first = deriveTransfer([send], context, undefined, "2026-01-01 00:00:00")!;
    const same = deriveTransfer([send], context, first, NOW)!;
    assert.equal(same, first);
    const done = deriveTransfer([send, delivery], context, first, NOW)!;
    assert.equal(done.created_at, "2026-01-01 00:00:00");
    assert.equal(done.updated_at, NOW);
    // A reorg that removes the delivery brings it back to Processing.
    const back = deriveTransfer([send], context, done, "2026-12-01 00:00:00")!;
    assert.equal(back.status, "Processing");
    assert.equal(back.created_at, "2026-01-01 00:00:00");
  });
  it("error: missing token metadata is reported, not guessed", () => {
    const other = { ...send, args: { ...send.args, sourceToken: USDC_B } };
    assert.throws(() => deriveTransfer([other], context, undefined, NOW), /metadata missing/);
  });
});
