import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { swapFee } from "./dex.js";
import { createRouterFixture, preparedFixtureRoute as prepared } from "./fixtures.js";
import { isVenueHop, quoteHop } from "./hop-quote.js";
import { priceRoute } from "./price-route.js";

describe("router fixture with Uniswap V3 pools", () => {
  const f = createRouterFixture({ uniswapV3: true });

  it("default: ETH -> USDC swaps through the V3 0.05 % pool: its fee, not the V2 pair's", () => {
    const p = prepared(f, ["alpha", "ETH"], ["beta", "USDC"], 1);
    assert.ok(isVenueHop(p.sourceHops[0]!), "the hop has V3 venues");
    const amount = 10n ** 18n;
    const result = priceRoute(p, amount, 50n);
    assert.ok(result.ok, "priced");
    const fee = result.priced.sourceSwapFee;
    // 0.05 % of 1 ETH (the pool rounds each step's fee up), well below V2's 0.3 %.
    assert.ok(fee >= amount / 2000n && fee <= amount / 2000n + 2n, `fee ${fee}`);
    assert.ok(fee < swapFee(amount, 1), "cheaper than the V2 pair");
  });

  it("behavior: a swap too large for the loaded tick window is not priced", () => {
    const p = prepared(f, ["alpha", "ETH"], ["beta", "USDC"], 1);
    const hop = p.sourceHops[0]!;
    // 100,000 ETH drains the pools' ranges and walks past the loaded words: unknown, not 0.
    assert.equal(quoteHop(10n ** 18n * 100_000n, hop), undefined);
    assert.ok(quoteHop(10n ** 18n * 10n, hop) !== undefined, "10 ETH is priced");
    const result = priceRoute(p, 10n ** 18n * 100_000n, 50n);
    assert.deepEqual(result, { ok: false, reason: "aboveMax" });
  });
});
