import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { getAmountOut, swapFee } from "./dex.js";
import { hopsSwapFee, quoteHop, quoteHops, type VenueHop } from "./hop-quote.js";
import type { V3PoolState } from "./uniswap-v3/pool-swap.js";
import { getSqrtRatioAtTick } from "./uniswap-v3/tick-math.js";

const E18 = 10n ** 18n;

/** A 0.05 % pool at tick 0 with one position [-600, 600] and its words -1..0 loaded. */
function pool(liquidity: bigint, fee = 500n): V3PoolState {
  return {
    token0: "0x01",
    token1: "0x02",
    fee,
    tickSpacing: 10,
    sqrtPriceX96: getSqrtRatioAtTick(0),
    tick: 0,
    liquidity,
    ticks: [
      { tick: -600, liquidityNet: liquidity },
      { tick: 600, liquidityNet: -liquidity },
    ],
    minWord: -1,
    maxWord: 0,
  };
}

describe("quoteHop (the SwapAdapter's venue rule)", () => {
  it("default: the deeper V3 pool beats a shallow V2 pair; its own fee is the hop's fee", () => {
    const hop: VenueHop = {
      v2: { reserveIn: 1000n * E18, reserveOut: 1000n * E18 },
      v3: [{ pool: pool(10n ** 24n), zeroForOne: true }],
    };
    const outcome = quoteHop(10n * E18, hop)!;
    assert.equal(outcome.venue, 500);
    assert.ok(
      outcome.amountOut > getAmountOut(10n * E18, 1000n * E18, 1000n * E18),
      "V3 pays more",
    );
    // 0.05 % of the input, rounded up per step by the pool.
    assert.ok(
      outcome.fee >= (10n * E18 * 5n) / 10000n && outcome.fee <= (10n * E18 * 5n) / 10000n + 2n,
      `${outcome.fee}`,
    );
  });

  it("behavior: the V2 pair wins ties and pays when the V3 pool is shallower", () => {
    const hop: VenueHop = {
      v2: { reserveIn: 10n ** 6n * E18, reserveOut: 10n ** 6n * E18 },
      v3: [{ pool: pool(10n ** 20n, 3000n), zeroForOne: true }],
    };
    const amount = E18 / 10n;
    const outcome = quoteHop(amount, hop)!;
    assert.equal(outcome.venue, "v2");
    assert.equal(outcome.fee, swapFee(amount, 1));
    // Equal venues: the earlier one (V2) keeps the hop.
    const same = { reserveIn: E18, reserveOut: E18 };
    assert.equal(quoteHop(1000n, { v2: same, v3: [] })?.venue, "v2");
  });

  it("behavior: a swap that leaves a pool's loaded words is not priced", () => {
    const hop: VenueHop = { v3: [{ pool: pool(10n ** 18n), zeroForOne: true }] };
    assert.equal(quoteHop(10n ** 30n, hop), undefined);
    assert.equal(quoteHops(10n ** 30n, [hop]), undefined);
    assert.equal(hopsSwapFee(10n ** 30n, [hop]), undefined);
  });

  it("behavior: over V2 pairs only, the fee is dex.ts swapFee; with V3 the pools' own fees", () => {
    const v2 = { reserveIn: 10n ** 6n * E18, reserveOut: 10n ** 6n * E18 };
    assert.equal(hopsSwapFee(E18, [v2, v2]), swapFee(E18, 2));
    const v3: VenueHop = { v3: [{ pool: pool(10n ** 24n), zeroForOne: true }] };
    const fee = hopsSwapFee(E18, [v3, v3])!;
    // Two 0.05 % hops: about 0.1 % of the input.
    assert.ok(fee >= (E18 * 999n) / 1_000_000n && fee <= (E18 * 1001n) / 1_000_000n, `${fee}`);
  });
});
