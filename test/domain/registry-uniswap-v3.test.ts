/**
 * The registry's optional `uniswapV3` section per chain (src/domain/registry.ts): parsed into
 * pools keyed by lowercase address, validated with errors naming the bad entry, and used by the
 * swap path rule as venues beside the V2 pairs.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRegistry, RegistryError } from "../../src/domain/registry.js";
import { createRouterFixture } from "../../src/router/fixtures.js";
import { findSwapPath } from "../../src/router/swap-path.js";

const TICK_LENS = "0x00000000000000000000000000000000000ce115";
const POOL = "0x00000000000000000000000000000000000B0B01";

// biome-ignore lint/suspicious/noExplicitAny: the test edits the JSON
function withPool(edit: (pool: any) => void = () => {}): any {
  // biome-ignore lint/suspicious/noExplicitAny: fixture JSON
  const json = structuredClone(createRouterFixture().registryJson) as any;
  const chain = json.chains[0];
  // biome-ignore lint/suspicious/noExplicitAny: fixture JSON
  const symbol = (s: string) => chain.tokens.find((t: any) => t.symbol === s).address as string;
  const [token0, token1] = [symbol("USDC"), symbol("DAI")].sort((a, b) =>
    a.toLowerCase() < b.toLowerCase() ? -1 : 1,
  );
  const pool = { address: POOL, token0, token1, fee: 100, tickSpacing: 1 };
  edit(pool);
  chain.uniswapV3 = { factory: TICK_LENS, tickLens: TICK_LENS, pools: [pool] };
  return json;
}

describe("registry: Uniswap V3 pools", () => {
  it("default: pools are parsed with their tokens, fee and tick spacing; the swap path sees them", () => {
    const registry = parseRegistry(withPool());
    const chain = registry.chains[0]!;
    const pool = chain.uniswapV3!.pools[0]!;
    assert.equal(pool.key, POOL.toLowerCase());
    assert.equal(pool.fee, 100);
    assert.equal(pool.tickSpacing, 1);
    const usdc = chain.tokens.find((t) => t.symbol === "USDC")!;
    const dai = chain.tokens.find((t) => t.symbol === "DAI")!;
    const path = findSwapPath(registry, dai, usdc)!;
    assert.equal(path.length, 1);
    assert.deepEqual(
      path[0]!.v3Pools.map((p) => p.key),
      [POOL.toLowerCase()],
    );
    assert.equal(parseRegistry(createRouterFixture().registryJson).chains[0]!.uniswapV3, undefined);
  });

  it("error: a fee outside the tiers, tokens out of order or an unknown token name the entry", () => {
    const rejects = (json: unknown, pattern: RegExp) =>
      assert.throws(
        () => parseRegistry(json),
        (error: unknown) => error instanceof RegistryError && pattern.test(error.message),
      );
    rejects(
      withPool((p) => {
        p.fee = 2500;
      }),
      /uniswapV3\.pools\[0\]\.fee must be a fee tier/,
    );
    rejects(
      withPool((p) => {
        [p.token0, p.token1] = [p.token1, p.token0];
      }),
      /uniswapV3\.pools\[0\] must have token0 < token1/,
    );
    rejects(
      withPool((p) => {
        p.token0 = "0x0000000000000000000000000000000000000001";
      }),
      /uniswapV3\.pools\[0\]\.token0 .* is not a token of chain/,
    );
  });
});
