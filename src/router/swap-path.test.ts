import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createRouterFixture } from "./fixtures.js";
import { findSwapPath } from "./swap-path.js";

const f = createRouterFixture();

function symbols(from: [string, string], to: [string, string]): string[] | undefined {
  const path = findSwapPath(f.registry, f.token(...from), f.token(...to));
  if (!path) return undefined;
  const chain = f.chain(from[0]);
  const sym = (key: string) => chain.tokens.find((t) => t.key === key)!.symbol;
  return [sym(path[0]!.tokenIn), ...path.map((h) => sym(h.tokenOut))];
}

describe("findSwapPath", () => {
  it("default: the direct pair when there is one", () => {
    assert.deepEqual(symbols(["alpha", "USDC"], ["alpha", "DAI"]), ["USDC", "DAI"]);
    assert.deepEqual(symbols(["beta", "USDC"], ["beta", "GOV"]), ["USDC", "GOV"]);
    const path = findSwapPath(f.registry, f.token("alpha", "USDC"), f.token("alpha", "DAI"))!;
    assert.equal(
      path[0]!.pair,
      f.registry.pair(71001, f.token("alpha", "USDC").key, f.token("alpha", "DAI").key),
    );
  });

  it("behavior: via the hub token (WETH) when there is no direct pair", () => {
    assert.deepEqual(symbols(["alpha", "ORC"], ["alpha", "USDC"]), ["ORC", "WETH", "USDC"]);
    assert.deepEqual(symbols(["beta", "USDC"], ["beta", "ORC"]), ["USDC", "WETH", "ORC"]);
  });

  it("behavior: the native coin swaps as WETH", () => {
    assert.deepEqual(symbols(["alpha", "ETH"], ["alpha", "USDC"]), ["WETH", "USDC"]);
    assert.deepEqual(symbols(["alpha", "USDC"], ["alpha", "ETH"]), ["USDC", "WETH"]);
    // WETH is the hub: with no WETH/GOV pair there is no detour through itself.
    assert.equal(symbols(["beta", "ETH"], ["beta", "GOV"]), undefined);
  });

  it("error: no path when neither the pair nor both hub pairs exist", () => {
    // DAI has no WETH pair: ORC -> WETH -> DAI is impossible.
    assert.equal(symbols(["alpha", "ORC"], ["alpha", "DAI"]), undefined);
    // WETH <-> DAI: the hub itself has no direct pair and no detour.
    assert.equal(symbols(["alpha", "WETH"], ["alpha", "DAI"]), undefined);
    // native -> WETH would be a wrap, not a swap.
    assert.equal(symbols(["alpha", "ETH"], ["alpha", "WETH"]), undefined);
    assert.equal(symbols(["alpha", "USDC"], ["alpha", "USDC"]), undefined);
    assert.equal(
      findSwapPath(f.registry, f.token("alpha", "USDC"), f.token("beta", "DAI")),
      undefined,
    );
  });
});
