import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { sqrtFloor } from "../router/uniswap-v3/full-math.js";
import { getTickAtSqrtRatio } from "../router/uniswap-v3/tick-math.js";
import { sqrtPriceX96For } from "./deploy-uniswap-v3.js";

describe("V3 pool seeding helpers", () => {
  it("behavior: sqrtFloor is the integer square root, far beyond float precision", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 1n << 300n }), (n) => {
        const r = sqrtFloor(n);
        assert.ok(r * r <= n && (r + 1n) * (r + 1n) > n, `sqrtFloor(${n}) = ${r}`);
      }),
      { numRuns: 500 },
    );
  });

  it("default: a human price becomes the pool's sqrt price in base units, either token order", () => {
    const weth = { decimals: 18 };
    const usdc = { decimals: 6 };
    // 1 WETH = 3,000 USDC: token1 per token0 in base units is 3000e6 / 1e18 when WETH is token0.
    const wethFirst = sqrtPriceX96For(weth, usdc, "3000", true);
    const price = (Number(wethFirst) / 2 ** 96) ** 2;
    assert.ok(Math.abs(price / 3e-9 - 1) < 1e-9, `${price}`);
    const usdcFirst = sqrtPriceX96For(weth, usdc, "3000", false);
    assert.ok(
      Math.abs((Number(usdcFirst) / 2 ** 96) ** 2 / (1e18 / 3000e6) - 1) < 1e-9,
      "Math.abs((Number(usdcFirst) / 2 ** 96) ** 2 / (1e18 / 3000e6) - 1) < 1e-9",
    );
    // Ticks of reciprocal prices are opposite (within the floor of each).
    const sum = getTickAtSqrtRatio(wethFirst) + getTickAtSqrtRatio(usdcFirst);
    assert.ok(sum === 0 || sum === -1, `${sum}`);
  });
});
