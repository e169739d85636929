import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type Address, encodeFunctionData, getAddress, parseAbi } from "viem";
import type { BridgeParams } from "../protocols/reference/bridge-params.js";
import { encodeApproveCall, encodeBridgeCall } from "../protocols/reference/transaction-request.js";
import { createRouter } from "./create-router.js";
import { createRouterFixture, fixtureQuoteRequest } from "./fixtures.js";
import { toBridgeParams } from "./quote-response.js";
import type { StateSnapshot } from "./state.js";

const ABI = parseAbi([
  "function bridge((uint256 destChainId, address sourceToken, address destToken, uint256 amount, uint256 fee, address to, bool sourceSwap, uint256 sourceSwapFee, address sourceBridgeToken, uint256 sourceMinAmount, bool destSwap, uint256 destSwapFee, address destBridgeToken, uint256 destMinAmount) p) payable returns (bytes32)",
  "function approve(address spender, uint256 amount) returns (bool)",
]);
const TO = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const uint256 = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n });
const address = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => getAddress(`0x${Buffer.from(bytes).toString("hex")}`) as Address);

describe("transaction call data", () => {
  it("behavior: bridge(p) and approve are encoded exactly as viem encodes them", () => {
    fc.assert(
      fc.property(
        fc.record({
          destChainId: uint256,
          sourceToken: address,
          destToken: address,
          amount: uint256,
          fee: uint256,
          to: address,
          sourceSwap: fc.boolean(),
          sourceSwapFee: uint256,
          sourceBridgeToken: address,
          sourceMinAmount: uint256,
          destSwap: fc.boolean(),
          destSwapFee: uint256,
          destBridgeToken: address,
          destMinAmount: uint256,
        }),
        (p: BridgeParams) => {
          assert.equal(
            encodeBridgeCall(p),
            encodeFunctionData({ abi: ABI, functionName: "bridge", args: [p] }),
          );
          assert.equal(
            encodeApproveCall(p.to, p.amount),
            encodeFunctionData({ abi: ABI, functionName: "approve", args: [p.to, p.amount] }),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it("error: a value outside uint256 is refused", () => {
    assert.throws(() => encodeApproveCall(TO, 1n << 256n), RangeError);
    assert.throws(() => encodeApproveCall(TO, -1n), RangeError);
  });
});

const f = createRouterFixture({ readAtMs: 1_700_000_000_900 });

function withChain(
  snapshot: StateSnapshot,
  chainId: number,
  change: { readAtMs?: number; blockNumber?: bigint },
): StateSnapshot {
  const chains = new Map(snapshot.chains);
  chains.set(chainId, { ...snapshot.chains.get(chainId)!, ...change });
  return { chains };
}

describe("quote extensions", () => {
  const usdc = (amount: string) =>
    fixtureQuoteRequest(f, ["alpha", "USDC"], ["beta", "USDC"], amount, TO);

  it("default: transactions, state blocks, expiry from the older state, no estimate", () => {
    const router = createRouter({ registry: f.registry, memoizeQuotes: false });
    const snapshot = withChain(withChain(f.snapshot, 71001, { blockNumber: 1234n }), 71002, {
      readAtMs: 1_700_000_000_100 - 5_000,
      blockNumber: 77n,
    });
    const result = router.quote(usdc("1000"), snapshot);
    assert.ok(result.ok, "result.ok");
    const { data } = result;
    assert.deepEqual(data.stateBlocks, { "71001": 1234, "71002": 77 });
    // beta was read at 1_699_999_995.1 s: rounded down, plus the default 30 s.
    assert.equal(data.expiresAt, "2023-11-14 22:13:45");
    assert.equal(data.estimatedDuration, null);
    assert.deepEqual(data.transactionRequest, {
      chainId: 71001,
      to: data.signData.bridge,
      data: encodeFunctionData({
        abi: ABI,
        functionName: "bridge",
        args: [toBridgeParams(data.signData, f.registry)],
      }),
      value: "0x0",
    });
    assert.deepEqual(data.approval, {
      token: f.token("alpha", "USDC").address,
      spender: data.signData.bridge,
      amount: "1000",
      transactionRequest: {
        chainId: 71001,
        to: f.token("alpha", "USDC").address,
        data: encodeApproveCall(data.signData.bridge, 1_000_000_000n),
        value: "0x0",
      },
    });
  });

  it("behavior: a route's fixed parts follow the snapshot, the recipient follows the request", () => {
    // Memo off: the second quote of the route is built from the parts the first one worked out.
    const router = createRouter({ registry: f.registry, memoizeQuotes: false });
    const other = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
    const first = router.quote(usdc("1000"), f.snapshot);
    const second = router.quote({ ...usdc("250"), to: other }, f.snapshot);
    const later = withChain(
      withChain(f.snapshot, 71001, { readAtMs: 1_700_000_100_000, blockNumber: 900n }),
      71002,
      { readAtMs: 1_700_000_100_000, blockNumber: 901n },
    );
    const third = router.quote(usdc("1000"), later);
    assert.ok(first.ok && second.ok && third.ok, "first.ok && second.ok && third.ok");
    for (const { data } of [first, second, third]) {
      assert.equal(
        data.transactionRequest?.data,
        encodeFunctionData({
          abi: ABI,
          functionName: "bridge",
          args: [toBridgeParams(data.signData, f.registry)],
        }),
      );
      assert.equal(
        data.approval?.transactionRequest.data,
        encodeApproveCall(data.signData.bridge, toBridgeParams(data.signData, f.registry).amount),
      );
    }
    assert.equal(toBridgeParams(second.data.signData, f.registry).to, other);
    assert.equal(
      second.data.stateBlocks,
      first.data.stateBlocks,
      "one object per route and snapshot",
    );
    assert.deepEqual(third.data.stateBlocks, { "71001": 900, "71002": 901 });
    assert.equal(third.data.expiresAt, "2023-11-14 22:15:30");
    assert.equal(first.data.expiresAt, "2023-11-14 22:13:50");
  });

  it("behavior: the native coin needs no approval and is sent as value", () => {
    const router = createRouter({ registry: f.registry });
    const result = router.quote(
      { ...usdc("1.5"), sourceToken: "0x0000000000000000000000000000000000000000" },
      f.snapshot,
    );
    assert.ok(result.ok, "result.ok");
    assert.equal(result.data.approval, null);
    assert.equal(result.data.transactionRequest?.value, `0x${(15n * 10n ** 17n).toString(16)}`);
  });

  it("behavior: QUOTE_TTL_SECONDS and the duration lookup are the router's settings", () => {
    const seen: string[] = [];
    const router = createRouter({
      registry: f.registry,
      extensions: {
        ttlSeconds: 120,
        estimatedDuration: (route) => {
          seen.push(`${route.kind}:${route.bridge}`);
          return { p50Seconds: 12, p90Seconds: 40, samples: 9 };
        },
      },
    });
    const result = router.quote(usdc("1000"), f.snapshot);
    assert.ok(result.ok, "result.ok");
    assert.equal(result.data.expiresAt, "2023-11-14 22:15:20");
    assert.deepEqual(result.data.estimatedDuration, { p50Seconds: 12, p90Seconds: 40, samples: 9 });
    assert.deepEqual(seen, [`2:${result.data.signData.bridge}`]);
  });

  it("behavior: the memo answers again only while expiry and state blocks are the same", () => {
    const router = createRouter({ registry: f.registry });
    const first = router.quote(usdc("1000"), f.snapshot);
    // Republished within the same second: the same answer object.
    const same = router.quote(
      usdc("1000"),
      withChain(f.snapshot, 71001, { readAtMs: 1_700_000_000_950 }),
    );
    // A second later: a new expiry, a new answer.
    const later = withChain(withChain(f.snapshot, 71001, { readAtMs: 1_700_000_001_000 }), 71002, {
      readAtMs: 1_700_000_001_000,
    });
    const next = router.quote(usdc("1000"), later);
    assert.ok(first.ok && same.ok && next.ok, "first.ok && same.ok && next.ok");
    assert.equal(same.data, first.data);
    assert.notEqual(next.data, first.data);
    assert.equal(next.data.expiresAt, "2023-11-14 22:13:51");
    assert.ok(
      Object.isFrozen(next.data.transactionRequest) && Object.isFrozen(next.data.approval),
      "Object.isFrozen(next.data.transactionRequest) && Object.isFrozen(next.data.approval)",
    );
  });

  it("behavior: extensions off answers the spec's four fields", () => {
    const router = createRouter({ registry: f.registry, extensions: false });
    const result = router.quote(usdc("1000"), f.snapshot);
    assert.ok(result.ok, "result.ok");
    assert.deepEqual(Object.keys(result.data), [
      "destMaxAmount",
      "destMinAmount",
      "fee",
      "signData",
    ]);
    assert.equal(router.extensions, false);
  });
});
