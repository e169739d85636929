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

/** The protocol of a bridge whose entry names none: our own contracts (src/protocols/reference/). */
export const DEFAULT_PROTOCOL = "reference";

export interface RegistryBridge {
  /** Its protocol (src/protocols/index.ts); absent: DEFAULT_PROTOCOL. */
  protocol?: string;
  kind: BridgeKind;
  chainId: number;
  address: Address;
  /** This chain's id in the scheme of the protocol's kind, as a decimal string. */
  bridgeChainId: string;
  /**
   * A contract the indexer reads logs of for its protocol without being a transfer's endpoint
   * (LayerZero's EndpointV2, whose PacketSent carries the messaging fee beside an OFT's
   * OFTSent): never a send's destination, so it resolves no chain naming and no dest_contract.
   */
  auxiliary?: boolean;
  /**
   * The token this contract moves, for protocols whose contracts each carry one token (a
   * LayerZero OFT: itself; an OFTAdapter: the token it locks). Absent for the reference bridges.
   */
  token?: string;
  /**
   * For the router (domain/registry.ts RegistryProtocolContract), ignored by the indexer: the
   * token's symbol and decimals, for a token the chain's `tokens` do not list, and the set of
   * contracts this one is connected to (a LayerZero OFT mesh: peers of each other).
   */
  symbol?: string;
  decimals?: number;
  mesh?: string;
  /**
   * For the router, ignored by the indexer: our swap periphery on this contract's chain (a
   * LayerZero OFT: OftSwapSender for a source swap before its send, an OftSwapComposer that
   * trusts it for a destination swap by lzCompose). Absent: no such swap through this contract.
   */
  swapSender?: string;
  swapComposer?: string;
}

/**
 * What a registry is built from, as plain data: the indexer's set-based derivation passes it
 * to SQL as JSON parameters (src/store/derive-transfers-sql.ts).
 */
export interface RegistrySource {
  chains: BridgeChain[];
  bridges: RegistryBridge[];
}

export interface BridgeRegistry {
  /** Its chains (name, id, native symbol only) and bridges. */
  readonly source: RegistrySource;
  chainName(chainId: number): string | undefined;
  nativeSymbol(chainId: number): string | undefined;
  /** EVM chain id of the chain named `schemeId` in the scheme of `protocol`'s `kind`. */
  chainIdInScheme(kind: BridgeKind, schemeId: string, protocol?: string): number | undefined;
  bridgeAddress(chainId: number, kind: BridgeKind, protocol?: string): Address | undefined;
  /** The kind of the bridge at `address` on `chainId`. */
  bridgeKind(chainId: number, address: string): BridgeKind | undefined;
  /** The bridge at `address` on `chainId` (any protocol). */
  bridgeAt(chainId: number, address: string): RegistryBridge | undefined;
  /**
   * `protocol`'s contract at `address` on the chain `protocol` names `schemeId` (any kind): the
   * destination of a send that names its destination contract (SentArgs.destContract).
   */
  bridgeInScheme(protocol: string, schemeId: string, address: string): RegistryBridge | undefined;
  bridgesOn(chainId: number): RegistryBridge[];
}

export function createBridgeRegistry(
  chains: readonly BridgeChain[],
  bridges: readonly RegistryBridge[],
): BridgeRegistry {
  const chainById = new Map(chains.map((c) => [c.chainId, c]));
  const protocolOf = (b: RegistryBridge) => b.protocol ?? DEFAULT_PROTOCOL;
  const endpoints = bridges.filter((b) => b.auxiliary !== true);
  const byScheme = new Map(
    endpoints.map((b) => [`${protocolOf(b)}:${b.kind}:${b.bridgeChainId}`, b.chainId]),
  );
  // EIP-55 once here: records ask for the destination bridge of every transfer.
  const addressByChainKind = new Map(
    endpoints.map((b) => [`${protocolOf(b)}:${b.chainId}:${b.kind}`, getAddress(b.address)]),
  );
  const byChainAddress = new Map(
    bridges.map((b) => [`${b.chainId}:${b.address.toLowerCase()}`, b]),
  );
  const byProtocolSchemeAddress = new Map(
    bridges.map((b) => [
      `${protocolOf(b)}:${BigInt(b.bridgeChainId)}:${b.address.toLowerCase()}`,
      b,
    ]),
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
    source: {
      chains: chains.map((c) => ({
        name: c.name,
        chainId: c.chainId,
        nativeSymbol: c.nativeSymbol,
      })),
      bridges: bridges.map((b) => ({ ...b })),
    },
    chainName: (id) => chainById.get(id)?.name,
    nativeSymbol: (id) => chainById.get(id)?.nativeSymbol,
    chainIdInScheme: (kind, schemeId, protocol = DEFAULT_PROTOCOL) =>
      byScheme.get(`${protocol}:${kind}:${canonicalId(schemeId)}`),
    bridgeAddress: (id, kind, protocol = DEFAULT_PROTOCOL) =>
      addressByChainKind.get(`${protocol}:${id}:${kind}`),
    bridgeKind: (id, address) => byChainAddress.get(`${id}:${address.toLowerCase()}`)?.kind,
    bridgeAt: (id, address) => byChainAddress.get(`${id}:${address.toLowerCase()}`),
    bridgeInScheme: (protocol, schemeId, address) =>
      byProtocolSchemeAddress.get(`${protocol}:${canonicalId(schemeId)}:${address.toLowerCase()}`),
    bridgesOn: (id) => bridges.filter((b) => b.chainId === id),
  };
}
