/**
 * The devnet manifest (`.devnet/manifest.json`): everything a client, the indexer and the router
 * need to talk to the devnet. The deployer fills it; `bridge-oracle devnet` writes it. The
 * indexer's and the router's config loaders accept it directly.
 */

import type { Abi, Address, Hex } from "viem";
import type { BridgeKind } from "../domain/bridge-kind.js";
import type { RegistryBridge } from "../domain/bridge-registry.js";
import type { ManifestUniswapV3 } from "./deploy-uniswap-v3.js";
import type { LayerZeroManifest } from "./protocols/layerzero-oft/manifest.js";

export interface ManifestToken {
  symbol: string;
  name: string;
  address: Address;
  decimals: number;
  /** Bridge kinds that carry this token (empty: swap only). */
  bridgeKinds: BridgeKind[];
}

export interface ManifestPair {
  address: Address;
  token0: Address;
  token1: Address;
}

export interface ManifestChain {
  name: string;
  chainId: number;
  rpcUrl: string;
  /**
   * The RPC URL published to browser wallets (GET /api/oracle/chains `rpcUrls`): `runDevnet` sets
   * it to its anvil node's URL (127.0.0.1, no credentials); absent when none is published.
   */
  publicRpcUrl?: string;
  /** Block the contracts were deployed at (the indexer's default start block). */
  deployBlock: number;
  /** This chain in each bridge kind's chain-id scheme (docs/protocol.md), as decimal strings. */
  bridgeChainIds: Record<`${BridgeKind}`, string>;
  /** Each bridge kind's contract on this chain. */
  bridges: Record<`${BridgeKind}`, Address>;
  messagingEndpoint: Address;
  /**
   * Uniswap V2 (factory, UniswapV2Router02, pairs) and `adapter`, our SwapAdapter over V2 and V3
   * that the bridges swap through (absent in older manifests).
   */
  dex: {
    factory: Address;
    router: Address;
    adapter?: Address;
    hubToken: Address;
    pairs: ManifestPair[];
  };
  /** Uniswap V3 (docs/devnet-contracts.md): factory, periphery, pools (absent in older manifests). */
  uniswapV3?: ManifestUniswapV3;
  weth: Address;
  tokens: ManifestToken[];
}

/** A bridge token link: `kind` carries `sourceToken` on one chain to `destToken` on another. */
export interface ManifestLink {
  kind: BridgeKind;
  sourceChainId: number;
  sourceToken: Address;
  destChainId: number;
  destToken: Address;
}

export interface ManifestAccount {
  address: Address;
  privateKey: Hex;
}

export interface DevnetManifest {
  version: 1;
  createdAt: string;
  chains: ManifestChain[];
  links: ManifestLink[];
  deployer: ManifestAccount;
  relayer: ManifestAccount;
  /** Funded user accounts (tokens and native coin). */
  accounts: ManifestAccount[];
  /** LayerZero V2 on the devnet (src/protocols/layerzero-oft); absent in older manifests. */
  layerzero?: LayerZeroManifest;
  /**
   * Other protocols' contracts as the indexer configuration's `contracts` reads them
   * (config/indexer-config.ts): LayerZero's endpoints and OFTs, Across' SpokePools. Absent in
   * older manifests.
   */
  contracts?: RegistryBridge[];
  /** Across on the devnet (src/devnet/protocols/across/devnet.ts): its package, accounts, SpokePool ABI. */
  across?: {
    package: string;
    relayer: ManifestAccount;
    depositor: ManifestAccount;
    spokePoolAbi: Abi;
  };
  abis: {
    /** IBridge: entry function `bridge(BridgeParams)` and the four transfer events. */
    bridge: Abi;
    lockMintBridge: Abi;
    poolBridge: Abi;
    messagingBridge: Abi;
    messagingEndpoint: Abi;
    erc20: Abi;
    dexFactory: Abi;
    dexRouter: Abi;
    dexPair: Abi;
  };
}
