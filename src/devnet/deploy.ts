/**
 * `deployDevnet`: deploys the whole multi-chain devnet onto running anvil nodes and returns its
 * manifest. Phase 1 deploys every chain in parallel (deploy-chain.ts); phase 2 links each chain's
 * bridges to every other chain (remote bridges, token links, messaging fees).
 */

import { type Address, createPublicClient, http, type PublicClient } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { toBaseUnits } from "../amount.js";
import type { BridgeKind } from "../domain/bridge-kind.js";
import { deployLayerZeroDevnet } from "../protocols/layerzero-oft/devnet/deploy.js";
import { layerZeroRegistryBridges } from "../protocols/layerzero-oft/registry.js";
import { acrossManifest, acrossProtocolBridges } from "./across/devnet.js";
import { type Artifacts, loadArtifacts } from "./artifacts.js";
import { type DeployedChain, deployChain, wrappedDaiSupply } from "./deploy-chain.js";
import { defaultBridgeIds, messageFeeUsdc } from "./deploy-config.js";
import type { DevnetManifest, ManifestAccount, ManifestChain, ManifestLink } from "./manifest.js";
import { uniswapArtifact } from "./uniswap-artifacts.js";

/** anvil's default mnemonic: its first ten accounts are unlocked and funded. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

export interface DevnetChainSpec {
  name: string;
  chainId: number;
  rpcUrl: string;
  /**
   * The RPC URL the manifest publishes to browser wallets (its `publicRpcUrl`); default none.
   * Never defaulted to `rpcUrl`, which may carry credentials (src/domain/public-rpc-url.ts).
   */
  publicRpcUrl?: string;
  /** Kind 1 scheme id; default 101 + position. */
  poolChainId?: number;
  /** Kind 2 scheme id (endpoint id); default 40101 + position. */
  endpointId?: number;
}

export interface DeployDevnetParameters {
  /** In order: the first is the DAI home chain (alpha), see deploy-config.ts chainRole. */
  chains: DevnetChainSpec[];
  /** Compiled contracts; default loadArtifacts() (compiles when stale). */
  artifacts?: Artifacts;
  /** How many funded users (accounts 2..); default 8 (indexes 2-9). */
  userCount?: number;
  log?: (line: string) => void;
}

export function devnetAccounts(userCount = 8): {
  deployer: ManifestAccount;
  relayer: ManifestAccount;
  users: ManifestAccount[];
} {
  const account = (addressIndex: number): ManifestAccount => {
    const hd = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex });
    const privateKey = hd.getHdKey().privateKey;
    if (privateKey === null) throw new Error("no private key derived");
    return {
      address: hd.address,
      privateKey: `0x${Buffer.from(privateKey).toString("hex")}`,
    };
  };
  return {
    deployer: account(0),
    relayer: account(1),
    users: Array.from({ length: userCount }, (_, i) => account(i + 2)),
  };
}

export async function deployDevnet(parameters: DeployDevnetParameters): Promise<DevnetManifest> {
  const log = parameters.log ?? (() => {});
  const started = Date.now();
  if (parameters.chains.length === 0) throw new Error("a devnet needs at least one chain");
  const artifacts = parameters.artifacts ?? loadArtifacts();
  const accounts = devnetAccounts(parameters.userCount ?? 8);
  const userAddresses = accounts.users.map((u) => u.address);
  const wrappedChains = parameters.chains.length - 1;

  const deployed = await Promise.all(
    parameters.chains.map(async (spec, index) => {
      const client = createPublicClient({ transport: http(spec.rpcUrl, { retryCount: 0 }) });
      await assertChainId(client, spec);
      const defaults = defaultBridgeIds(index);
      const chain = await deployChain({
        client: client as PublicClient,
        name: spec.name,
        rpcUrl: spec.rpcUrl,
        index,
        ids: {
          evm: spec.chainId,
          pool: spec.poolChainId ?? defaults.poolChainId,
          endpoint: spec.endpointId ?? defaults.endpointId,
        },
        artifacts,
        deployer: accounts.deployer.address,
        relayer: accounts.relayer.address,
        users: userAddresses,
        wrappedDaiBacking: BigInt(wrappedChains) * wrappedDaiSupply(userAddresses.length),
      });
      log(`deployed ${spec.name} (chain ${spec.chainId}) in ${Date.now() - started} ms`);
      return chain;
    }),
  );

  await Promise.all(deployed.map((chain) => linkChain(chain, deployed, artifacts)));
  log(`linked ${deployed.length} chains in ${Date.now() - started} ms`);
  const layerzero = await deployLayerZeroDevnet({
    chains: deployed.map((c) => ({
      chainId: c.ids.evm,
      eid: c.ids.endpoint,
      client: c.client,
      sender: c.sender,
      tokens: c.tokens,
      swapAdapter: c.adapter,
    })),
    users: userAddresses,
    log,
  });
  return {
    ...buildManifest(deployed, parameters.chains, artifacts, accounts),
    layerzero,
    contracts: layerZeroRegistryBridges(layerzero),
  };
}

async function assertChainId(client: PublicClient, spec: DevnetChainSpec): Promise<void> {
  const actual = await client.getChainId();
  if (actual !== spec.chainId) {
    throw new Error(
      `${spec.name} at ${spec.rpcUrl} has chain id ${actual}, expected ${spec.chainId}`,
    );
  }
}

const tokenAddress = (chain: DeployedChain, symbol: string): Address => {
  const token = chain.tokens.find((t) => t.symbol === symbol);
  if (token === undefined) throw new Error(`${chain.name} has no ${symbol}`);
  return token.address;
};

/** Scheme id of `chain` for bridge `kind`. */
const idOf = (chain: DeployedChain, kind: BridgeKind): number =>
  kind === 0 ? chain.ids.evm : kind === 1 ? chain.ids.pool : chain.ids.endpoint;

/** The bridge token each kind carries. */
const CARRIED: Record<BridgeKind, string> = { 0: "DAI", 1: "USDC", 2: "USDC" };

/** Phase 2 for `chain`: every bridge knows every other chain's bridge and token counterpart. */
async function linkChain(
  chain: DeployedChain,
  all: DeployedChain[],
  artifacts: Artifacts,
): Promise<void> {
  const tx = chain.sender;
  const bridgeAbi = artifacts.get("PoolBridge").abi;
  const endpointAbi = artifacts.get("MessagingEndpoint").abi;
  for (const dest of all) {
    if (dest === chain) continue;
    for (const kind of [0, 1, 2] as const) {
      const bridge = chain.bridges[`${kind}`];
      const destId = BigInt(idOf(dest, kind));
      const symbol = CARRIED[kind];
      const decimals = dest.tokens.find((t) => t.symbol === symbol)?.decimals ?? 18;
      await tx.call(`setRemoteBridge ${kind}`, bridge, bridgeAbi, "setRemoteBridge", [
        destId,
        dest.bridges[`${kind}`],
      ]);
      await tx.call(`setLink ${kind}`, bridge, bridgeAbi, "setLink", [
        tokenAddress(chain, symbol),
        destId,
        tokenAddress(dest, symbol),
        decimals,
      ]);
    }
    await tx.call("setDestination", chain.endpoint, endpointAbi, "setDestination", [
      dest.ids.endpoint,
      toBaseUnits(messageFeeUsdc(dest.index), 6),
    ]);
  }
  await tx.flush();
}

const publicRpcUrlOf = (spec: DevnetChainSpec | undefined) =>
  spec?.publicRpcUrl === undefined ? {} : { publicRpcUrl: spec.publicRpcUrl };

function buildManifest(
  deployed: DeployedChain[],
  specs: DevnetChainSpec[],
  artifacts: Artifacts,
  accounts: ReturnType<typeof devnetAccounts>,
): DevnetManifest {
  const chains: ManifestChain[] = deployed.map((chain, index) => ({
    name: chain.name,
    chainId: chain.ids.evm,
    rpcUrl: chain.rpcUrl,
    ...publicRpcUrlOf(specs[index]),
    deployBlock: chain.deployBlock,
    bridgeChainIds: {
      "0": String(chain.ids.evm),
      "1": String(chain.ids.pool),
      "2": String(chain.ids.endpoint),
    },
    bridges: chain.bridges,
    messagingEndpoint: chain.endpoint,
    dex: {
      factory: chain.factory,
      router: chain.router,
      adapter: chain.adapter,
      hubToken: tokenAddress(chain, "WETH"),
      pairs: chain.pairs,
    },
    uniswapV3: chain.uniswapV3,
    weth: tokenAddress(chain, "WETH"),
    tokens: chain.tokens.map((t) => ({
      symbol: t.symbol,
      name: t.name,
      address: t.address,
      decimals: t.decimals,
      bridgeKinds: t.bridgeKinds,
    })),
    protocolBridges: acrossProtocolBridges(chain.ids.evm, chain.acrossSpokePool),
  }));
  const links: ManifestLink[] = [];
  for (const source of deployed) {
    for (const dest of deployed) {
      if (source === dest) continue;
      for (const kind of [0, 1, 2] as const) {
        links.push({
          kind,
          sourceChainId: source.ids.evm,
          sourceToken: tokenAddress(source, CARRIED[kind]),
          destChainId: dest.ids.evm,
          destToken: tokenAddress(dest, CARRIED[kind]),
        });
      }
    }
  }
  const abi = (name: string) => artifacts.get(name).abi;
  return {
    version: 1,
    createdAt: new Date().toISOString(),
    chains,
    links,
    deployer: accounts.deployer,
    relayer: accounts.relayer,
    accounts: accounts.users,
    across: acrossManifest(),
    abis: {
      bridge: abi("IBridge"),
      lockMintBridge: abi("LockMintBridge"),
      poolBridge: abi("PoolBridge"),
      messagingBridge: abi("MessagingBridge"),
      messagingEndpoint: abi("MessagingEndpoint"),
      erc20: abi("MintableToken"),
      dexFactory: uniswapArtifact("UniswapV2Factory").abi,
      dexRouter: uniswapArtifact("UniswapV2Router02").abi,
      dexPair: uniswapArtifact("UniswapV2Pair").abi,
    },
  };
}
