/**
 * The devnet's protocol seam: what one bridge protocol brings to the devnet, in its folder
 * `src/devnet/protocols/<name>/`, listed once in `./index.ts`. The devnet (run-devnet.ts,
 * deploy.ts) deploys its own base on every chain (tokens, Uniswap V2 and V3, the SwapAdapter,
 * funded users), then every registered protocol's `deploy` side by side, merges the manifest
 * parts they return, and starts every protocol's relayer and, with traffic on, its traffic.
 *
 * The parts live under devnet/, not under protocols/: they use the devnet's own tools (the
 * compiled contracts, the deployer's sender, the manifest, the clients) that nothing of the
 * service may carry; protocols/<name>/ keeps what the service uses (decoding, pricing,
 * calldata), and the devnet part imports it from there.
 */
import type { Address, PublicClient } from "viem";
import type { Artifacts } from "../artifacts.js";
import type { ChainIds } from "../deploy-chain.js";
import type { ChainRole, TokenSpec } from "../deploy-config.js";
import type { TxSender } from "../deploy-tx.js";
import type { ManifestUniswapV3 } from "../deploy-uniswap-v3.js";
import type { DevnetLogger } from "../logger.js";
import type { DevnetManifest, ManifestAccount, ManifestChain, ManifestPair } from "../manifest.js";
import type { AccountPool } from "../traffic-accounts.js";

/** One chain after the devnet's base deployment, as a protocol's `deploy` gets it. */
export interface DevnetChain {
  name: string;
  rpcUrl: string;
  /** Position in the devnet (0: alpha, the DAI home chain). */
  index: number;
  /** This chain's id in each chain-id scheme (EVM, the pool scheme, endpoint ids). */
  ids: ChainIds;
  role: ChainRole;
  tokens: ReadonlyArray<TokenSpec & { address: Address }>;
  dex: {
    factory: Address;
    router: Address;
    /** SwapAdapter over V2 and V3 (what the reference bridges swap through). */
    adapter: Address;
    pairs: readonly ManifestPair[];
    uniswapV3: ManifestUniswapV3;
  };
  client: PublicClient;
  /**
   * The deployer's sender on this chain, this protocol's own fork (shared nonces, its own
   * flush): protocols deploy side by side on one account.
   */
  sender: TxSender;
}

export interface DevnetDeployContext {
  /**
   * Each chain once its base is deployed, in devnet order: a protocol may start on one chain
   * while another's base is still going (the chains' bases differ in size).
   */
  chains: readonly Promise<DevnetChain>[];
  /** Our compiled contracts (contracts/). */
  artifacts: Artifacts;
  deployer: ManifestAccount;
  /** The reference bridges' relayer account. */
  relayer: ManifestAccount;
  /** The funded user accounts. */
  users: readonly Address[];
  log(line: string): void;
}

/**
 * What a protocol adds to the manifest: fields of each chain's entry (in devnet order) and
 * top-level fields. Merged into the base: `contracts` are appended, `abis`
 * merged, anything else set (two protocols must not set the same field).
 */
export interface ManifestPart {
  chains?: ReadonlyArray<Partial<ManifestChain>>;
  top?: Partial<Omit<DevnetManifest, "chains" | "abis">> & {
    abis?: Partial<DevnetManifest["abis"]>;
  };
}

/** Something running that `stop()` ends (waiting at most STOP_GRACE_MS for what is in flight). */
export interface Stoppable {
  stop(): Promise<void>;
}

export interface DevnetRelayContext {
  manifest: DevnetManifest;
  /** Wait this long after a confirmed event before acting (ms). */
  delayMs: number;
  /** Blocks on top of an event's block before acting. */
  confirmations: number;
  logger: DevnetLogger;
}

export interface DevnetTrafficContext {
  manifest: DevnetManifest;
  /** This protocol's transfers per minute (its `trafficShare` of the devnet's rate). */
  perMinute: number;
  seed?: number;
  /** Share of transfers built to fail, for protocols that build some. */
  failureRate?: number;
  /**
   * The user accounts, lent one transfer at a time: protocols whose traffic sends from them
   * share this pool, so no account sends two transactions at once (nonces).
   */
  accounts: AccountPool;
  logger: DevnetLogger;
}

export interface ProtocolDevnet<
  Relayer extends Stoppable = Stoppable,
  Traffic extends Stoppable = Stoppable,
> {
  /** The protocol's name (src/protocols/<name>/, `RegistryBridge.protocol`). */
  name: string;
  /** Deploys the protocol's contracts on every chain; returns its part of the manifest. */
  deploy(context: DevnetDeployContext): Promise<ManifestPart>;
  /** Starts what delivers its messages on the devnet (relayer, executor); resolves once running. */
  startRelayer?(context: DevnetRelayContext): Promise<Relayer>;
  /** Its share of the devnet's traffic rate (`--traffic N`: N × share per minute). */
  trafficShare?: number;
  /** Starts random transfers of this protocol. */
  startTraffic?(context: DevnetTrafficContext): Traffic;
}
