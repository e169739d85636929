/**
 * The chains and their bridge contracts, as lookups: chain names, each kind's chain-id scheme
 * (docs/protocol.md: `destChainId` is in the kind's own scheme) mapped back to EVM chain ids,
 * and bridge contracts per (chain, kind). The core of every registry: the router's full
 * Registry (registry.ts: tokens, DEX pairs, links besides) is one too, and the indexer, whose
 * configuration names only chains and bridges, builds one with `createBridgeRegistry`.
 */
import { type Address, getAddress } from "viem";
import type { BridgeKind } from "./bridge-kind.js";

/** A chain as far as bridges are concerned. */
export interface BridgeChain {
  name: string;
  chainId: number;
  /** Symbol of the native coin (token address 0x0), e.g. "ETH". */
  nativeSymbol: string;
}

export interface RegistryBridge {
  kind: BridgeKind;
  chainId: number;
  address: Address;
  /** This chain's id in the kind's scheme, as a decimal string. */
  bridgeChainId: string;
}

export interface BridgeRegistry {
  chainName(chainId: number): string | undefined;
  nativeSymbol(chainId: number): string | undefined;
  /** EVM chain id of the chain named `schemeId` in `kind`'s scheme. */
  chainIdInScheme(kind: BridgeKind, schemeId: string): number | undefined;
  bridgeAddress(chainId: number, kind: BridgeKind): Address | undefined;
  /** The kind of the bridge at `address` on `chainId`. */
  bridgeKind(chainId: number, address: string): BridgeKind | undefined;
  bridgesOn(chainId: number): RegistryBridge[];
}

export function createBridgeRegistry(
  chains: readonly BridgeChain[],
  bridges: readonly RegistryBridge[],
): BridgeRegistry {
  const chainById = new Map(chains.map((c) => [c.chainId, c]));
  const byScheme = new Map(bridges.map((b) => [`${b.kind}:${b.bridgeChainId}`, b.chainId]));
  // EIP-55 once here: records ask for the destination bridge of every transfer.
  const addressByChainKind = new Map(
    bridges.map((b) => [`${b.chainId}:${b.kind}`, getAddress(b.address)]),
  );
  const byChainAddress = new Map(
    bridges.map((b) => [`${b.chainId}:${b.address.toLowerCase()}`, b.kind]),
  );
  // Scheme ids as events spell them ("101", or "0101"...) -> canonical decimal; few distinct.
  const canonicalIds = new Map<string, string>();
  const canonicalId = (schemeId: string): string => {
    let id = canonicalIds.get(schemeId);
    if (id === undefined) {
      id = BigInt(schemeId).toString();
      if (canonicalIds.size < 10_000) canonicalIds.set(schemeId, id);
    }
    return id;
  };
  return {
    chainName: (id) => chainById.get(id)?.name,
    nativeSymbol: (id) => chainById.get(id)?.nativeSymbol,
    chainIdInScheme: (kind, schemeId) => byScheme.get(`${kind}:${canonicalId(schemeId)}`),
    bridgeAddress: (id, kind) => addressByChainKind.get(`${id}:${kind}`),
    bridgeKind: (id, address) => byChainAddress.get(`${id}:${address.toLowerCase()}`),
    bridgesOn: (id) => bridges.filter((b) => b.chainId === id),
  };
}
