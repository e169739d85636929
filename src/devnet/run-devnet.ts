/**
 * Orchestrates a whole devnet: anvil chains, contracts, the manifest file, and for every
 * registered protocol (src/devnet/protocols/index.ts) its relayer and (optionally) its traffic.
 * Used by `bridge-oracle devnet`, by `npm start` and by tests; `stop()` undoes everything, so
 * nothing keeps running after it resolves.
 *
 * Block production: the chains start in automine so deployment (hundreds of transactions) takes
 * a few seconds, then switch to interval mining (`blockTime` seconds per block, default 1) so
 * confirmations and relay delays behave like a real chain. `blockTime: 0` keeps automine.
 *
 * Persistent mode (`stateDir`, used by `npm start`): anvil keeps each chain's state in a file
 * (src/devnet/devnet-state.ts). When the saved manifest and every chain's dump are there and
 * the restored chains still have the saved deploy blocks, the devnet resumes (same blocks,
 * hashes, contracts and balances; no deployment; the manifest's rpcUrl and publicRpcUrl are
 * rewritten to the new ports); otherwise it starts fresh and says why in `freshReason`.
 */

import { errorMessage } from "../errors.js";
import { type AnvilInstance, startAnvil } from "./anvil.js";
import { loadArtifacts } from "./artifacts.js";
import { deployDevnet } from "./deploy.js";
import {
  chainStatePath,
  type DevnetStateMeta,
  discardState,
  planRestore,
  type RestorePlan,
  writeStateMeta,
} from "./devnet-state.js";
import { jsonRpc } from "./json-rpc.js";
import { type DevnetLogger, silentLogger } from "./logger.js";
import type { DevnetManifest } from "./manifest.js";
import { DEVNET_PROTOCOLS } from "./protocols/index.js";
import type { ProtocolDevnet, Stoppable } from "./protocols/protocol-devnet.js";
import { referenceDevnet } from "./protocols/reference/index.js";
import type { Relayer } from "./protocols/reference/relayer.js";
import type { TrafficGenerator } from "./protocols/reference/traffic.js";
import { createAccountPool } from "./traffic-accounts.js";
import { devnetDir, writeManifest } from "./write-manifest.js";

/** The devnet's chains (docs/protocol.md "Chains"); `chains: n` runs the first n. */
export const DEVNET_CHAINS = [
  { name: "alpha", chainId: 71001 },
  { name: "beta", chainId: 71002 },
  { name: "gamma", chainId: 71003 },
] as const;

export const DEVNET_DEFAULTS = {
  chains: 3,
  blockTime: 1,
  relayDelayMs: 2000,
  confirmations: 1,
} as const;

export interface RunDevnetOptions {
  /** How many of alpha, beta, gamma to run (2 or 3). Default 3. */
  chains?: number;
  /** Seconds per block after deployment; 0 = automine (a block per transaction). Default 1. */
  blockTime?: number;
  /** Relayer: wait this long after a confirmed event before acting. Default 2000 ms. */
  relayDelayMs?: number;
  /** Relayer: blocks on top of an event's block before acting. Default 1 (0 with automine). */
  confirmations?: number;
  /**
   * RPC port of the first chain; the others take the next ports (alpha N, beta N+1, gamma N+2),
   * so a wallet's network settings survive restarts. Default: free ports, new at every start.
   */
  rpcPort?: number;
  /** Start the relayer (default true). Tests may drive their own. */
  relay?: boolean;
  /**
   * Traffic: transfers per minute, shared out by the protocols' `trafficShare`; 0 or undefined
   * = no traffic.
   */
  traffic?: number;
  /** Seed of the traffic generator's random choices. */
  seed?: number;
  /** Share of generated transfers built to fail (then refunded). Default 0.15. */
  failureRate?: number;
  /** Where manifest.json goes; default env DEVNET_DIR or `.devnet`. */
  dir?: string;
  /** Persistent mode: keep the chains' state here and resume from it (see the file comment). */
  stateDir?: string;
  /**
   * The caller stops the devnet on SIGINT/SIGTERM itself (graceful shutdown of what uses the
   * chains first); the anvil nodes then ignore the terminal's Ctrl-C. Default false.
   */
  callerHandlesSignals?: boolean;
  /**
   * Called for every anvil node as soon as it runs (before deployment or restore), so the
   * caller can record it (DEVNET_DIR's lock: a later run stops the nodes of a dead one).
   */
  onNodeStarted?: (node: StartedNode) => void;
  /**
   * Start-up steps that take a while, for the person waiting (the contracts being compiled on a
   * first run); lines that should show even when the logger is silent. Default: logger.info.
   */
  progress?: (message: string) => void;
  logger?: DevnetLogger;
}

export interface RunningProtocol {
  relayer: Stoppable | undefined;
  traffic: Stoppable | undefined;
}

export interface StartedNode {
  pid: number;
  port: number;
  chainId: number;
  /** Persistent mode: the node's state file. */
  statePath?: string;
}

export interface RunningDevnet {
  manifest: DevnetManifest;
  manifestPath: string;
  /** The reference bridge's relayer and traffic (their stats); the others' are in `protocols`. */
  relayer: Relayer | undefined;
  traffic: TrafficGenerator | undefined;
  /** What runs for each protocol, by name. */
  protocols: ReadonlyMap<string, RunningProtocol>;
  /** Persistent mode: whether the chains were restored from saved state (no deployment). */
  restored: boolean;
  /** Persistent mode: why the saved devnet could not be resumed; undefined when restored. */
  freshReason: string | undefined;
  /** Stops traffic, the relayer and every anvil node; safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * A node's URLs in the manifest. The devnet publishes its own nodes' URL to browser wallets
 * (`publicRpcUrl`, GET /api/oracle/chains `rpcUrls`): anvil listens on 127.0.0.1 without
 * credentials, so a wallet in a browser on this machine reaches the very URL the server reads.
 */
function nodeUrls(anvil: AnvilInstance | undefined): { rpcUrl: string; publicRpcUrl?: string } {
  return anvil === undefined
    ? { rpcUrl: "" }
    : { rpcUrl: anvil.rpcUrl, publicRpcUrl: anvil.rpcUrl };
}

export function validateRunDevnetOptions(options: RunDevnetOptions): string | null {
  const chains = options.chains ?? DEVNET_DEFAULTS.chains;
  if (!Number.isInteger(chains) || chains < 2 || chains > DEVNET_CHAINS.length) {
    return `chains must be 2 or 3, got ${chains}`;
  }
  const blockTime = options.blockTime ?? DEVNET_DEFAULTS.blockTime;
  if (!Number.isInteger(blockTime) || blockTime < 0 || blockTime > 60) {
    return `block time must be a whole number of seconds from 0 to 60, got ${blockTime}`;
  }
  const delay = options.relayDelayMs ?? DEVNET_DEFAULTS.relayDelayMs;
  if (!Number.isInteger(delay) || delay < 0) return `relay delay must be >= 0 ms, got ${delay}`;
  const confirmations = options.confirmations ?? DEVNET_DEFAULTS.confirmations;
  if (!Number.isInteger(confirmations) || confirmations < 0 || confirmations > 64) {
    return `confirmations must be 0 to 64, got ${confirmations}`;
  }
  if (options.rpcPort !== undefined) {
    const last = 65535 - (chains - 1);
    if (!Number.isInteger(options.rpcPort) || options.rpcPort < 1 || options.rpcPort > last) {
      return `rpc port must be an integer from 1 to ${last} (${chains} chains take consecutive ports), got ${options.rpcPort}`;
    }
  }
  const traffic = options.traffic ?? 0;
  if (!Number.isFinite(traffic) || traffic < 0 || traffic > 6000) {
    return `traffic must be 0 to 6000 transfers per minute, got ${traffic}`;
  }
  return null;
}

export async function runDevnet(options: RunDevnetOptions = {}): Promise<RunningDevnet> {
  const invalid = validateRunDevnetOptions(options);
  if (invalid !== null) throw new RangeError(invalid);
  const logger = options.logger ?? silentLogger;
  const chainCount = options.chains ?? DEVNET_DEFAULTS.chains;
  const blockTime = options.blockTime ?? DEVNET_DEFAULTS.blockTime;

  const anvils: AnvilInstance[] = [];
  const running = new Map<ProtocolDevnet, RunningProtocol>();
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      // Every protocol's traffic and relayer stop together (each waits at most STOP_GRACE_MS
      // for its in-flight transactions), then the nodes go.
      const parts = [...running.values()];
      await Promise.allSettled(
        parts.flatMap((part) => [part.traffic?.stop(), part.relayer?.stop()]),
      );
      await Promise.allSettled(anvils.map((anvil) => anvil.stop()));
    })();
    return stopped;
  };

  const dir = options.dir ?? devnetDir();
  const definitions = DEVNET_CHAINS.slice(0, chainCount);
  const names = definitions.map((definition) => definition.name);
  const { stateDir } = options;
  const startChains = async (): Promise<void> => {
    const started = await Promise.allSettled(
      definitions.map(async (definition, index) => {
        const statePath =
          stateDir !== undefined ? chainStatePath(stateDir, definition.name) : undefined;
        const anvil = await startAnvil({
          chainId: definition.chainId,
          ...(options.rpcPort !== undefined ? { port: options.rpcPort + index } : {}),
          ...(statePath !== undefined ? { statePath } : {}),
          ...(options.callerHandlesSignals ? { callerHandlesSignals: true } : {}),
        });
        try {
          options.onNodeStarted?.({
            pid: anvil.pid,
            port: anvil.port,
            chainId: anvil.chainId,
            ...(statePath !== undefined ? { statePath } : {}),
          });
        } catch (error) {
          await anvil.stop();
          throw error;
        }
        return anvil;
      }),
    );
    for (const result of started) if (result.status === "fulfilled") anvils.push(result.value);
    const failedStart = started.find((result) => result.status === "rejected");
    if (failedStart !== undefined) throw (failedStart as PromiseRejectedResult).reason;
  };

  try {
    let plan: RestorePlan | undefined;
    if (stateDir !== undefined) {
      plan = await planRestore(dir, stateDir, names);
      if (plan.restore) {
        const problem = await startChains().then(
          () => checkDeployBlocks(anvils, plan as Extract<RestorePlan, { restore: true }>),
          (error: unknown) => `a chain did not start from its saved state: ${errorMessage(error)}`,
        );
        if (problem !== null) {
          await Promise.allSettled(anvils.splice(0).map((anvil) => anvil.stop()));
          plan = { restore: false, reason: problem };
        }
      }
      if (!plan.restore) await discardState(stateDir, names);
    }

    let manifest: DevnetManifest;
    if (plan?.restore === true) {
      logger.info(`resuming the saved devnet (deployed ${plan.manifest.createdAt})`);
      manifest = {
        ...plan.manifest,
        chains: plan.manifest.chains.map((chain, index) => ({
          ...chain,
          ...nodeUrls(anvils[index]),
        })),
      };
    } else {
      if (plan !== undefined) logger.info(`starting a fresh devnet: ${plan.reason}`);
      // Compiled before the nodes start; the compile blocks the event loop for a while.
      const artifacts = loadArtifacts({
        progress: options.progress ?? ((message) => logger.info(message)),
      });
      await startChains();
      manifest = await deployDevnet({
        artifacts,
        chains: definitions.map((definition, index) => ({
          name: definition.name,
          chainId: definition.chainId,
          ...nodeUrls(anvils[index]),
        })),
        log: (line) => logger.info(line),
      });
    }
    if (blockTime > 0) {
      await Promise.all(
        anvils.map((anvil) => jsonRpc(anvil.rpcUrl, "evm_setIntervalMining", [blockTime])),
      );
    }
    const manifestPath = await writeManifest(manifest, dir);
    if (stateDir !== undefined && plan?.restore !== true) {
      await writeStateMeta(stateDir, await stateMetaOf(manifest));
    }

    const relayContext = {
      manifest,
      delayMs: options.relayDelayMs ?? DEVNET_DEFAULTS.relayDelayMs,
      // With automine no block comes unless someone sends a transaction, so a confirmation
      // could wait forever: the default there is 0.
      confirmations: options.confirmations ?? (blockTime === 0 ? 0 : DEVNET_DEFAULTS.confirmations),
      logger,
    };
    const perMinute = options.traffic ?? 0;
    // One pool of user accounts for every protocol's traffic: an account sends one at a time.
    const accounts = createAccountPool(manifest.accounts);
    for (const protocol of DEVNET_PROTOCOLS) {
      const part: RunningProtocol = { relayer: undefined, traffic: undefined };
      running.set(protocol, part);
      if ((options.relay ?? true) && protocol.startRelayer !== undefined) {
        part.relayer = await protocol.startRelayer(relayContext);
      }
      const share = protocol.trafficShare ?? 0;
      if (perMinute > 0 && share > 0 && protocol.startTraffic !== undefined) {
        part.traffic = protocol.startTraffic({
          manifest,
          perMinute: perMinute * share,
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
          ...(options.failureRate !== undefined ? { failureRate: options.failureRate } : {}),
          accounts,
          logger,
        });
      }
    }
    // The reference bridge's, typed: what `devnet` and the tests read their stats from.
    const reference = running.get(referenceDevnet as ProtocolDevnet);
    return {
      manifest,
      manifestPath,
      relayer: reference?.relayer as Relayer | undefined,
      traffic: reference?.traffic as TrafficGenerator | undefined,
      protocols: new Map([...running].map(([protocol, part]) => [protocol.name, part])),
      restored: plan?.restore === true,
      freshReason: plan !== undefined && !plan.restore ? plan.reason : undefined,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function blockHashAt(rpcUrl: string, blockNumber: number): Promise<string | undefined> {
  const block = (await jsonRpc(rpcUrl, "eth_getBlockByNumber", [
    `0x${blockNumber.toString(16)}`,
    false,
  ])) as { hash?: string } | null;
  return block?.hash ?? undefined;
}

/** Records which deployment the chains' dumps belong to (see devnet-state.ts). */
async function stateMetaOf(manifest: DevnetManifest): Promise<DevnetStateMeta> {
  return {
    version: 1,
    manifestCreatedAt: manifest.createdAt,
    chains: await Promise.all(
      manifest.chains.map(async (chain) => ({
        name: chain.name,
        chainId: chain.chainId,
        deployBlock: chain.deployBlock,
        deployBlockHash: (await blockHashAt(chain.rpcUrl, chain.deployBlock)) ?? "",
      })),
    ),
  };
}

/** null when every restored chain has its saved deploy block, else what differs. */
async function checkDeployBlocks(
  anvils: readonly AnvilInstance[],
  plan: Extract<RestorePlan, { restore: true }>,
): Promise<string | null> {
  for (const [index, saved] of plan.meta.chains.entries()) {
    const anvil = anvils[index];
    if (anvil === undefined) return `chain ${saved.name} did not start`;
    const hash = await blockHashAt(anvil.rpcUrl, saved.deployBlock).catch(() => undefined);
    if (hash === undefined || hash !== saved.deployBlockHash) {
      return `chain ${saved.name} came back without its deploy block ${saved.deployBlock}`;
    }
  }
  return null;
}
