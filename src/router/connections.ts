/**
 * What the router can quote, for the discovery endpoints (docs/router.md, "Discovery"): per
 * ordered chain pair, each bridge link (kind, source bridge token -> destination bridge token)
 * with the tokens a quote can start from and end in, and from the current snapshot the amounts
 * a quote of the bridge token itself accepts and the fee rule.
 *
 * "Listed iff quotable" holds by construction: route search (routes.ts enumerateRoutes) takes a
 * link for a token pair exactly when the link's kind runs on both chains and each token is the
 * bridge token or has a swap path to / from it (swap-path.ts), and that is how `sourceTokens`
 * and `destTokens` are chosen here, link by link.
 */
import { formatAmount } from "../amount.js";
import type { BridgeKind } from "../domain/bridge-kind.js";
import type { Registry, RegistryLink, RegistryToken } from "../domain/registry.js";
import { legSwaps, type ProtocolRouting } from "../protocols/routing.js";
import { prepareRoute } from "./price-route.js";
import { routeAmountRange } from "./route-limits.js";
import { type CandidateRoute, enumerateRoutes, ROUTING_PROTOCOLS } from "./routes.js";
import type { StateSnapshot } from "./state.js";
import { findSwapPath } from "./swap-path.js";

export interface TokenRef {
  address: string;
  symbol: string;
  decimals: number;
}

export interface ConnectionBridge {
  bridgeType: BridgeKind;
  bridge: string;
  destChainId: string;
  sourceBridgeToken: TokenRef;
  destBridgeToken: TokenRef;
  sourceTokens: string[];
  destTokens: string[];
  /** Human units of the source bridge token; null without state (or nothing accepted). */
  minAmount: string | null;
  maxAmount: string | null;
  fee: { feeBps: number; flatFee: string; messagingFee: string } | null;
  /**
   * Present when a swap before (`source`) or after (`dest`) the bridge is not offered (a
   * LayerZero OFT on a chain without our swap periphery): `sourceTokens`, resp. `destTokens`,
   * are then the bridge token alone. Absent: both offered.
   */
  swaps?: { source: boolean; dest: boolean };
  /**
   * Present when the messaging fee is not paid in the source bridge token (a LayerZero OFT: the
   * native coin, sent as the transaction's value): `fee.messagingFee` is in this token's units.
   */
  messagingFeeToken?: TokenRef;
}

export interface Connection {
  sourceChain: number;
  destChain: number;
  sourceChainName: string;
  destChainName: string;
  bridges: ConnectionBridge[];
}

export interface ConnectionFilter {
  sourceChain?: number;
  destChain?: number;
}

export interface ConnectionCatalog {
  /** Every connection (filtered), with the snapshot's limits and fees. */
  connections(snapshot: StateSnapshot, filter?: ConnectionFilter): Connection[];
  /** Whether the token is some link's source or destination bridge token. */
  isBridgeToken(token: RegistryToken): boolean;
  /** Whether the contract at `address` on `chainId` is a quoted route's bridge (signData.bridge). */
  isRouted(chainId: number, address: string): boolean;
}

/** The registry part of one link: everything but the state. */
interface LinkEntry {
  link: RegistryLink;
  /** The route of the bridge token itself (no swaps): its limits are the link's. */
  direct: CandidateRoute;
  base: Omit<ConnectionBridge, "minAmount" | "maxAmount" | "fee">;
}

const tokenRef = (t: RegistryToken): TokenRef => ({
  address: t.address,
  symbol: t.symbol,
  decimals: t.decimals,
});

export function createConnectionCatalog(
  registry: Registry,
  slippageBps: number,
  protocols: readonly ProtocolRouting[] = ROUTING_PROTOCOLS,
): ConnectionCatalog {
  const slippage = BigInt(slippageBps);
  const bridgeTokens = new Set<RegistryToken>();
  const routed = new Set<string>();
  const pairs: { sourceChain: number; destChain: number; links: LinkEntry[] }[] = [];
  for (const source of registry.chains) {
    for (const dest of registry.chains) {
      if (source === dest) continue;
      const links: LinkEntry[] = [];
      const legs = protocols.flatMap((routing) => routing.legs(registry, source, dest));
      for (const { link } of legs) {
        const direct = enumerateRoutes(registry, link.sourceToken, link.destToken, protocols).find(
          (r) => r.link === link && r.sourcePath.length === 0 && r.destPath.length === 0,
        );
        // The kind does not run on one of the chains: route search never takes this link.
        if (direct === undefined) continue;
        bridgeTokens.add(link.sourceToken).add(link.destToken);
        routed.add(`${source.chainId}:${direct.bridge.toLowerCase()}`);
        const swaps = legSwaps(direct, direct.routing);
        const reaches = (swap: boolean, from: RegistryToken, to: RegistryToken) =>
          from.key === to.key ||
          (swap &&
            (direct.swapsNative !== false || (!from.native && !to.native)) &&
            findSwapPath(registry, from, to) !== undefined);
        links.push({
          link,
          direct,
          base: {
            bridgeType: link.kind,
            bridge: direct.bridge,
            destChainId: direct.destBridgeChainId,
            sourceBridgeToken: tokenRef(link.sourceToken),
            destBridgeToken: tokenRef(link.destToken),
            sourceTokens: source.tokens
              .filter((t) => reaches(swaps.source, t, link.sourceToken))
              .map((t) => t.address),
            destTokens: dest.tokens
              .filter((t) => reaches(swaps.dest, link.destToken, t))
              .map((t) => t.address),
            ...(swaps.source && swaps.dest
              ? {}
              : { swaps: { source: swaps.source, dest: swaps.dest } }),
            ...(direct.routing.messagingFeeToken === "native"
              ? { messagingFeeToken: tokenRef(source.nativeToken) }
              : {}),
          },
        });
      }
      if (links.length > 0)
        pairs.push({ sourceChain: source.chainId, destChain: dest.chainId, links });
    }
  }

  // Limits and fees per snapshot: a search of the pricing function per link (route-limits.ts),
  // done once per snapshot however often the endpoint is asked.
  const bySnapshot = new WeakMap<StateSnapshot, Connection[]>();

  function withState(entry: LinkEntry, snapshot: StateSnapshot): ConnectionBridge {
    const prepared = prepareRoute(entry.direct, snapshot);
    if (!prepared.ok) return { ...entry.base, minAmount: null, maxAmount: null, fee: null };
    const { route, terms } = prepared.prepared;
    const rule = route.routing.feeRule(terms);
    const decimals = entry.link.sourceToken.decimals;
    const messagingDecimals =
      route.routing.messagingFeeToken === "native"
        ? route.sourceChain.nativeToken.decimals
        : decimals;
    const range = routeAmountRange(prepared.prepared, slippage);
    return {
      ...entry.base,
      minAmount: range === undefined ? null : formatAmount(range.min, decimals),
      maxAmount:
        range === undefined || range.max === undefined ? null : formatAmount(range.max, decimals),
      fee: {
        feeBps: Number(rule.feeBps),
        flatFee: formatAmount(rule.flatFee, decimals),
        messagingFee: formatAmount(rule.messagingFee, messagingDecimals),
      },
    };
  }

  function all(snapshot: StateSnapshot): Connection[] {
    let list = bySnapshot.get(snapshot);
    if (list === undefined) {
      list = pairs.map((pair) => {
        const source = registry.chain(pair.sourceChain)!;
        const dest = registry.chain(pair.destChain)!;
        return {
          sourceChain: source.chainId,
          destChain: dest.chainId,
          sourceChainName: source.name,
          destChainName: dest.name,
          bridges: pair.links.map((entry) => withState(entry, snapshot)),
        };
      });
      bySnapshot.set(snapshot, list);
    }
    return list;
  }

  return {
    connections(snapshot, filter = {}) {
      return all(snapshot).filter(
        (c) =>
          (filter.sourceChain === undefined || c.sourceChain === filter.sourceChain) &&
          (filter.destChain === undefined || c.destChain === filter.destChain),
      );
    },
    isBridgeToken: (token) => bridgeTokens.has(token),
    isRouted: (chainId, address) => routed.has(`${chainId}:${address.toLowerCase()}`),
  };
}
