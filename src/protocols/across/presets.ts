/**
 * Across SpokePools on the preset mainnets: each one's proxy address and the block it was
 * deployed in (where indexing can start). Taken from `dist/broadcast/deployed-addresses.json`
 * of the npm package `@across-protocol/contracts@5.0.27` (entry "SpokePool" under
 * chains."<chain id>".contracts), the deployment list Across publishes with its contracts.
 * Across names chains by their EVM chain id, so `bridgeChainId` is the chain id.
 */
import { type Address, getAddress } from "viem";
import type { RegistryBridge } from "../../domain/bridge-registry.js";
import { ACROSS_PROTOCOL } from "./decode-log.js";

export const ACROSS_PRESET_SOURCE =
  "@across-protocol/contracts@5.0.27 dist/broadcast/deployed-addresses.json";

export interface AcrossPreset {
  chainId: number;
  chainName: string;
  spokePool: Address;
  deployBlock: number;
}

export const ACROSS_SPOKE_POOLS: readonly AcrossPreset[] = [
  {
    chainId: 1,
    chainName: "Ethereum",
    spokePool: "0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5",
    deployBlock: 17_117_454,
  },
  {
    chainId: 42_161,
    chainName: "Arbitrum One",
    spokePool: "0xe35e9842fceaCA96570B734083f4a58e8F7C5f2A",
    deployBlock: 83_868_041,
  },
  {
    chainId: 10,
    chainName: "Optimism",
    spokePool: "0x6f26Bf09B1C792e3228e5467807a900A503c0281",
    deployBlock: 93_903_076,
  },
  {
    chainId: 8453,
    chainName: "Base",
    spokePool: "0x09aea4b2242abC8bb4BB78D537A67a245A7bEC64",
    deployBlock: 2_164_878,
  },
  {
    chainId: 137,
    chainName: "Polygon",
    spokePool: "0x9295ee1d8C5b022Be115A2AD3c30C72E34e7F096",
    deployBlock: 41_908_657,
  },
];

/**
 * The registry entries (kind 1, protocol "across") of the presets on `chainIds`: what an indexer
 * config lists in its top-level `contracts`.
 */
export function acrossPresetBridges(chainIds: readonly number[]): RegistryBridge[] {
  return ACROSS_SPOKE_POOLS.filter((p) => chainIds.includes(p.chainId)).map((p) => ({
    protocol: ACROSS_PROTOCOL,
    kind: 1,
    chainId: p.chainId,
    address: getAddress(p.spokePool),
    bridgeChainId: String(p.chainId),
  }));
}
