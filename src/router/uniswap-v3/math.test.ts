import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { MAX_UINT256, mulDiv, mulDivRoundingUp, V3MathError } from "./full-math.js";
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from "./sqrt-price-math.js";
import { addDelta, computeSwapStep } from "./swap-math.js";
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  leastSignificantBit,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  mostSignificantBit,
} from "./tick-math.js";

const Q96 = 1n << 96n;
const E18 = 10n ** 18n;
/** encodePriceSqrt(1, 1) and (121, 100) of the v3-core tests: sqrt(price) * 2^96, floor. */
const PRICE_1_1 = Q96;
const PRICE_121_100 = 87150978765690771352898345369n;

// Vectors from Uniswap's v3-core test suites (TickMath.spec.ts, SqrtPriceMath.spec.ts,
// SwapMath.spec.ts, FullMath.spec.ts).
describe("TickMath", () => {
  it("default: the ends and the middle of the tick range", () => {
    assert.equal(getSqrtRatioAtTick(MIN_TICK), MIN_SQRT_RATIO);
    assert.equal(getSqrtRatioAtTick(MIN_TICK + 1), 4295343490n);
    assert.equal(getSqrtRatioAtTick(0), Q96);
    assert.equal(
      getSqrtRatioAtTick(MAX_TICK - 1),
      1461373636630004318706518188784493106690254656249n,
    );
    assert.equal(getSqrtRatioAtTick(MAX_TICK), MAX_SQRT_RATIO);
    assert.equal(getTickAtSqrtRatio(MIN_SQRT_RATIO), MIN_TICK);
    assert.equal(getTickAtSqrtRatio(4295343490n), MIN_TICK + 1);
    assert.equal(
      getTickAtSqrtRatio(1461373636630004318706518188784493106690254656249n),
      MAX_TICK - 1,
    );
    assert.equal(getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n), MAX_TICK - 1);
  });

  it("error: outside the range reverts like the contract ('T', 'R')", () => {
    assert.throws(() => getSqrtRatioAtTick(MIN_TICK - 1), V3MathError);
    assert.throws(() => getSqrtRatioAtTick(MAX_TICK + 1), V3MathError);
    assert.throws(() => getTickAtSqrtRatio(MIN_SQRT_RATIO - 1n), V3MathError);
    assert.throws(() => getTickAtSqrtRatio(MAX_SQRT_RATIO), V3MathError);
  });

  it("behavior: getTickAtSqrtRatio is the greatest tick whose ratio is <= the price", () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_TICK + 1, max: MAX_TICK - 1 }), (tick) => {
        const ratio = getSqrtRatioAtTick(tick);
        assert.equal(getTickAtSqrtRatio(ratio), tick, "exact ratio");
        assert.equal(getTickAtSqrtRatio(ratio - 1n), tick - 1, "just below");
        assert.ok(getSqrtRatioAtTick(tick + 1) > ratio, "increasing");
      }),
      { numRuns: 300 },
    );
  });

  it("behavior: the ratio is sqrt(1.0001^tick) * 2^96 to 1e-9 (float error of 1.0001^tick)", () => {
    for (const tick of [-500000, -50000, -1, 1, 10, 50000, 500000]) {
      const expected = Math.sqrt(1.0001 ** tick);
      const actual = Number(getSqrtRatioAtTick(tick)) / 2 ** 96;
      assert.ok(Math.abs(actual / expected - 1) < 1e-9, `tick ${tick}: ${actual} vs ${expected}`);
    }
  });

  it("behavior: BitMath's most and least significant bits", () => {
    assert.equal(mostSignificantBit(1n), 0);
    assert.equal(mostSignificantBit(MAX_UINT256), 255);
    assert.equal(leastSignificantBit(1n << 255n), 255);
    assert.equal(leastSignificantBit(0b101000n), 3);
    assert.throws(() => mostSignificantBit(0n), V3MathError);
  });
});

describe("FullMath", () => {
  it("default: floor and ceiling of a * b / d beyond 256-bit products", () => {
    assert.equal(mulDiv(Q96, Q96 * 50n, Q96 * 150n), Q96 / 3n);
    assert.equal(mulDivRoundingUp(Q96, Q96 * 50n, Q96 * 150n), Q96 / 3n + 1n);
    assert.equal(mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256), MAX_UINT256);
    const Q128 = 1n << 128n;
    assert.equal(mulDiv(Q128, (35n * Q128) / 10n, 8n * Q128), (4375n * Q128) / 10000n);
  });

  it("error: a zero denominator or a result beyond uint256 reverts", () => {
    assert.throws(() => mulDiv(1n, 1n, 0n), V3MathError);
    assert.throws(() => mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256 - 1n), V3MathError);
    assert.throws(
      () => mulDivRoundingUp(MAX_UINT256, MAX_UINT256 - 1n, MAX_UINT256 - 2n),
      V3MathError,
    );
  });
});

describe("SqrtPriceMath", () => {
  it("default: 0.1 token of input moves the price as the contract does", () => {
    assert.equal(getNextSqrtPriceFromInput(PRICE_1_1, E18, E18 / 10n, false), PRICE_121_100);
    assert.equal(
      getNextSqrtPriceFromInput(PRICE_1_1, E18, E18 / 10n, true),
      72025602285694852357767227579n,
    );
    assert.equal(
      getNextSqrtPriceFromOutput(PRICE_1_1, E18, E18 / 10n, false),
      88031291682515930659493278152n,
    );
    assert.equal(
      getNextSqrtPriceFromOutput(PRICE_1_1, E18, E18 / 10n, true),
      71305346262837903834189555302n,
    );
  });

  it("default: amount deltas between price 1 and 1.21, rounded both ways", () => {
    assert.equal(getAmount0Delta(PRICE_1_1, PRICE_121_100, E18, true), 90909090909090910n);
    assert.equal(getAmount0Delta(PRICE_1_1, PRICE_121_100, E18, false), 90909090909090909n);
    assert.equal(getAmount1Delta(PRICE_1_1, PRICE_121_100, E18, true), 100000000000000000n);
    assert.equal(getAmount1Delta(PRICE_1_1, PRICE_121_100, E18, false), 99999999999999999n);
    assert.equal(getAmount0Delta(PRICE_1_1, PRICE_121_100, 0n, true), 0n);
  });

  it("error: an output at or beyond the reserves reverts", () => {
    // sqrt price 2^104 (price 2^16) with liquidity 1024: virtual reserves 4 token0, 262144 token1.
    const price = 20282409603651670423947251286016n;
    assert.throws(() => getNextSqrtPriceFromOutput(price, 1024n, 4n, false), V3MathError);
    assert.throws(() => getNextSqrtPriceFromOutput(price, 1024n, 262144n, true), V3MathError);
    assert.equal(
      getNextSqrtPriceFromOutput(price, 1024n, 262143n, true),
      77371252455336267181195264n,
    );
    assert.throws(() => getNextSqrtPriceFromInput(0n, 1n, 1n, true), V3MathError);
  });
});

describe("SwapMath.computeSwapStep", () => {
  it("default: exact input capped at the target price, one for zero", () => {
    const target = 79623317895830914510639640423n; // encodePriceSqrt(101, 100)
    const step = computeSwapStep(PRICE_1_1, target, 2n * E18, E18, 600n);
    assert.equal(step.amountIn, 9975124224178055n);
    assert.equal(step.feeAmount, 5988667735148n);
    assert.equal(step.amountOut, 9925619580021728n);
    assert.equal(step.sqrtRatioNextX96, target);
  });

  it("default: exact input fully spent before the target, one for zero", () => {
    const target = 79623317895830914510639640423n;
    const step = computeSwapStep(PRICE_1_1, target, 2n * E18, 1000n * E18, 600n);
    // Not reached by a bit: the whole input is used; the remainder of it is fee.
    assert.ok(step.sqrtRatioNextX96 <= target, "price within the target");
    assert.equal(step.amountIn + step.feeAmount <= 1000n * E18, true);
  });

  it("behavior: exact input never spends more than given and takes a fee", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -50000, max: 50000 }),
        fc.integer({ min: -50000, max: 50000 }),
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        fc.constantFrom(100n, 500n, 3000n, 10000n),
        (tickA, tickB, liquidity, amount, fee) => {
          const current = getSqrtRatioAtTick(tickA);
          const target = getSqrtRatioAtTick(tickB);
          const step = computeSwapStep(current, target, liquidity, amount, fee);
          assert.ok(step.amountIn + step.feeAmount <= amount, "spends at most the input");
          if (step.amountIn > 0n) assert.ok(step.feeAmount > 0n, "a fee on every input");
          const zeroForOne = current >= target;
          if (zeroForOne)
            assert.ok(
              step.sqrtRatioNextX96 >= target && step.sqrtRatioNextX96 <= current,
              "between",
            );
          else
            assert.ok(
              step.sqrtRatioNextX96 <= target && step.sqrtRatioNextX96 >= current,
              "between",
            );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("LiquidityMath.addDelta", () => {
  it("default and error: adds a signed delta, reverting below 0 or above uint128", () => {
    assert.equal(addDelta(10n, -3n), 7n);
    assert.equal(addDelta(10n, 3n), 13n);
    assert.throws(() => addDelta(1n, -2n), V3MathError);
    assert.throws(() => addDelta((1n << 128n) - 1n, 1n), V3MathError);
  });
});
