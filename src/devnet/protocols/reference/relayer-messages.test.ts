import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Address } from "viem";
import type { DevnetManifest, ManifestChain } from "../../manifest.js";
import {
  backoffMs,
  bridgeKindOf,
  buildBridgeMessage,
  chainByBridgeId,
  isAlreadyProcessedRevert,
  nextScanRange,
  type TransferSentArgs,
} from "./relayer-messages.js";

const addr = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`;

function chain(index: number): ManifestChain {
  const base = index * 100;
  return {
    name: ["alpha", "beta", "gamma"][index] ?? "x",
    chainId: 71001 + index,
    rpcUrl: `http://127.0.0.1:${9000 + index}`,
    deployBlock: 1,
    bridgeChainIds: { 0: `${71001 + index}`, 1: `${101 + index}`, 2: `${40101 + index}` },
    bridges: { 0: addr(base + 1), 1: addr(base + 2), 2: addr(base + 3) },
    messagingEndpoint: addr(base + 4),
    dex: { factory: addr(base + 5), router: addr(base + 6), hubToken: addr(base + 7), pairs: [] },
    weth: addr(base + 7),
    tokens: [],
  };
}

const manifest = { chains: [chain(0), chain(1), chain(2)] } as unknown as DevnetManifest;

const sent: TransferSentArgs = {
  messageId: `0x${"ab".repeat(32)}`,
  sender: addr(9001),
  recipient: addr(9002),
  destChainId: 102n,
  sourceToken: addr(9003),
  sendAmount: 1_000_000n,
  sourceBridgeToken: addr(9003),
  bridgeAmount: 1_000_000n,
  destBridgeToken: addr(9004),
  destBridgeAmount: 990_000n,
  destToken: addr(9004),
  minReceiveAmount: 985_000n,
  bridgeFee: 10_000n,
  xprotoFee: 0n,
  subsidy: 0n,
};

describe("chainByBridgeId", () => {
  it("default: finds the chain by its id in each kind's scheme", () => {
    assert.equal(chainByBridgeId(manifest, 0, 71003n)?.name, "gamma");
    assert.equal(chainByBridgeId(manifest, 1, 102n)?.name, "beta");
    assert.equal(chainByBridgeId(manifest, 2, 40101n)?.name, "alpha");
  });
  it("behavior: an id of another kind's scheme does not match", () => {
    assert.equal(chainByBridgeId(manifest, 0, 102n), undefined);
    assert.equal(chainByBridgeId(manifest, 2, 71001n), undefined);
  });
});

describe("bridgeKindOf", () => {
  it("default: maps a bridge address to its kind, case-insensitively", () => {
    const beta = chain(1);
    assert.equal(bridgeKindOf(beta, beta.bridges["2"].toUpperCase() as Address), 2);
    assert.equal(bridgeKindOf(beta, beta.bridges["0"]), 0);
  });
  it("behavior: the endpoint and other chains' bridges are not bridges of this chain", () => {
    assert.equal(bridgeKindOf(chain(1), chain(1).messagingEndpoint), undefined);
    assert.equal(bridgeKindOf(chain(1), chain(0).bridges["1"]), undefined);
  });
});

describe("buildBridgeMessage", () => {
  it("default: carries the net destination amount and the source id in the kind's scheme", () => {
    const message = buildBridgeMessage(sent, chain(0), 1);
    assert.deepEqual(message, {
      messageId: sent.messageId,
      srcChainId: 101n,
      sender: sent.sender,
      recipient: sent.recipient,
      destBridgeToken: sent.destBridgeToken,
      amount: 990_000n,
      destSwap: false,
      destToken: sent.destToken,
      destMinAmount: 985_000n,
    });
  });
  it("behavior: a destination token other than the bridge token means a destination swap", () => {
    const message = buildBridgeMessage({ ...sent, destToken: addr(7777) }, chain(2), 0);
    assert.equal(message.destSwap, true);
    assert.equal(message.srcChainId, 71003n);
  });
});

describe("nextScanRange", () => {
  it("default: scans from after the cursor up to head minus confirmations", () => {
    assert.deepEqual(nextScanRange(10n, 20n, 2), { fromBlock: 11n, toBlock: 18n });
  });
  it("behavior: nothing to scan when the confirmed head is not past the cursor", () => {
    assert.equal(nextScanRange(18n, 20n, 2), null);
    assert.equal(nextScanRange(20n, 20n, 0), null);
  });
  it("behavior: zero confirmations scans up to the head", () => {
    assert.deepEqual(nextScanRange(-1n, 3n, 0), { fromBlock: 0n, toBlock: 3n });
  });
  it("behavior: a long range is split into spans of at most maxSpan blocks", () => {
    assert.deepEqual(nextScanRange(0n, 10_000n, 1, 2000n), { fromBlock: 1n, toBlock: 2000n });
  });
});

describe("backoffMs", () => {
  it("default: doubles per attempt and is capped", () => {
    assert.equal(backoffMs(0), 250);
    assert.equal(backoffMs(1), 500);
    assert.equal(backoffMs(3), 2000);
    assert.equal(backoffMs(30), 10_000);
  });
});

describe("isAlreadyProcessedRevert", () => {
  it("default: recognises duplicate-delivery reverts and nothing else", () => {
    assert.equal(isAlreadyProcessedRevert("reverted: Bridge: already processed"), true);
    assert.equal(isAlreadyProcessedRevert("Endpoint: already delivered"), true);
    assert.equal(isAlreadyProcessedRevert("Bridge: already refunded"), true);
    assert.equal(isAlreadyProcessedRevert("Bridge: unknown transfer"), false);
    assert.equal(isAlreadyProcessedRevert("insufficient liquidity"), false);
  });
});
