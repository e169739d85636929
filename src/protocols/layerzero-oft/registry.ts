/**
 * LayerZero OFT contracts as registry entries (RegistryBridge, protocol "layerzero-oft"): each
 * chain's EndpointV2 (its PacketSent names a send's recipient and destination OFT, its
 * LzReceiveAlert a retryable delivery) and every OFT or OFTAdapter followed, named by the
 * chain's endpoint id (`bridgeChainId` = eid). An OFT is kind 2 (burn and mint through a
 * messaging protocol), an OFTAdapter kind 0 (lock and unlock); `token` is what the contract
 * moves (the OFT itself, the adapter's inner token).
 *
 * The same list serves the devnet (built from its manifest's `layerzero` section) and mainnet
 * (written by an operator into the indexer configuration's `contracts`, docs/protocols.md).
 */
import { type Address, getAddress } from "viem";
import type { RegistryBridge } from "../../domain/bridge-registry.js";

export const LAYERZERO_OFT_PROTOCOL = "layerzero-oft";

/** Where LayerZero lives on one chain and which OFTs to follow there. */
export interface LayerZeroChainContracts {
  chainId: number;
  eid: number;
  endpoint: Address;
  /** Our swap periphery on this chain (contracts/layerzero/OftSwap*.sol); absent: none. */
  periphery?: { swapSender: Address; swapComposer: Address };
}

export interface LayerZeroOftContract {
  chainId: number;
  eid: number;
  oft: Address;
  /** The ERC-20 moved on this chain: the OFT itself, or the adapter's inner token. */
  token: Address;
  adapter: boolean;
}

/** Registry entries of the endpoints and OFTs (shape of the manifest's `layerzero` section). */
export function layerZeroRegistryBridges(section: {
  chains: readonly LayerZeroChainContracts[];
  meshes: readonly {
    symbol?: string;
    decimals?: number;
    deployments: readonly LayerZeroOftContract[];
  }[];
}): RegistryBridge[] {
  const endpoints: RegistryBridge[] = section.chains.map((c) => ({
    protocol: LAYERZERO_OFT_PROTOCOL,
    kind: 2,
    chainId: c.chainId,
    address: getAddress(c.endpoint),
    bridgeChainId: String(c.eid),
    // Read for its PacketSent and LzReceiveAlert only: never a transfer's endpoint.
    auxiliary: true,
  }));
  // The mesh's symbol names it (the router offers routes between its members) and, with its
  // decimals, the OFT's token where the chain does not list it (an adapter's token it does).
  // Each OFT names the periphery of its chain: the composer trusts every OFT of its chain.
  const periphery = new Map(section.chains.map((c) => [c.chainId, c.periphery]));
  const ofts: RegistryBridge[] = section.meshes.flatMap((m) =>
    m.deployments.map((d) => ({
      protocol: LAYERZERO_OFT_PROTOCOL,
      kind: d.adapter ? 0 : 2,
      chainId: d.chainId,
      address: getAddress(d.oft),
      bridgeChainId: String(d.eid),
      token: getAddress(d.token),
      ...(m.symbol === undefined ? {} : { mesh: m.symbol }),
      ...(m.symbol === undefined || d.adapter ? {} : { symbol: m.symbol }),
      ...(m.decimals === undefined || d.adapter ? {} : { decimals: m.decimals }),
      ...peripheryOf(periphery.get(d.chainId)),
    })),
  );
  return [...endpoints, ...ofts];
}

function peripheryOf(
  periphery: LayerZeroChainContracts["periphery"],
): Pick<RegistryBridge, "swapSender" | "swapComposer"> {
  if (periphery === undefined) return {};
  return {
    swapSender: getAddress(periphery.swapSender),
    swapComposer: getAddress(periphery.swapComposer),
  };
}
