/**
 * The devnet manifest's `layerzero` section: where LayerZero's contracts and our OFT meshes live
 * on each devnet chain, which endpoint id names each chain, and the executor account the devnet
 * relayer delivers with.
 */
import type { Address, Hex } from "viem";

export interface LayerZeroManifestChain {
  chainId: number;
  /** LayerZero endpoint id of this chain (the devnet's kind-2 id, 40101 + position). */
  eid: number;
  /** EndpointV2 (package bytecode). */
  endpoint: Address;
  /** SimpleMessageLib: default send and receive library for every other eid. */
  messageLib: Address;
  /** Flat native fee SimpleMessageLib charges per message sent from this chain (wei, decimal). */
  nativeFee: string;
  /** Our swap periphery on this chain (docs/protocols.md); absent in older manifests. */
  periphery?: LayerZeroManifestPeriphery;
}

/** Our contracts that add a swap to an OFT transfer (contracts/layerzero/OftSwap*.sol). */
export interface LayerZeroManifestPeriphery {
  /** The SwapAdapter both swap through (the devnet's, as the reference bridge). */
  swapAdapter: Address;
  /** OftSwapSender: source swap then OFT.send in one transaction (`swapAndSend`). */
  swapSender: Address;
  /** OftSwapComposer: destination swap by lzCompose, for this chain's OFTs of every mesh. */
  swapComposer: Address;
}

export interface LayerZeroManifestDeployment {
  chainId: number;
  eid: number;
  /** The OFT or OFTAdapter contract (the OApp: peers, send, events). */
  oft: Address;
  /** The ERC-20 moved on this chain: the OFT itself, or the adapter's inner token. */
  token: Address;
  /** true: an OFTAdapter locking / unlocking an existing token (bridgeType 0 legs). */
  adapter: boolean;
}

/** A set of OFTs wired as peers of each other across every devnet chain. */
export interface LayerZeroManifestMesh {
  /** Symbol of the OFT contracts (the adapter's inner token may have another). */
  symbol: string;
  name: string;
  decimals: number;
  sharedDecimals: number;
  deployments: LayerZeroManifestDeployment[];
}

export interface LayerZeroManifest {
  /** Package versions the contracts came from (pins.ts). */
  packages: Record<string, string>;
  /** Account acting as DVN and executor (validatePacket, lzReceive, lzReceiveAlert). */
  executor: { address: Address; privateKey: Hex };
  chains: LayerZeroManifestChain[];
  meshes: LayerZeroManifestMesh[];
}
