/**
 * LayerZero V2 on EVM mainnets: the EndpointV2 address and the endpoint id (eid) of each chain the
 * registry ships a preset for. Sources, checked by hand on 2026-11-29 with `npm pack`:
 *
 * - endpoint ids: @layerzerolabs/lz-definitions@3.1.13, dist/index.d.ts, enum MainnetV2EndpointId
 *   (ETHEREUM_V2_MAINNET = 30101, POLYGON_V2_MAINNET = 30109, ARBITRUM_V2_MAINNET = 30110,
 *   OPTIMISM_V2_MAINNET = 30111, BASE_V2_MAINNET = 30184);
 * - EndpointV2 addresses and deployment transactions: @layerzerolabs/lz-evm-sdk-v2@3.1.10,
 *   deployments/<name>-mainnet/EndpointV2.json (`address`, `transactionHash`): the same address
 *   0x1a44076050125825900e736c501f859c50fE728c on all five (it also matches Stargate V2's
 *   deployment arguments in @stargatefinance/stg-evm-v2, per ../shared/research/real-protocols.md);
 * - EVM chain ids: the chains' own (EIP-155), not from LayerZero's packages.
 *
 * Neither package is a dependency (lz-definitions is BUSL-1.1, lz-evm-sdk-v2 LZBL-1.2 and 10 MB):
 * only these facts are copied.
 */
import type { Address, Hex } from "viem";

export interface LayerZeroMainnetChain {
  name: string;
  chainId: number;
  eid: number;
  endpoint: Address;
  /** The endpoint's deployment transaction (lz-evm-sdk-v2 deployments JSON). */
  endpointDeployTx: Hex;
}

export const LAYERZERO_V2_MAINNET_SOURCES = {
  endpointIds: "@layerzerolabs/lz-definitions@3.1.13 (MainnetV2EndpointId)",
  endpoints: "@layerzerolabs/lz-evm-sdk-v2@3.1.10 (deployments/<name>-mainnet/EndpointV2.json)",
} as const;

const ENDPOINT_V2: Address = "0x1a44076050125825900e736c501f859c50fE728c";

export const LAYERZERO_V2_MAINNET: readonly LayerZeroMainnetChain[] = [
  {
    name: "ethereum",
    chainId: 1,
    eid: 30101,
    endpoint: ENDPOINT_V2,
    endpointDeployTx: "0x1011937701c617575f33ff93dfe22b15868897cd5fd9dd78da5a3cd5c19f78fe",
  },
  {
    name: "arbitrum",
    chainId: 42161,
    eid: 30110,
    endpoint: ENDPOINT_V2,
    endpointDeployTx: "0xb35c98e56c3fcd4141a0c0d7b5296720de53c96cba5dedb2e2b1e1ced3e9a9b1",
  },
  {
    name: "optimism",
    chainId: 10,
    eid: 30111,
    endpoint: ENDPOINT_V2,
    endpointDeployTx: "0xe5794078dc9880c731ea6cd45c805e0a979887087535e36be6776aee51ec792f",
  },
  {
    name: "base",
    chainId: 8453,
    eid: 30184,
    endpoint: ENDPOINT_V2,
    endpointDeployTx: "0xc07f602600b9fab5e794651ca21ed7529f8e42e3f7a9264de88da06f9610725b",
  },
  {
    name: "polygon",
    chainId: 137,
    eid: 30109,
    endpoint: ENDPOINT_V2,
    endpointDeployTx: "0xe567fea98b4a3e10f4ad017bdb34ca3848b67424966b45285c0483a2f48e9880",
  },
];

/** The mainnet chain an endpoint id names, or undefined. */
export function mainnetChainByEid(eid: number): LayerZeroMainnetChain | undefined {
  return LAYERZERO_V2_MAINNET.find((chain) => chain.eid === eid);
}
