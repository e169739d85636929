/**
 * Route enumeration: which ways exist from a token on one chain to a token on another, from the
 * registry alone (no state). A route is one bridge link (kind, source bridge token -> destination
 * bridge token) plus the swaps around it.
 */
import type { Address } from "viem";
import type { BridgeKind } from "../domain/bridge-kind.js";
import type { Registry, RegistryChain, RegistryLink, RegistryToken } from "../domain/registry.js";
import { findSwapPath, type SwapPath } from "./swap-path.js";

export interface CandidateRoute {
  kind: BridgeKind;
  link: RegistryLink;
  sourceChain: RegistryChain;
  destChain: RegistryChain;
  sourceToken: RegistryToken;
  destToken: RegistryToken;
  sourceBridgeToken: RegistryToken;
  destBridgeToken: RegistryToken;
  /** sourceToken -> sourceBridgeToken; empty when sourceToken is the bridge token. */
  sourcePath: SwapPath;
  /** destBridgeToken -> destToken; empty when destToken is the bridge token. */
  destPath: SwapPath;
  /** The kind's bridge contract on the source chain (signData.bridge). */
  bridge: Address;
  /** The destination in the kind's chain-id scheme (params.destChainId). */
  destBridgeChainId: string;
}

/**
 * Every route from `sourceToken` to `destToken` (tokens of two different chains), in registry
 * link order. A link is skipped when a needed swap has no path under the path rule.
 */
export function enumerateRoutes(
  registry: Registry,
  sourceToken: RegistryToken,
  destToken: RegistryToken,
): CandidateRoute[] {
  const sourceChain = registry.chain(sourceToken.chainId);
  const destChain = registry.chain(destToken.chainId);
  if (!sourceChain || !destChain || sourceChain === destChain) return [];
  const routes: CandidateRoute[] = [];
  for (const link of registry.linksBetween(sourceChain.chainId, destChain.chainId)) {
    const bridge = sourceChain.bridges[link.kind];
    const destBridgeChainId = destChain.bridgeChainIds[link.kind];
    if (bridge === undefined || destBridgeChainId === undefined) continue;
    let sourcePath: SwapPath = [];
    if (sourceToken.key !== link.sourceToken.key) {
      const path = findSwapPath(registry, sourceToken, link.sourceToken);
      if (!path) continue;
      sourcePath = path;
    }
    let destPath: SwapPath = [];
    if (destToken.key !== link.destToken.key) {
      const path = findSwapPath(registry, link.destToken, destToken);
      if (!path) continue;
      destPath = path;
    }
    routes.push({
      kind: link.kind,
      link,
      sourceChain,
      destChain,
      sourceToken,
      destToken,
      sourceBridgeToken: link.sourceToken,
      destBridgeToken: link.destToken,
      sourcePath,
      destPath,
      bridge,
      destBridgeChainId,
    });
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
