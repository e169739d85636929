/**
 * Route enumeration: which ways exist from a token on one chain to a token on another, from the
 * registry alone (no state). A route is one bridge link (kind, source bridge token -> destination
 * bridge token) plus the swaps around it.
 */
import type { Registry, RegistryToken } from "../domain/registry.js";
import { PROTOCOLS } from "../protocols/index.js";
import { legSwaps, type ProtocolRouting, type RoutedLeg } from "../protocols/routing.js";
import { findSwapPath, type SwapPath } from "./swap-path.js";

/**
 * A bridge leg (a protocol's hop, protocols/routing.ts) with the swaps around it: `kind`,
 * `bridge` (signData.bridge) and `destBridgeChainId` (params.destChainId) are the leg's.
 */
export interface CandidateRoute extends RoutedLeg {
  /** How the leg's protocol prices and executes it. */
  routing: ProtocolRouting;
  /** sourceToken -> sourceBridgeToken; empty when sourceToken is the bridge token. */
  sourcePath: SwapPath;
  /** destBridgeToken -> destToken; empty when destToken is the bridge token. */
  destPath: SwapPath;
}

/** The routing parts of the registered protocols (src/protocols/index.ts), in registry order. */
export const ROUTING_PROTOCOLS: readonly ProtocolRouting[] = PROTOCOLS.protocols.flatMap((p) =>
  p.routing === undefined ? [] : [p.routing],
);

/**
 * Every route from `sourceToken` to `destToken` (tokens of two different chains): each
 * protocol's legs between the two chains in order (registry link order for the reference
 * bridges). A leg is skipped when a needed swap has no path under the path rule, or when the
 * leg does not accept that swap (legSwaps) and a token is not the leg's bridge token.
 */
export function enumerateRoutes(
  registry: Registry,
  sourceToken: RegistryToken,
  destToken: RegistryToken,
  protocols: readonly ProtocolRouting[] = ROUTING_PROTOCOLS,
): CandidateRoute[] {
  const sourceChain = registry.chain(sourceToken.chainId);
  const destChain = registry.chain(destToken.chainId);
  if (!sourceChain || !destChain || sourceChain === destChain) return [];
  const routes: CandidateRoute[] = [];
  for (const routing of protocols) {
    for (const leg of routing.legs(registry, sourceChain, destChain)) {
      const swaps = legSwaps(leg, routing);
      let sourcePath: SwapPath = [];
      // A swap to or from the native coin where the leg's swaps move ERC-20s only: no route.
      if (leg.swapsNative === false && (sourceToken.native || destToken.native)) {
        if (
          sourceToken.key !== leg.sourceBridgeToken.key ||
          destToken.key !== leg.destBridgeToken.key
        )
          continue;
      }
      if (sourceToken.key !== leg.sourceBridgeToken.key) {
        const path = swaps.source && findSwapPath(registry, sourceToken, leg.sourceBridgeToken);
        if (!path) continue;
        sourcePath = path;
      }
      let destPath: SwapPath = [];
      if (destToken.key !== leg.destBridgeToken.key) {
        const path = swaps.dest && findSwapPath(registry, leg.destBridgeToken, destToken);
        if (!path) continue;
        destPath = path;
      }
      routes.push({ ...leg, routing, sourceToken, destToken, sourcePath, destPath });
    }
  }
  return routes;
}

export interface RouteIndex {
  /** enumerateRoutes, memoized per (source token, destination token): the registry is static. */
  routes(sourceToken: RegistryToken, destToken: RegistryToken): readonly CandidateRoute[];
}

export function createRouteIndex(registry: Registry): RouteIndex {
  const cache = new Map<string, readonly CandidateRoute[]>();
  return {
    routes(sourceToken, destToken) {
      const key = `${sourceToken.chainId}:${sourceToken.key}>${destToken.chainId}:${destToken.key}`;
      let routes = cache.get(key);
      if (routes === undefined) {
        routes = Object.freeze(enumerateRoutes(registry, sourceToken, destToken));
        cache.set(key, routes);
      }
      return routes;
    },
  };
}
