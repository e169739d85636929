/**
 * Shared test setup: anvil chains with the whole devnet deployed. One devnet per test file
 * (`before` / `after`), so suites stay fast on two cores.
 */
import {
  type Abi,
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  type HttpTransport,
  http,
  type PrivateKeyAccount,
  type PublicClient,
  parseEventLogs,
  type TransactionReceipt,
  type WalletClient,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { adapterSwapOut } from "../../src/devnet/adapter-quote.js";
import { type AnvilInstance, startAnvil } from "../../src/devnet/anvil.js";
import { withGasHeadroom } from "../../src/devnet/chain-clients.js";
import { type DevnetChainSpec, deployDevnet } from "../../src/devnet/deploy.js";
import type { DevnetManifest, ManifestAccount, ManifestChain } from "../../src/devnet/manifest.js";
import {
  buildBridgeMessage,
  type TransferSentArgs,
} from "../../src/devnet/protocols/reference/relayer-messages.js";
import type { BridgeKind } from "../../src/domain/bridge-kind.js";
import type { BridgeParams } from "../../src/protocols/reference/bridge-params.js";

export interface TestDevnet {
  manifest: DevnetManifest;
  nodes: AnvilInstance[];
  cleanup(): Promise<void>;
}

export interface SetupDevnetParameters {
  /** Chain names; default alpha, beta, gamma with EVM ids 71001.. in order. */
  names?: string[];
  /** Seconds per block; default automine. */
  blockTime?: number;
}

export async function setupDevnet(parameters: SetupDevnetParameters = {}): Promise<TestDevnet> {
  const names = parameters.names ?? ["alpha", "beta", "gamma"];
  const nodes = await Promise.all(
    names.map((_, i) =>
      startAnvil({
        chainId: 71001 + i,
        ...(parameters.blockTime === undefined ? {} : { blockTime: parameters.blockTime }),
      }),
    ),
  );
  const cleanup = async () => {
    await Promise.all(nodes.map((node) => node.stop()));
  };
  try {
    const chains: DevnetChainSpec[] = names.map((name, i) => ({
      name,
      chainId: nodes[i]!.chainId,
      rpcUrl: nodes[i]!.rpcUrl,
      // Published to browser wallets, as runDevnet does (src/devnet/run-devnet.ts nodeUrls).
      publicRpcUrl: nodes[i]!.rpcUrl,
    }));
    const manifest = await deployDevnet({ chains });
    return { manifest, nodes, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** A devnet of the two chains alpha and beta, with a connection to each. */
export interface TwoChainDevnet extends TestDevnet {
  alpha: ChainConnection;
  beta: ChainConnection;
}

export async function setupTwoChainDevnet(): Promise<TwoChainDevnet> {
  const devnet = await setupDevnet({ names: ["alpha", "beta"] });
  return {
    ...devnet,
    alpha: connectChain(devnet.manifest, "alpha"),
    beta: connectChain(devnet.manifest, "beta"),
  };
}

/** A devnet chain seen by a test: its manifest entry, a public client and wallets. */
export interface ChainConnection {
  chain: ManifestChain;
  client: PublicClient;
  /** A wallet signing locally with `account`'s key, exactly like an integrator's. */
  wallet(account: ManifestAccount): WalletClient<HttpTransport, Chain, PrivateKeyAccount>;
  token(symbol: string): Address;
  balanceOf(token: Address, owner: Address): Promise<bigint>;
}

export function connectChain(manifest: DevnetManifest, name: string): ChainConnection {
  const chain = manifest.chains.find((c) => c.name === name);
  if (chain === undefined) throw new Error(`no devnet chain ${name}`);
  const viemChain = defineChain({
    id: chain.chainId,
    name: chain.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
  const client = createPublicClient({
    chain: viemChain,
    transport: http(chain.rpcUrl),
    pollingInterval: 20,
  }) as PublicClient;
  return {
    chain,
    client,
    wallet: (account) =>
      createWalletClient({
        account: privateKeyToAccount(account.privateKey),
        chain: viemChain,
        transport: http(chain.rpcUrl),
        pollingInterval: 20,
      }),
    token(symbol) {
      const token = chain.tokens.find((t) => t.symbol === symbol);
      if (token === undefined) throw new Error(`${name} has no ${symbol}`);
      return token.address;
    },
    async balanceOf(token, owner) {
      if (token === zeroAddress) return client.getBalance({ address: owner });
      return (await client.readContract({
        address: token,
        abi: manifest.abis.erc20,
        functionName: "balanceOf",
        args: [owner],
      })) as bigint;
    },
  };
}

/** contracts/interfaces/IBridge.sol BridgeParams, amounts in base units. */
export type BridgeParamsValue = BridgeParams;

/** Decoded IBridge.TransferSent arguments (the relayer's type). */
export type TransferSentValue = TransferSentArgs;

/**
 * What an integrator does with a quote: approve the bridge for `amount` of the source token
 * (nothing for the native coin), then call `bridge(params)`, sending `amount` as value for it.
 */
export async function sendBridge(
  manifest: DevnetManifest,
  source: ChainConnection,
  user: ManifestAccount,
  kind: BridgeKind,
  params: BridgeParamsValue,
): Promise<{ receipt: TransactionReceipt; sent: TransferSentValue }> {
  const wallet = source.wallet(user);
  const bridge = source.chain.bridges[`${kind}`];
  if (params.sourceToken !== zeroAddress) {
    const approveHash = await wallet.writeContract({
      address: params.sourceToken,
      abi: manifest.abis.erc20,
      functionName: "approve",
      args: [bridge, params.amount],
    });
    await source.client.waitForTransactionReceipt({ hash: approveHash });
  }
  const call = {
    address: bridge,
    abi: manifest.abis.bridge,
    functionName: "bridge",
    args: [params],
    value: params.sourceToken === zeroAddress ? params.amount : 0n,
  } as const;
  // The devnet's gas rule (withGasHeadroom): an estimate made in a block where a pool already
  // swapped skips the oracle writes the next block makes.
  const estimate = await source.client.estimateContractGas({ ...call, account: user.address });
  const hash = await wallet.writeContract({ ...call, gas: withGasHeadroom(estimate) });
  const receipt = await source.client.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success") throw new Error(`bridge() reverted: ${hash}`);
  const [log] = parseEventLogs({
    abi: manifest.abis.bridge,
    logs: receipt.logs,
    eventName: "TransferSent",
  });
  if (log === undefined) throw new Error("no TransferSent in the bridge() receipt");
  return { receipt, sent: (log as unknown as { args: TransferSentValue }).args };
}

/** The BridgeMessage the relayer hands the destination for a TransferSent (kinds 0 and 1). */
/** The BridgeMessage the relayer builds from a TransferSent (the relayer's own function). */
export const messageOf = buildBridgeMessage;

/**
 * Relays a transfer as the relayer account does: `bridge.deliver(message)` for kinds 0 and 1,
 * `endpoint.deliver(packet)` (from the source receipt's PacketSent) for kind 2.
 */
export async function relay(
  manifest: DevnetManifest,
  source: ChainConnection,
  dest: ChainConnection,
  kind: BridgeKind,
  sourceReceipt: TransactionReceipt,
  sent: TransferSentValue,
  as: ManifestAccount = manifest.relayer,
): Promise<TransactionReceipt> {
  const wallet = dest.wallet(as);
  let call: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] };
  if (kind === 2) {
    const [packet] = parseEventLogs({
      abi: manifest.abis.messagingEndpoint,
      logs: sourceReceipt.logs,
      eventName: "PacketSent",
    }) as unknown as Array<{
      args: { guid: Hex; srcEid: number; sender: Address; receiver: Address; payload: Hex };
    }>;
    if (packet === undefined) throw new Error("no PacketSent in the source receipt");
    const { guid, srcEid, sender, receiver, payload } = packet.args;
    call = {
      address: dest.chain.messagingEndpoint,
      abi: manifest.abis.messagingEndpoint,
      functionName: "deliver",
      args: [guid, srcEid, sender, receiver, payload],
    };
  } else {
    call = {
      address: dest.chain.bridges[`${kind}`],
      abi: kind === 0 ? manifest.abis.lockMintBridge : manifest.abis.poolBridge,
      functionName: "deliver",
      args: [messageOf(sent, source.chain, kind)],
    };
  }
  // The relayer's gas rule (withGasHeadroom): a destination swap's gas depends on the block.
  const estimate = await dest.client.estimateContractGas({ ...call, account: wallet.account });
  const hash = await wallet.writeContract({ ...call, gas: withGasHeadroom(estimate) });
  return dest.client.waitForTransactionReceipt({ hash });
}

/** Decoded IBridge events of a receipt, by name. */
export function bridgeEvents(manifest: DevnetManifest, receipt: TransactionReceipt, name: string) {
  return parseEventLogs({
    abi: manifest.abis.bridge,
    logs: receipt.logs,
    eventName: name as "TransferDelivered",
  }) as unknown as Array<{ address: Address; args: Record<string, unknown> }>;
}

/** The fee of protocol.md step 4: flatFee + x * feeBps / 10000 (floor). */
export function bridgeFeeOf(
  config: readonly [bigint, bigint, bigint, bigint],
  amount: bigint,
): bigint {
  return config[1] + (amount * config[0]) / 10_000n;
}

/** One DEX hop of protocol.md, exactly as the pair computes it. */
export function amountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint {
  const withFee = amountIn * 997n;
  return (withFee * reserveOut) / (reserveIn * 1000n + withFee);
}

/** Reserves of the a/b pair on `conn`'s chain, ordered as [reserve of a, reserve of b]. */
export async function reservesOf(
  manifest: DevnetManifest,
  conn: ChainConnection,
  a: Address,
  b: Address,
): Promise<[bigint, bigint]> {
  const pair = conn.chain.dex.pairs.find(
    (p) => (p.token0 === a && p.token1 === b) || (p.token0 === b && p.token1 === a),
  );
  if (pair === undefined) throw new Error(`no ${a}/${b} pair on ${conn.chain.name}`);
  const [r0, r1] = (await conn.client.readContract({
    address: pair.address,
    abi: manifest.abis.dexPair,
    functionName: "getReserves",
  })) as readonly [bigint, bigint, number];
  return pair.token0 === a ? [r0, r1] : [r1, r0];
}

/**
 * Output of swapping `amountIn` along `path` by the SwapAdapter's rule (protocol.md "DEX"), hop
 * by hop: the best of the V2 pair (the formula) and the V3 pools (QuoterV2 on chain), the V2 pair
 * first and then the fee tiers ascending on a tie. The same code the traffic generator prices with
 * (src/devnet/adapter-quote.ts).
 */
export async function expectedSwapOut(
  _manifest: DevnetManifest,
  conn: ChainConnection,
  path: Address[],
  amountIn: bigint,
): Promise<bigint> {
  return adapterSwapOut(conn.client, conn.chain, path, amountIn);
}

/** Reads a bridge view through the IBridge abi. */
export async function readBridge<T>(
  manifest: DevnetManifest,
  conn: ChainConnection,
  kind: BridgeKind,
  functionName: string,
  args: readonly unknown[],
): Promise<T> {
  return (await conn.client.readContract({
    address: conn.chain.bridges[`${kind}`],
    abi: bridgeAbiOf(manifest, kind),
    functionName,
    args,
  } as never)) as T;
}

/** `amount * (10000 - bps) / 10000`: the slippage floor of protocol.md. */
export function withSlippage(amount: bigint, bps = 50n): bigint {
  return (amount * (10_000n - bps)) / 10_000n;
}

/** The full abi of bridge `kind` (IBridge plus its kind's own functions). */
export function bridgeAbiOf(manifest: DevnetManifest, kind: BridgeKind) {
  return [manifest.abis.lockMintBridge, manifest.abis.poolBridge, manifest.abis.messagingBridge][
    kind
  ]!;
}
