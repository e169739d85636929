import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import type { BridgeFeeConfig } from "./bridge-fee.js";
import { bridgeFee, totalFee } from "./bridge-fee.js";

const config: BridgeFeeConfig = { feeBps: 5n, flatFee: 500_000n };

describe("bridgeFee", () => {
  it("default: flatFee + x * feeBps / 10000, floor", () => {
    // 1000 USDC at 0.05 % + 0.5 USDC = 1 USDC
    assert.equal(bridgeFee(1_000_000_000n, config), 1_000_000n);
    // 1999 * 5 / 10000 = 0.9995 -> 0
    assert.equal(bridgeFee(1_999n, config), 500_000n);
    assert.equal(bridgeFee(2_000n, config), 500_001n);
  });

  it("default: total fee adds the messaging fee", () => {
    assert.equal(totalFee(1_000_000_000n, config, 250_000n), 1_250_000n);
  });

  it("behavior: never negative, net = bridgeAmount - fee, monotone in the amount", () => {
    const arbitraryConfig = fc.record({
      feeBps: fc.bigInt({ min: 0n, max: 10000n }),
      flatFee: fc.bigInt({ min: 0n, max: 10n ** 24n }),
      minAmount: fc.constant(0n),
      maxAmount: fc.constant(0n),
    });
    fc.assert(
      fc.property(
        arbitraryConfig,
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        (c, x, xproto) => {
          const fee = totalFee(x, c, xproto);
          assert.ok(fee >= 0n, "fee >= 0n");
          assert.equal(x - fee + fee, x);
          assert.ok(totalFee(x + 1n, c, xproto) >= fee, "totalFee(x + 1n, c, xproto) >= fee");
          // The net never shrinks when the amount grows (the limits search relies on it).
          assert.ok(
            x + 1n - totalFee(x + 1n, c, xproto) >= x - fee,
            "x + 1n - totalFee(x + 1n, c, xproto) >= x - fee",
          );
        },
      ),
    );
  });
});
