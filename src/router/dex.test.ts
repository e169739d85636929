import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  getAmountIn,
  getAmountOut,
  getAmountsIn,
  getAmountsOut,
  getFinalAmountOut,
  type HopReserves,
  swapFee,
} from "./dex.js";

const E18 = 10n ** 18n;
const E6 = 10n ** 6n;

const reserve = fc.bigInt({ min: 1000n, max: 10n ** 30n });
const hop = fc.record({ reserveIn: reserve, reserveOut: reserve });

describe("getAmountOut", () => {
  it("default: Uniswap V2 formula with floor division", () => {
    // 1000*997*10000 / (10000*1000 + 1000*997) = 9_970_000_000 / 10_997_000 = 906.6...
    assert.equal(getAmountOut(1000n, 10000n, 10000n), 906n);
    // 1.5 WETH into 1,000 WETH / 3,000,000 USDC.
    assert.equal(getAmountOut((15n * E18) / 10n, 1000n * E18, 3_000_000n * E6), 4_479_800_458n);
  });

  it("behavior: no input or an empty pool gives 0", () => {
    assert.equal(getAmountOut(0n, 10n, 10n), 0n);
    assert.equal(getAmountOut(5n, 0n, 10n), 0n);
    assert.equal(getAmountOut(5n, 10n, 0n), 0n);
  });

  it("behavior: output is below reserveOut and non-decreasing in the input", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 32n }),
        fc.bigInt({ min: 0n, max: 10n ** 20n }),
        hop,
        (a, d, h) => {
          const out = getAmountOut(a, h.reserveIn, h.reserveOut);
          assert.ok(out < h.reserveOut, "out < h.reserveOut");
          assert.ok(
            getAmountOut(a + d, h.reserveIn, h.reserveOut) >= out,
            "getAmountOut(a + d, h.reserveIn, h.reserveOut) >= out",
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("getAmountIn", () => {
  it("default: floor(reserveIn*amountOut*1000 / ((reserveOut-amountOut)*997)) + 1", () => {
    // 10000*906*1000 / (9094*997) = 9_060_000_000 / 9_066_718 = 999.2 -> 999 + 1
    assert.equal(getAmountIn(906n, 10000n, 10000n), 1000n);
  });

  it("error: no input buys the whole reserve or more", () => {
    assert.equal(getAmountIn(10000n, 10000n, 10000n), undefined);
    assert.equal(getAmountIn(1n, 0n, 10000n), undefined);
  });

  it("behavior: getAmountOut(getAmountIn(x)) >= x", () => {
    fc.assert(
      fc.property(hop, fc.bigInt({ min: 1n, max: 10n ** 30n }), (h, x) => {
        fc.pre(x < h.reserveOut);
        const input = getAmountIn(x, h.reserveIn, h.reserveOut);
        assert.ok(input !== undefined, "input !== undefined");
        assert.ok(
          getAmountOut(input, h.reserveIn, h.reserveOut) >= x,
          "getAmountOut(input, h.reserveIn, h.reserveOut) >= x",
        );
      }),
      { numRuns: 300 },
    );
  });
});

describe("getAmountsOut / getAmountsIn", () => {
  const hops: HopReserves[] = [
    { reserveIn: 200_000n * 10n ** 8n, reserveOut: 1000n * E18 },
    { reserveIn: 1000n * E18, reserveOut: 3_000_000n * E6 },
  ];

  it("default: chains hops like the router", () => {
    const amounts = getAmountsOut(10n * 10n ** 8n, hops);
    assert.equal(amounts.length, 3);
    assert.equal(
      amounts[1],
      getAmountOut(10n * 10n ** 8n, hops[0]!.reserveIn, hops[0]!.reserveOut),
    );
    assert.equal(amounts[2], getAmountOut(amounts[1]!, hops[1]!.reserveIn, hops[1]!.reserveOut));
    assert.equal(getFinalAmountOut(10n * 10n ** 8n, hops), amounts[2]);
    assert.deepEqual(getAmountsOut(7n, []), [7n]);
  });

  it("behavior: getAmountsIn then getAmountsOut delivers at least the target", () => {
    fc.assert(
      fc.property(
        fc.array(hop, { minLength: 1, maxLength: 3 }),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        (hs, x) => {
          const amounts = getAmountsIn(x, hs);
          if (amounts === undefined) return;
          assert.equal(amounts[hs.length], x);
          assert.ok(
            getFinalAmountOut(amounts[0]!, hs) >= x,
            "getFinalAmountOut(amounts[0]!, hs) >= x",
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("swapFee", () => {
  it("default: 0.3 % of the input per hop, compounded, floor", () => {
    assert.equal(swapFee(1_000_000n, 0), 0n);
    assert.equal(swapFee(1_000_000n, 1), 3_000n);
    // 1 - 0.997^2 = 0.005991
    assert.equal(swapFee(1_000_000n, 2), 5_991n);
    // 1 - 0.997^3 = 0.008973027
    assert.equal(swapFee(1_000_000_000n, 3), 8_973_027n);
    assert.equal(
      swapFee(1_000_000_000_000n, 4),
      1_000_000_000_000n - (997n ** 4n * 1_000_000_000_000n) / 1000n ** 4n,
    );
  });

  it("behavior: one hop equals what the pair keeps: input minus input*997/1000", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), (x) => {
        assert.equal(swapFee(x, 1), (x * 3n) / 1000n);
        assert.ok(swapFee(x, 2) >= swapFee(x, 1), "swapFee(x, 2) >= swapFee(x, 1)");
      }),
    );
  });
});
