/**
 * The swap path rule of docs/protocol.md, shared with the contracts (SwapAdapter): from A to B
 * the path is [A, B] when a venue (the V2 pair or a V3 pool) trades A/B, otherwise [A, WETH, B]
 * when both couples have one, otherwise there is no swap route. The native coin swaps as the
 * chain's hub token (WETH). Which venue a hop takes depends on the amount (hop-quote.ts).
 */
import type { Registry, RegistryPair, RegistryToken, RegistryV3Pool } from "../domain/registry.js";

/**
 * One hop of a swap from `tokenIn` to `tokenOut` (lowercase keys): through the V2 `pair` or one
 * of the V3 `v3Pools` (fee ascending, the adapter's order), whichever pays more.
 */
export interface SwapHop {
  /** The registry's V2 pair of the couple; absent when only V3 pools trade it. */
  pair?: RegistryPair;
  v3Pools: readonly RegistryV3Pool[];
  tokenIn: string;
  tokenOut: string;
}

/** The hops of a swap; empty means "no swap". */
export type SwapPath = readonly SwapHop[];

/** The token a swap really trades: the hub token (WETH) for the native coin. */
function swapToken(registry: Registry, token: RegistryToken): RegistryToken | undefined {
  return token.native ? registry.chain(token.chainId)?.dex.hubToken : token;
}

/**
 * The path from `from` to `to` (tokens of the same chain), or undefined when the rule finds none
 * (including native -> WETH: the bridges do not wrap without a swap, see protocol.md step 2).
 */
export function findSwapPath(
  registry: Registry,
  from: RegistryToken,
  to: RegistryToken,
): SwapPath | undefined {
  if (from.chainId !== to.chainId) return undefined;
  const chainId = from.chainId;
  const a = swapToken(registry, from);
  const b = swapToken(registry, to);
  const hub = registry.chain(chainId)?.dex.hubToken;
  if (!a || !b || !hub || a.key === b.key) return undefined;

  const direct = hopOf(registry, chainId, a.key, b.key);
  if (direct) return [direct];
  if (a.key === hub.key || b.key === hub.key) return undefined;
  const first = hopOf(registry, chainId, a.key, hub.key);
  const second = hopOf(registry, chainId, hub.key, b.key);
  if (!first || !second) return undefined;
  return [first, second];
}

/** The hop between two tokens, or undefined when no venue trades them. */
function hopOf(
  registry: Registry,
  chainId: number,
  tokenIn: string,
  tokenOut: string,
): SwapHop | undefined {
  const pair = registry.pair(chainId, tokenIn, tokenOut);
  const v3Pools = (registry.chain(chainId)?.uniswapV3?.pools ?? [])
    .filter(
      (pool) =>
        (pool.token0.key === tokenIn && pool.token1.key === tokenOut) ||
        (pool.token0.key === tokenOut && pool.token1.key === tokenIn),
    )
    .sort((x, y) => x.fee - y.fee);
  if (pair === undefined && v3Pools.length === 0) return undefined;
  return { ...(pair === undefined ? {} : { pair }), v3Pools, tokenIn, tokenOut };
}
