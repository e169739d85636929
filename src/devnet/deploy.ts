/**
 * `deployDevnet`: deploys the whole multi-chain devnet onto running anvil nodes and returns its
 * manifest. First the devnet's base on every chain in parallel (deploy-chain.ts: tokens, DEX,
 * funded users), then every registered protocol's deployment side by side
 * (src/devnet/protocols/index.ts), each on its own fork of a chain's deployer sender; their
 * manifest parts are merged into the base's (manifest-parts.ts).
 */

import { type Address, createPublicClient, http, type PublicClient } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { type Artifacts, loadArtifacts } from "./artifacts.js";
import { type DeployedChain, deployChain } from "./deploy-chain.js";
import { defaultBridgeIds } from "./deploy-config.js";
import type { DevnetManifest, ManifestAccount } from "./manifest.js";
import { type BaseManifest, type BaseManifestChain, mergeManifestParts } from "./manifest-parts.js";
import { DEVNET_PROTOCOLS } from "./protocols/index.js";
import type { DevnetChain, ProtocolDevnet } from "./protocols/protocol-devnet.js";
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
  /** The protocols deployed on the base; default every registered one (DEVNET_PROTOCOLS). */
  protocols?: readonly ProtocolDevnet[];
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

  // Each chain's base, all at once; every protocol starts on a chain as soon as its base is there.
  const bases = parameters.chains.map(async (spec, index) => {
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
      users: userAddresses,
    });
    log(`deployed ${spec.name}'s base (chain ${spec.chainId}) in ${Date.now() - started} ms`);
    return chain;
  });
  // A failed base fails deployDevnet below; until then no protocol's wait on it goes unhandled.
  for (const base of bases) base.catch(() => {});

  // Independent of each other: side by side, each on its own fork of every chain's sender.
  const protocols = parameters.protocols ?? DEVNET_PROTOCOLS;
  const deploying = protocols.map(async (protocol) => {
    const part = await protocol.deploy({
      chains: bases.map((base) => {
        const chain = base.then(devnetChain);
        chain.catch(() => {}); // reported once, by the base's own rejection below
        return chain;
      }),
      artifacts,
      deployer: accounts.deployer,
      relayer: accounts.relayer,
      users: userAddresses,
      log,
    });
    log(`deployed ${protocol.name} in ${Date.now() - started} ms`);
    return part;
  });
  const [deployed, parts] = await Promise.all([Promise.all(bases), Promise.all(deploying)]);
  return mergeManifestParts(
    buildBaseManifest(deployed, parameters.chains, artifacts, accounts),
    parts,
  );
}

async function assertChainId(client: PublicClient, spec: DevnetChainSpec): Promise<void> {
  const actual = await client.getChainId();
  if (actual !== spec.chainId) {
    throw new Error(
      `${spec.name} at ${spec.rpcUrl} has chain id ${actual}, expected ${spec.chainId}`,
    );
  }
}

/** A chain's base as a protocol's deployment sees it, with the protocol's own sender fork. */
function devnetChain(chain: DeployedChain): DevnetChain {
  return {
    name: chain.name,
    rpcUrl: chain.rpcUrl,
    index: chain.index,
    ids: chain.ids,
    role: chain.role,
    tokens: chain.tokens,
    dex: {
      factory: chain.factory,
      router: chain.router,
      adapter: chain.adapter,
      pairs: chain.pairs,
      uniswapV3: chain.uniswapV3,
    },
    client: chain.client,
    sender: chain.sender.fork(),
  };
}

const tokenAddress = (chain: DeployedChain, symbol: string): Address => {
  const token = chain.tokens.find((t) => t.symbol === symbol);
  if (token === undefined) throw new Error(`${chain.name} has no ${symbol}`);
  return token.address;
};

const publicRpcUrlOf = (spec: DevnetChainSpec | undefined) =>
  spec?.publicRpcUrl === undefined ? {} : { publicRpcUrl: spec.publicRpcUrl };

/** The manifest of the base: chains, tokens, DEX, accounts; the protocols' parts are added. */
function buildBaseManifest(
  deployed: DeployedChain[],
  specs: DevnetChainSpec[],
  artifacts: Artifacts,
  accounts: ReturnType<typeof devnetAccounts>,
): BaseManifest {
  const chains: BaseManifestChain[] = deployed.map((chain, index) => ({
    name: chain.name,
    chainId: chain.ids.evm,
    rpcUrl: chain.rpcUrl,
    ...publicRpcUrlOf(specs[index]),
    deployBlock: chain.deployBlock,
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
  }));
  return {
    version: 1,
    createdAt: new Date().toISOString(),
    chains,
    deployer: accounts.deployer,
    relayer: accounts.relayer,
    accounts: accounts.users,
    abis: {
      erc20: artifacts.get("MintableToken").abi,
      dexFactory: uniswapArtifact("UniswapV2Factory").abi,
      dexRouter: uniswapArtifact("UniswapV2Router02").abi,
      dexPair: uniswapArtifact("UniswapV2Pair").abi,
    },
  };
}
