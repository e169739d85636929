import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeAbiParameters, keccak256 } from "viem";
import { acrossFee, acrossMessageId, bytes32ToAddress } from "./pairing.js";

describe("acrossMessageId", () => {
  it("default: keccak256(abi.encode(uint256 origin chain id, uint256 deposit id)), lowercase", () => {
    const expected = keccak256(
      encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [10n, 1234n]),
    );
    assert.equal(acrossMessageId(10n, 1234n), expected.toLowerCase());
    assert.equal(acrossMessageId("10", "1234"), expected.toLowerCase());
  });

  it("behavior: differs by origin chain and by deposit id (a deposit id repeats across chains)", () => {
    assert.notEqual(acrossMessageId(1n, 5n), acrossMessageId(10n, 5n));
    assert.notEqual(acrossMessageId(1n, 5n), acrossMessageId(1n, 6n));
  });

  it("edge: a uint256 deposit id beyond uint32 (current SpokePools) keys as itself", () => {
    const big = 2n ** 200n + 7n;
    assert.notEqual(acrossMessageId(1n, big), acrossMessageId(1n, 7n));
  });
});

describe("acrossFee", () => {
  it("default: same decimals: input minus output", () => {
    assert.deepEqual(acrossFee(1_000_000n, 998_500n, 6, 6), { bridgeFee: 1_500n, subsidy: 0n });
  });

  it("behavior: an 18-decimal output is brought to the 6-decimal input (rounded down)", () => {
    // 1 USDC in, 0.9985 USDC (18 decimals) plus dust out
    assert.deepEqual(acrossFee(1_000_000n, 998_500_000_000_000_001n, 6, 18), {
      bridgeFee: 1_500n,
      subsidy: 0n,
    });
    assert.deepEqual(acrossFee(10n ** 18n, 999_000n, 18, 6), {
      bridgeFee: 10n ** 15n,
      subsidy: 0n,
    });
  });

  it("edge: an output worth more than the input is no fee but a subsidy in output units", () => {
    assert.deepEqual(acrossFee(1_000_000n, 1_000_100n, 6, 6), { bridgeFee: 0n, subsidy: 100n });
    assert.deepEqual(acrossFee(1_000_000n, 10n ** 18n + 10n ** 12n, 6, 18), {
      bridgeFee: 0n,
      subsidy: 10n ** 12n,
    });
  });

  it("error: decimals that are not non-negative integers are refused", () => {
    assert.throws(() => acrossFee(1n, 1n, -1, 6), /non-negative integers/);
  });
});

describe("bytes32ToAddress", () => {
  it("default: a left-padded EVM address", () => {
    assert.equal(
      bytes32ToAddress(`0x000000000000000000000000${"ab".repeat(20)}`),
      `0x${"ab".repeat(20)}`,
    );
  });
  it("edge: a non-EVM (e.g. Solana) address is undefined", () => {
    assert.equal(bytes32ToAddress(`0x${"11".repeat(32)}`), undefined);
  });
});
