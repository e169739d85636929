import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Address, Hex } from "viem";
import type { BridgeEvent, BridgeEventRole } from "../../src/domain/bridge-event.js";
import { createBridgeRegistry } from "../../src/domain/bridge-registry.js";
import { formatUtc } from "../../src/domain/utc-time.js";
import { type DeriveContext, deriveTransfer } from "./derive-transfer-model.js";

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
/** Tokens of distinct decimals, so a field formatted in the wrong token's decimals shows. */
const WBTC_A = "0x4444444444444444444444444444444444444444" as Address;
const DAI_B = "0x5555555555555555555555555555555555555555" as Address;
const DAI_A = "0x6666666666666666666666666666666666666666" as Address;
const TOKENS: Record<string, { symbol: string; decimals: number }> = {
  [`71001:${USDC_A.toLowerCase()}`]: { symbol: "USDC", decimals: 6 },
  [`71002:${USDC_B.toLowerCase()}`]: { symbol: "USDC", decimals: 6 },
  [`71001:${WBTC_A.toLowerCase()}`]: { symbol: "WBTC", decimals: 8 },
  [`71002:${DAI_B.toLowerCase()}`]: { symbol: "DAI", decimals: 18 },
  [`71001:${DAI_A.toLowerCase()}`]: { symbol: "DAI", decimals: 18 },
};
const context: DeriveContext = {
  registry,
  token: (chainId, address) => TOKENS[`${chainId}:${address.toLowerCase()}`],
};

const ROLES: Record<string, BridgeEventRole> = {
  TransferSent: "sent",
  TransferDelivered: "delivered",
  TransferFailed: "failed",
  TransferRefunded: "refunded",
  LzReceiveAlert: "retrying",
};

function event(partial: Partial<BridgeEvent> & Pick<BridgeEvent, "name" | "args">): BridgeEvent {
  return {
    protocol: "reference",
    role: ROLES[partial.name]!,
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
  it("behavior: a retryable delivery failure leaves it Processing; the delivery after it counts", () => {
    const alert = { ...failure, name: "LzReceiveAlert", role: "retrying" as const };
    const retrying = deriveTransfer([send, alert], context, undefined, NOW)!;
    assert.equal(retrying.status, "Processing");
    assert.equal(retrying.dest_tx_hash, "");
    assert.equal(retrying.end_time, "");
    assert.equal(
      deriveTransfer([send, alert, delivery], context, undefined, NOW)!.status,
      "Success",
    );
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
  it("behavior: each amount is in its own token's decimals", () => {
    // Swaps on both sides: source DAI (18) -> WBTC (8) bridged as DAI (18) -> USDC (6).
    const mixed = {
      ...send,
      args: {
        ...send.args,
        sourceToken: DAI_A,
        sendAmount: "1500000000000000000",
        sourceBridgeToken: WBTC_A,
        bridgeAmount: "150000000",
        destBridgeToken: DAI_B,
        destBridgeAmount: "1490000000000000000",
        minReceiveAmount: "1480000",
        bridgeFee: "1000000",
        xprotoFee: "250000",
        subsidy: "20000000000000000",
      },
    };
    const delivered = {
      ...delivery,
      args: {
        ...delivery.args,
        destBridgeToken: DAI_B,
        destBridgeAmount: "1490000000000000000",
        receiveAmount: "1495000",
      },
    };
    const r = deriveTransfer([mixed, delivered], context, undefined, NOW)!;
    assert.deepEqual(
      {
        send_amount: r.send_amount,
        source_token_decimals: r.source_token_decimals,
        min_receive_amount: r.min_receive_amount,
        receive_amount: r.receive_amount,
        dest_token_decimals: r.dest_token_decimals,
        dest_bridge_token_amount: r.dest_bridge_token_amount,
        dest_bridge_token_decimals: r.dest_bridge_token_decimals,
        fee_decimals: r.fee_decimals,
        fee_symbol: r.fee_symbol,
        bridge_fee: r.bridge_fee,
        xproto_fee: r.xproto_fee,
        subsidy_amount: r.subsidy_amount,
      },
      {
        send_amount: "1.5",
        source_token_decimals: 18,
        min_receive_amount: "1.48",
        receive_amount: "1.495",
        dest_token_decimals: 6,
        dest_bridge_token_amount: "1.49",
        dest_bridge_token_decimals: 18,
        fee_decimals: 8,
        fee_symbol: "WBTC",
        bridge_fee: "0.01",
        xproto_fee: "0.0025",
        subsidy_amount: "0.02",
      },
    );
  });
  it("behavior: the native coin has 18 decimals and the chain's symbol", () => {
    const native = "0x0000000000000000000000000000000000000000";
    const eth = {
      ...send,
      args: { ...send.args, sourceToken: native, sendAmount: "1500000000000000000" },
    };
    const r = deriveTransfer([eth], context, undefined, NOW)!;
    assert.equal(r.send_amount, "1.5");
    assert.equal(r.source_token_decimals, 18);
    assert.equal(r.source_token_symbol, "ETH");
  });
  it("behavior: an outcome on another chain at the destination bridge's address is ignored", () => {
    // Bridges deployed with CREATE from one deployer share an address on every chain.
    const wrongChain = { ...delivery, chainId: 71001 };
    assert.equal(deriveTransfer([send, wrongChain], context, undefined, NOW)!.status, "Processing");
    const failedElsewhere = { ...failure, chainId: 71001 };
    assert.equal(
      deriveTransfer([send, failedElsewhere], context, undefined, NOW)!.status,
      "Processing",
    );
  });
  it("behavior: a refund counts only from the send's own bridge on the send's chain", () => {
    const args = { messageId: ID, sender: SENDER, token: USDC_A, amount: "1490000" };
    const onDestChain = event({ name: "TransferRefunded", chainId: 71002, args });
    const otherContract = event({ name: "TransferRefunded", address: DST_BRIDGE, args });
    for (const refund of [onDestChain, otherContract]) {
      assert.equal(deriveTransfer([send, refund], context, undefined, NOW)!.status, "Processing");
    }
  });
  it("behavior: the earliest of repeated outcome events counts, whatever the arrival order", () => {
    const later = {
      ...delivery,
      blockNumber: 9,
      blockTime: 1_700_000_300,
      txHash: `0x${"dd".repeat(32)}` as Hex,
      args: { ...delivery.args, receiveAmount: "1" },
    };
    for (const events of [
      [send, delivery, later],
      [later, delivery, send],
      [send, later, delivery],
    ]) {
      const r = deriveTransfer(events, context, undefined, NOW)!;
      assert.equal(r.dest_tx_hash, `0x${"bb".repeat(32)}`);
      assert.equal(r.receive_amount, "1.49");
      assert.equal(r.end_time, formatUtc(1_700_000_060));
    }
  });
  it("behavior: a failure and a refund: the failure gives dest_tx_hash and end_time", () => {
    const refund = event({
      name: "TransferRefunded",
      blockNumber: 20,
      blockTime: 1_700_000_500,
      txHash: `0x${"ee".repeat(32)}` as Hex,
      args: { messageId: ID, sender: SENDER, token: USDC_A, amount: "1490000" },
    });
    const r = deriveTransfer([send, refund, failure], context, undefined, NOW)!;
    assert.equal(r.status, "Failed");
    assert.equal(r.dest_tx_hash, `0x${"cc".repeat(32)}`);
    assert.equal(r.end_time, formatUtc(1_700_000_070), "the destination chain's failure time");
  });
  it("behavior: a delivery re-included in a later block after a reorg moves end_time", () => {
    const first = deriveTransfer([send, delivery], context, undefined, "2026-01-01 00:00:00")!;
    const moved = { ...delivery, blockNumber: 5, blockTime: 1_700_000_072 };
    const again = deriveTransfer([send, moved], context, first, NOW)!;
    assert.equal(again.end_time, formatUtc(1_700_000_072));
    assert.equal(again.updated_at, NOW);
    assert.equal(again.created_at, "2026-01-01 00:00:00");
  });
  it("error: missing token metadata is reported, not guessed", () => {
    const other = { ...send, args: { ...send.args, sourceToken: USDC_B } };
    assert.throws(() => deriveTransfer([other], context, undefined, NOW), /metadata missing/);
  });
});
