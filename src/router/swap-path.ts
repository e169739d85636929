/**
 * The swap path rule of docs/protocol.md, shared with the contracts: from A to B the path is
 * [A, B] when the factory has that pair, otherwise [A, WETH, B] when both pairs exist, otherwise
 * there is no swap route. The native coin swaps as the chain's hub token (WETH).
 */
import type { Registry, RegistryPair, RegistryToken } from "../domain/registry.js";

/** One hop of a swap: through `pair`, from `tokenIn` to `tokenOut` (lowercase keys). */
export interface SwapHop {
  pair: RegistryPair;
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

  const direct = registry.pair(chainId, a.key, b.key);
  if (direct) return [{ pair: direct, tokenIn: a.key, tokenOut: b.key }];
  if (a.key === hub.key || b.key === hub.key) return undefined;
  const first = registry.pair(chainId, a.key, hub.key);
  const second = registry.pair(chainId, hub.key, b.key);
  if (!first || !second) return undefined;
  return [
    { pair: first, tokenIn: a.key, tokenOut: hub.key },
    { pair: second, tokenIn: hub.key, tokenOut: b.key },
  ];
}
