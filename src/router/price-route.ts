/**
 * Pricing one route for one input amount, with exact bigint arithmetic that follows the
 * contracts step by step (docs/protocol.md "Bridge entry"). State comes in pre-resolved
 * (PreparedRoute, once per snapshot) so the per-request work is arithmetic only.
 */
import type { HopReserves } from "./dex.js";
import {
  hopsSwapFee,
  isVenueHop,
  MAX_V2_RESERVE,
  type PricedHop,
  quoteHop,
  quoteHops,
  type V3Venue,
} from "./hop-quote.js";
import type { CandidateRoute } from "./routes.js";
import { type ChainState, coupleKey, protocolState, type StateSnapshot } from "./state.js";
import type { SwapHop, SwapPath } from "./swap-path.js";

/**
 * A route with the state it needs, read from one snapshot: the bridge leg's terms as its
 * protocol prepared them (opaque here: only `route.routing` reads them; `T` names their type
 * where the protocol is known, e.g. ReferenceTerms) and the swaps' venues.
 */
export interface PreparedRoute<T = unknown> {
  route: CandidateRoute;
  terms: T;
  /** The source swap's hops (V2-only hops as plain reserves); empty without a swap. */
  sourceHops: readonly PricedHop[];
  destHops: readonly PricedHop[];
}

export type PrepareRouteResult =
  | { ok: true; prepared: PreparedRoute }
  | { ok: false; chainId: number; missing: string };

/** A hop resolved to venues: the V2 pair's key (if any) and the registry's V3 pools. */
interface EffectiveHop {
  pairKey: string | undefined;
  v3Pools: SwapHop["v3Pools"];
  tokenIn: string;
  tokenOut: string;
}

/**
 * The venues a swap really goes through, by the contracts' rule (docs/protocol.md): the direct
 * V2 pair of its two ends when the factory has one (even one created after the registry was
 * written), else the registry's path, each hop through the factory's pair for its tokens and
 * the registry's V3 pools of its couple.
 */
function effectiveHops(state: ChainState, path: SwapPath): EffectiveHop[] {
  const hops: EffectiveHop[] = path.map((hop) => ({
    pairKey: hop.pair?.key,
    v3Pools: hop.v3Pools,
    tokenIn: hop.tokenIn,
    tokenOut: hop.tokenOut,
  }));
  const direct = state.directPairs;
  const first = hops[0];
  const last = hops[hops.length - 1];
  if (direct === undefined || first === undefined || last === undefined) return hops;
  if (hops.length > 1) {
    const shortcut = direct.get(coupleKey(first.tokenIn, last.tokenOut));
    if (shortcut !== undefined) {
      return [{ pairKey: shortcut, v3Pools: [], tokenIn: first.tokenIn, tokenOut: last.tokenOut }];
    }
  }
  return hops.map((hop) => ({
    ...hop,
    pairKey: direct.get(coupleKey(hop.tokenIn, hop.tokenOut)) ?? hop.pairKey,
  }));
}

function resolveHops(
  state: ChainState,
  path: SwapPath,
): { hops: PricedHop[] } | { missing: string } {
  const hops: PricedHop[] = [];
  for (const hop of effectiveHops(state, path)) {
    let v2: HopReserves | undefined;
    if (hop.pairKey !== undefined) {
      const reserves = state.pairs.get(hop.pairKey);
      if (!reserves) return { missing: `reserves of pair ${hop.pairKey}` };
      if (reserves.token0 === hop.tokenIn && reserves.token1 === hop.tokenOut) {
        v2 = { reserveIn: reserves.reserve0, reserveOut: reserves.reserve1 };
      } else if (reserves.token1 === hop.tokenIn && reserves.token0 === hop.tokenOut) {
        v2 = { reserveIn: reserves.reserve1, reserveOut: reserves.reserve0 };
      } else {
        return { missing: `reserves of pair ${hop.pairKey} (its tokens are not the swap's)` };
      }
    }
    if (hop.v3Pools.length === 0) {
      if (v2 === undefined) return { missing: `a venue for ${hop.tokenIn}/${hop.tokenOut}` };
      hops.push(v2);
      continue;
    }
    const v3: V3Venue[] = [];
    for (const pool of hop.v3Pools) {
      const state3 = state.v3Pools?.get(pool.key);
      if (!state3) return { missing: `state of V3 pool ${pool.key}` };
      v3.push({ pool: state3, zeroForOne: pool.token0.key === hop.tokenIn });
    }
    hops.push(v2 === undefined ? { v3 } : { v2, v3 });
  }
  return { hops };
}

/** Reads what `route` needs from `snapshot`; says what is missing when the state lacks it. */
export function prepareRoute(route: CandidateRoute, snapshot: StateSnapshot): PrepareRouteResult {
  const sourceId = route.sourceChain.chainId;
  const destId = route.destChain.chainId;
  const source = snapshot.chains.get(sourceId);
  if (!source) return { ok: false, chainId: sourceId, missing: "chain state" };
  const dest = snapshot.chains.get(destId);
  if (!dest) return { ok: false, chainId: destId, missing: "chain state" };

  const leg = route.routing.prepare(
    route,
    protocolState(source, route.protocol),
    protocolState(dest, route.protocol),
    { source: route.sourcePath.length > 0, dest: route.destPath.length > 0 },
  );
  if (!leg.ok) return leg;
  const sourceHops = resolveHops(source, route.sourcePath);
  if ("missing" in sourceHops) return { ok: false, chainId: sourceId, missing: sourceHops.missing };
  const destHops = resolveHops(dest, route.destPath);
  if ("missing" in destHops) return { ok: false, chainId: destId, missing: destHops.missing };
  return {
    ok: true,
    prepared: {
      route,
      terms: leg.terms,
      sourceHops: sourceHops.hops,
      destHops: destHops.hops,
    },
  };
}

/** Every number of a priced route, base units of the token named in each comment. */
export interface PricedRoute {
  prepared: PreparedRoute;
  route: CandidateRoute;
  /** Input (source token). */
  amount: bigint;
  sourceSwap: boolean;
  /** LP fees of the source swap (source token; 0n without a swap). See hopsSwapFee. */
  sourceSwapFee: bigint;
  /** Expected source swap output = bridgeAmount (source bridge token). */
  bridgeAmount: bigint;
  /** Minimum source swap output: bridgeAmount less slippage, or `amount` without a swap. */
  sourceMinAmount: bigint;
  /** The protocol's fee of bridgeAmount less the messaging fee in it (source bridge token). */
  bridgeFee: bigint;
  /**
   * Messaging fee (reference kind 2: source bridge token; a protocol paid in the native coin,
   * route.routing.messagingFeeToken "native": the source chain's native coin).
   */
  xprotoFee: bigint;
  /**
   * The quote's `fee` (source bridge token): what of bridgeAmount does not arrive; bridgeFee +
   * xprotoFee when the messaging fee is paid in the bridge token.
   */
  fee: bigint;
  /** bridgeAmount - fee (source bridge token). */
  netAmount: bigint;
  /** net converted to the destination bridge token's decimals, rounding down. */
  destBridgeAmount: bigint;
  destSwap: boolean;
  /** DEX fee of the destination swap (destination bridge token; 0n without a swap). */
  destSwapFee: bigint;
  /** Expected delivery (destination token). */
  destMaxAmount: bigint;
  /**
   * The guaranteed minimum (destination token): destMaxAmount less slippage (floor), or, when
   * lower, what arrives if the source swap pays out only sourceMinAmount.
   */
  destMinAmount: bigint;
  slippageBps: bigint;
}

/** Bit flags of amountLimitFlags. */
export const BELOW_MIN = 1;
export const ABOVE_MAX = 2;

/**
 * Whether a swap of `amountIn` along `hops` would overflow the uint112 balance of a hop's only
 * venue, its V2 pair ("UniswapV2: OVERFLOW"). With V3 pools beside it the adapter skips the pair.
 */
function overflowsPair(amountIn: bigint, hops: readonly PricedHop[]): boolean {
  let amount = amountIn;
  for (const hop of hops) {
    if (!isVenueHop(hop) && hop.reserveIn + amount > MAX_V2_RESERVE) return true;
    const outcome = quoteHop(amount, hop);
    if (outcome === undefined) return false;
    amount = outcome.amountOut;
  }
  return false;
}

/** What a swap along `hops` pays (the input itself without hops); undefined: not priceable. */
function swapOut(amount: bigint, hops: readonly PricedHop[]): bigint | undefined {
  return hops.length > 0 ? quoteHops(amount, hops) : amount;
}

/** What the bridge leg delivers (destination bridge token; 0n when the fees eat it all). */
function destBridgeFor(prepared: PreparedRoute, bridgeAmount: bigint): bigint {
  return prepared.route.routing.delivered(prepared.terms, prepared.route, bridgeAmount);
}

/**
 * Which limits `amount` breaks on this route (0 = none), for every source-swap output the
 * slippage tolerance allows, so that a quote still executes when the price moves within it:
 * - BELOW_MIN: the lowest output (`sourceMinAmount`) is below the token's minAmount, or nothing
 *   would arrive from it (net <= 0, destBridgeAmount or swap output 0);
 * - ABOVE_MAX: the highest output (the expected one / (1 - tolerance)) is above maxAmount (when
 *   maxAmount != 0), or would deliver more than the kind 1 destination liquidity, or a swap
 *   would overflow a pair's uint112 balance.
 * Without a source swap the bridge amount is the input itself. Every quantity involved is
 * non-decreasing in `amount`, so the amounts BELOW_MIN form a prefix and those ABOVE_MAX a
 * suffix: the route's valid amounts are one interval (route-limits.ts).
 */
export function amountLimitFlags(
  prepared: PreparedRoute,
  amount: bigint,
  slippageBps: bigint,
): number {
  const bridgeAmount = swapOut(amount, prepared.sourceHops);
  // A swap past a V3 pool's loaded tick window is not priced: the amount is too large to quote.
  if (bridgeAmount === undefined) return ABOVE_MAX;
  return limitFlagsAt(prepared, amount, bridgeAmount, slippageBps);
}

/** amountLimitFlags with the expected bridge amount already known (priceRoute has it). */
function limitFlagsAt(
  prepared: PreparedRoute,
  amount: bigint,
  bridgeAmount: bigint,
  slippageBps: bigint,
): number {
  const { route, terms, sourceHops, destHops } = prepared;
  const routing = route.routing;
  const maxAmount = routing.maxAmount(terms);
  const destLiquidity = routing.destLiquidity(terms);
  const sourceSwap = sourceHops.length > 0;
  const keep = 10000n - slippageBps;
  const low = sourceSwap ? (bridgeAmount * keep) / 10000n : bridgeAmount;
  const high = sourceSwap && keep > 0n ? (bridgeAmount * 10000n) / keep : bridgeAmount;
  let flags = 0;
  const lowDestBridge = destBridgeFor(prepared, low);
  const lowOut = swapOut(lowDestBridge, destHops);
  if (lowOut === undefined) return ABOVE_MAX;
  // lowDestBridge > 0 implies net > 0, the contract's bridgeAmount > fees.
  if (low < routing.minAmount(terms) || lowDestBridge <= 0n || lowOut <= 0n) flags |= BELOW_MIN;
  const highDestBridge = destBridgeFor(prepared, high);
  if (
    (maxAmount !== undefined && high > maxAmount) ||
    (destLiquidity !== undefined && highDestBridge > destLiquidity) ||
    overflowsPair(amount, sourceHops) ||
    overflowsPair(highDestBridge, destHops)
  ) {
    flags |= ABOVE_MAX;
  }
  return flags;
}

/**
 * What the route delivers (destination token) when `bridgeAmount` of the source bridge token
 * enters the bridge and the destination pools are as prepared: the contract's steps 4-7 on it.
 */
function deliveredFor(prepared: PreparedRoute, bridgeAmount: bigint): bigint {
  const destBridgeAmount = destBridgeFor(prepared, bridgeAmount);
  if (destBridgeAmount === 0n) return 0n;
  return swapOut(destBridgeAmount, prepared.destHops) ?? 0n;
}

export type PriceRouteResult =
  | { ok: true; priced: PricedRoute }
  | { ok: false; reason: "belowMin" | "aboveMax" };

/**
 * Prices `amount` (source token base units) on a prepared route with slippage tolerance
 * `slippageBps` (0..10000). Breaking a limit is a result, not an exception.
 */
export function priceRoute(
  prepared: PreparedRoute,
  amount: bigint,
  slippageBps: bigint,
): PriceRouteResult {
  const { route, terms } = prepared;
  const routing = route.routing;
  const sourceSwap = prepared.sourceHops.length > 0;
  const destSwap = prepared.destHops.length > 0;
  const bridgeAmount = swapOut(amount, prepared.sourceHops);
  if (bridgeAmount === undefined) return { ok: false, reason: "aboveMax" };
  const fee = routing.fee(terms, bridgeAmount);
  const xprotoFee = routing.messagingFee(terms);
  const netAmount = bridgeAmount - fee;
  const destBridgeAmount = destBridgeFor(prepared, bridgeAmount);
  const destMaxAmount = swapOut(destBridgeAmount, prepared.destHops);
  const sourceSwapFee = hopsSwapFee(amount, prepared.sourceHops);
  const destSwapFee = hopsSwapFee(destBridgeAmount, prepared.destHops);
  if (destMaxAmount === undefined || sourceSwapFee === undefined || destSwapFee === undefined) {
    return { ok: false, reason: "aboveMax" };
  }

  const flags = limitFlagsAt(prepared, amount, bridgeAmount, slippageBps);
  if (flags & BELOW_MIN) return { ok: false, reason: "belowMin" };
  if (flags & ABOVE_MAX) return { ok: false, reason: "aboveMax" };

  const keep = 10000n - slippageBps;
  const sourceMinAmount = sourceSwap ? (bridgeAmount * keep) / 10000n : amount;
  // destMinAmount must hold when the source swap pays out only sourceMinAmount, too: the contract
  // then charges the fee of that smaller amount, and the flat part of the fee (and the messaging
  // fee) does not shrink with it, so "destMax less the tolerance" alone would promise up to
  // tolerance x flat fees more than such a transfer delivers, and it would revert.
  let destMinAmount = (destMaxAmount * keep) / 10000n;
  if (sourceSwap) {
    const edgeOut = deliveredFor(prepared, sourceMinAmount);
    if (edgeOut < destMinAmount) destMinAmount = edgeOut;
  }
  return {
    ok: true,
    priced: {
      prepared,
      route,
      amount,
      sourceSwap,
      sourceSwapFee,
      bridgeAmount,
      sourceMinAmount,
      bridgeFee: routing.messagingFeeToken === "bridgeToken" ? fee - xprotoFee : fee,
      xprotoFee,
      fee,
      netAmount,
      destBridgeAmount,
      destSwap,
      destSwapFee,
      destMaxAmount,
      destMinAmount,
      slippageBps,
    },
  };
}
