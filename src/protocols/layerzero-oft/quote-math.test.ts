import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { maxUint64 } from "viem";
import {
  debitView,
  decimalConversionRate,
  maxSendableLD,
  type OftQuoteState,
  quoteOftSend,
  removeDust,
  toLocalDecimals,
  toSharedDecimals,
} from "./quote-math.js";

const state = (rate: bigint): OftQuoteState => ({
  decimalConversionRate: rate,
  minAmountLD: 0n,
  maxAmountLD: 10n ** 40n,
  feeByDstEid: new Map([[40102, { nativeFee: 123n, lzTokenFee: 0n }]]),
});

describe("OFT quote math", () => {
  it("default: 18 local and 6 shared decimals drop everything below 10^12", () => {
    assert.equal(decimalConversionRate(18, 6), 10n ** 12n);
    assert.equal(decimalConversionRate(6, 6), 1n);
    assert.equal(removeDust(12_345_678_901_234_567_891n, 10n ** 12n), 12_345_678_000_000_000_000n);
    assert.deepEqual(
      quoteOftSend(state(10n ** 12n), {
        dstEid: 40102,
        amountLD: 1_000_000_000_001n,
        minAmountLD: 0n,
      }),
      {
        ok: true,
        amountSentLD: 1_000_000_000_000n,
        amountReceivedLD: 1_000_000_000_000n,
        dustLD: 1n,
        nativeFee: 123n,
      },
    );
  });

  it("behavior: dust removal keeps a multiple of the rate, loses less than the rate, and is idempotent", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 40n }),
        fc.integer({ min: 0, max: 18 }),
        (amount, exponent) => {
          const rate = 10n ** BigInt(exponent);
          const kept = removeDust(amount, rate);
          assert.equal(kept % rate, 0n);
          assert.ok(
            kept <= amount && amount - kept < rate,
            "kept <= amount && amount - kept < rate",
          );
          assert.equal(removeDust(kept, rate), kept);
          const sd = toSharedDecimals(kept, rate);
          if (sd !== null) assert.equal(toLocalDecimals(sd, rate), kept);
        },
      ),
    );
  });

  it("behavior: a minimum above what arrives is slippage, with the amount that would arrive", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        (amount, min) => {
          const rate = 10n ** 12n;
          const result = debitView(amount, min, rate);
          if (removeDust(amount, rate) < min)
            assert.deepEqual(result, { slippage: removeDust(amount, rate) });
          else
            assert.deepEqual(result, {
              amountSentLD: removeDust(amount, rate),
              amountReceivedLD: removeDust(amount, rate),
            });
        },
      ),
    );
  });

  it("behavior: amounts whose shared-decimals value passes uint64 cannot be sent", () => {
    const rate = 10n ** 12n;
    assert.equal(toSharedDecimals(maxSendableLD(rate), rate), maxUint64);
    assert.equal(toSharedDecimals(maxSendableLD(rate) + 1n, rate), null);
    const result = quoteOftSend(state(rate), {
      dstEid: 40102,
      amountLD: maxSendableLD(rate) + 1n,
      minAmountLD: 0n,
    });
    assert.equal(result.ok === false && result.reason, "amount-too-large");
  });

  it("error: unknown destinations are a result, bad decimals and negative amounts throw", () => {
    const result = quoteOftSend(state(1n), { dstEid: 1, amountLD: 5n, minAmountLD: 0n });
    assert.equal(result.ok === false && result.reason, "unknown-destination");
    assert.throws(() => decimalConversionRate(4, 6), /below shared decimals/);
    assert.throws(
      () => quoteOftSend(state(1n), { dstEid: 40102, amountLD: -1n, minAmountLD: 0n }),
      RangeError,
    );
  });
});
