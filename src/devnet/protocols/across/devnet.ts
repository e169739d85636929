/**
 * Across on the devnet: its own SpokePool on every chain (spoke-pool.ts), a relayer that fills
 * deposits from its own USDC, and a depositor whose traffic is Across deposits of USDC between
 * the chains. index.ts plugs them into the devnet's protocol seam: deployAcross and
 * acrossManifest / acrossContracts its deployment, startAcross its relayer and traffic.
 *
 * The relayer fills every deposit whose fill deadline leaves it at least MIN_FILL_WINDOW
 * seconds (a real relayer skips deposits it cannot fill in time); the traffic gives every
 * EXPIRING_EVERY-th deposit a short deadline, so some deposits expire unfilled and the indexer
 * shows them Failed once the destination chain's time has passed it.
 */
import {
  type Abi,
  type Address,
  decodeEventLog,
  type Hex,
  keccak256,
  maxUint256,
  type PublicClient,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { toBaseUnits } from "../../../amount.js";
import type { RegistryBridge } from "../../../domain/bridge-registry.js";
import { ACROSS_PROTOCOL } from "../../../protocols/across/index.js";
import { sleep } from "../../../sleep.js";
import {
  createDevnetClients,
  type DevnetChainClients,
  waitForReceipt,
} from "../../chain-clients.js";
import type { TxSender } from "../../deploy-tx.js";
import { type DevnetLogger, silentLogger } from "../../logger.js";
import type { DevnetManifest, ManifestAccount, ManifestChain } from "../../manifest.js";
import { STOP_GRACE_MS, settleWithin } from "../../settle.js";
import { loadAcrossArtifacts } from "./fetch-artifacts.js";
import {
  type AcrossDeposit,
  deploySpokePool,
  depositArgs,
  relayData,
  spokePoolTime,
  toBytes32,
} from "./spoke-pool.js";

function account(seed: string): ManifestAccount {
  const privateKey = keccak256(toHex(`bridge-oracle devnet ${seed}`));
  return { address: privateKeyToAccount(privateKey).address, privateKey };
}

/** The Across relayer (its own funds) and depositor: accounts of their own, so their nonces are. */
export const ACROSS_RELAYER = account("across relayer");
export const ACROSS_DEPOSITOR = account("across depositor");

const NATIVE_WEI = 10n ** 21n;
const RELAYER_USDC = toBaseUnits("5000000", 6);
const DEPOSITOR_USDC = toBaseUnits("1000000", 6);
/** Deposits whose deadline leaves less than this are not filled (they expire). */
export const MIN_FILL_WINDOW = 120;
export const EXPIRING_EVERY = 5;
const EXPIRING_DEADLINE = 30;
const NORMAL_DEADLINE = 3600;

/**
 * Deploys the SpokePool on one chain and funds the relayer and depositor there (native coin,
 * USDC minted by the deployer, a minter of the devnet's USDC). Returns the SpokePool proxy.
 */
export async function deployAcross(
  client: PublicClient,
  tx: TxSender,
  tokens: { weth: Address; usdc: Address; erc20: Abi },
): Promise<Address> {
  const artifacts = loadAcrossArtifacts();
  for (const who of [ACROSS_RELAYER, ACROSS_DEPOSITOR]) {
    await client.request({
      method: "anvil_setBalance",
      params: [who.address, `0x${NATIVE_WEI.toString(16)}`],
    } as never);
  }
  const spokePool = await deploySpokePool(tx, artifacts, tokens.weth);
  await tx.call("USDC to the Across relayer", tokens.usdc, tokens.erc20, "mint", [
    ACROSS_RELAYER.address,
    RELAYER_USDC,
  ]);
  await tx.call("USDC to the Across depositor", tokens.usdc, tokens.erc20, "mint", [
    ACROSS_DEPOSITOR.address,
    DEPOSITOR_USDC,
  ]);
  return spokePool;
}

/**
 * The manifest's `contracts` entries of the chains' SpokePools (kind 1; Across names chains by
 * their chain id), as the indexer configuration reads them.
 */
export function acrossContracts(
  chains: readonly { chainId: number; spokePool: Address }[],
): RegistryBridge[] {
  return chains.map(({ chainId, spokePool }) => ({
    protocol: ACROSS_PROTOCOL,
    kind: 1,
    chainId,
    address: spokePool,
    bridgeChainId: String(chainId),
  }));
}

/** The manifest's `across` section. */
export function acrossManifest() {
  const artifacts = loadAcrossArtifacts();
  return {
    package: `${artifacts.package}@${artifacts.version}`,
    relayer: ACROSS_RELAYER,
    depositor: ACROSS_DEPOSITOR,
    spokePoolAbi: artifacts.contracts.Ethereum_SpokePool.abi,
  };
}

/** The chain's SpokePool among the manifest's `contracts`. */
function spokePoolOf(manifest: DevnetManifest, chain: ManifestChain): Address | undefined {
  return manifest.contracts?.find(
    (c) => c.protocol === ACROSS_PROTOCOL && c.chainId === chain.chainId,
  )?.address;
}

const usdcOf = (chain: ManifestChain) => chain.tokens.find((t) => t.symbol === "USDC")?.address;

export interface AcrossDevnet {
  stop(): Promise<void>;
  stats(): { deposits: number; fills: number; skipped: number; errors: number };
}

export interface StartAcrossParameters {
  manifest: DevnetManifest;
  /** Across deposits per minute (0: relayer only). */
  depositsPerMinute: number;
  /** Run the relayer (fills); default true. The traffic alone runs with false. */
  relay?: boolean;
  pollIntervalMs?: number;
  logger?: DevnetLogger;
}

/** Starts the Across relayer (unless `relay` is false) and deposits (depositsPerMinute > 0). */
export function startAcross(parameters: StartAcrossParameters): AcrossDevnet {
  const { manifest } = parameters;
  const logger = parameters.logger ?? silentLogger;
  const pollIntervalMs = parameters.pollIntervalMs ?? 500;
  const spokeOf = (chain: ManifestChain) => spokePoolOf(manifest, chain);
  const chains = manifest.chains.filter((c) => spokeOf(c) !== undefined && usdcOf(c) !== undefined);
  const abi = loadAcrossArtifacts().contracts.Ethereum_SpokePool.abi;
  const stats = { deposits: 0, fills: 0, skipped: 0, errors: 0 };
  const relayerClients = new Map<number, DevnetChainClients>();
  const depositorClients = new Map<number, DevnetChainClients>();
  const cursors = new Map<number, bigint>();
  for (const chain of chains) {
    relayerClients.set(chain.chainId, createDevnetClients(chain, ACROSS_RELAYER.privateKey));
    depositorClients.set(chain.chainId, createDevnetClients(chain, ACROSS_DEPOSITOR.privateKey));
    cursors.set(chain.chainId, BigInt(chain.deployBlock) - 1n);
  }
  let stopped = false;
  const stopping = new AbortController();
  const approved = new Set<string>();

  async function approveOnce(clients: DevnetChainClients, chain: ManifestChain, key: string) {
    if (approved.has(key)) return;
    const hash = await clients.walletClient.writeContract({
      address: usdcOf(chain)!,
      abi: manifest.abis.erc20,
      functionName: "approve",
      args: [spokeOf(chain)!, maxUint256],
    });
    await waitForReceipt(clients.publicClient, hash, { signal: stopping.signal, pollMs: 50 });
    approved.add(key);
  }

  /** Fills the new deposits of one origin chain (those it may still fill in time). */
  async function relayFrom(origin: ManifestChain): Promise<void> {
    const client = relayerClients.get(origin.chainId)!.publicClient;
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const from = cursors.get(origin.chainId)! + 1n;
    if (from > head) return;
    const logs = await client.getLogs({
      address: spokeOf(origin)!,
      fromBlock: from,
      toBlock: head,
    });
    for (const log of logs) {
      let decoded: ReturnType<typeof decodeEventLog<Abi>>;
      try {
        decoded = decodeEventLog({ abi, data: log.data, topics: log.topics });
      } catch {
        continue;
      }
      if (decoded.eventName !== "FundsDeposited") continue;
      const a = decoded.args as unknown as {
        inputToken: Hex;
        outputToken: Hex;
        inputAmount: bigint;
        outputAmount: bigint;
        destinationChainId: bigint;
        depositId: bigint;
        quoteTimestamp: number;
        fillDeadline: number;
        depositor: Hex;
        recipient: Hex;
      };
      const dest = chains.find((c) => BigInt(c.chainId) === a.destinationChainId);
      if (dest === undefined) continue;
      if (a.fillDeadline - a.quoteTimestamp < MIN_FILL_WINDOW) {
        stats.skipped += 1;
        continue;
      }
      const address = (word: Hex) => `0x${word.slice(26)}` as Address;
      const deposit: AcrossDeposit = {
        depositor: address(a.depositor),
        recipient: address(a.recipient),
        inputToken: address(a.inputToken),
        outputToken: address(a.outputToken),
        inputAmount: a.inputAmount,
        outputAmount: a.outputAmount,
        destinationChainId: a.destinationChainId,
        quoteTimestamp: a.quoteTimestamp,
        fillDeadline: a.fillDeadline,
      };
      const clients = relayerClients.get(dest.chainId)!;
      await approveOnce(clients, dest, `relayer:${dest.chainId}`);
      const hash = await clients.walletClient.writeContract({
        address: spokeOf(dest)!,
        abi,
        functionName: "fillRelay",
        args: [
          relayData(deposit, BigInt(origin.chainId), a.depositId),
          BigInt(dest.chainId),
          toBytes32(ACROSS_RELAYER.address),
        ],
      });
      await waitForReceipt(clients.publicClient, hash, { signal: stopping.signal, pollMs: 50 });
      stats.fills += 1;
    }
    cursors.set(origin.chainId, head);
  }

  /** One Across deposit of USDC between two chains; every EXPIRING_EVERY-th with a short deadline. */
  async function depositOne(): Promise<void> {
    if (chains.length < 2) return;
    const origin = chains[stats.deposits % chains.length]!;
    const dest = chains[(stats.deposits + 1) % chains.length]!;
    const clients = depositorClients.get(origin.chainId)!;
    await approveOnce(clients, origin, `depositor:${origin.chainId}`);
    const now = await spokePoolTime(clients.publicClient, spokeOf(origin)!, abi);
    const expiring = stats.deposits % EXPIRING_EVERY === EXPIRING_EVERY - 1;
    const inputAmount = toBaseUnits(String(10 + (stats.deposits % 90)), 6);
    const deposit: AcrossDeposit = {
      depositor: ACROSS_DEPOSITOR.address,
      recipient: ACROSS_DEPOSITOR.address,
      inputToken: usdcOf(origin)!,
      outputToken: usdcOf(dest)!,
      inputAmount,
      // the relayer's fee: 0.1 %
      outputAmount: inputAmount - inputAmount / 1000n,
      destinationChainId: BigInt(dest.chainId),
      quoteTimestamp: now,
      fillDeadline: now + (expiring ? EXPIRING_DEADLINE : NORMAL_DEADLINE),
    };
    const hash = await clients.walletClient.writeContract({
      address: spokeOf(origin)!,
      abi,
      functionName: "deposit",
      args: depositArgs(deposit),
    });
    await waitForReceipt(clients.publicClient, hash, { signal: stopping.signal, pollMs: 50 });
    stats.deposits += 1;
  }

  function loop(every: number, work: () => Promise<void>, what: string): Promise<void> {
    return (async () => {
      while (!stopped) {
        try {
          await work();
        } catch (error) {
          stats.errors += 1;
          logger.warn(`across ${what}: ${(error as Error).message.split("\n")[0]}`);
        }
        await sleep(every, stopping.signal);
      }
    })();
  }

  const loops: Promise<void>[] = [];
  if (parameters.relay ?? true) {
    loops.push(
      loop(
        pollIntervalMs,
        async () => {
          for (const origin of chains) await relayFrom(origin);
        },
        "relayer",
      ),
    );
  }
  if (parameters.depositsPerMinute > 0) {
    const every = Math.max(200, Math.round(60_000 / parameters.depositsPerMinute));
    loops.push(loop(every, depositOne, "traffic"));
  }
  if (parameters.relay ?? true) {
    logger.info(`across: relayer ${ACROSS_RELAYER.address} on ${chains.length} chain(s)`);
  }
  return {
    async stop() {
      stopped = true;
      stopping.abort();
      // A transaction in flight gets the same grace as the other devnet loops', then is left.
      await settleWithin(loops, STOP_GRACE_MS);
    },
    stats: () => ({ ...stats }),
  };
}
