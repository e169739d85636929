/**
 * The reference bridge's traffic generator on the devnet: random bridge transfers from the
 * funded user accounts, of all three kinds, between random chain pairs, with and without source
 * and destination swaps. A
 * share of them is built to fail on the destination (a destination swap whose minimum is above
 * what the pool gives), so the relayer's TransferFailed -> refund path runs too.
 *
 * Parameters are computed from chain state: swaps priced by the SwapAdapter's rule
 * (adapter-quote.ts: the best of the V2 pair and the V3 pools per hop), the bridge's tokenConfig
 * and xprotoFee; the router's HTTP quote path is not used here. The gas limit is the estimate
 * plus headroom (withGasHeadroom): a swap's gas depends on the block it lands in.
 */
import { type Address, type Hex, maxUint256, parseEventLogs, zeroAddress } from "viem";
import { convertDecimals, formatAmount } from "../../../amount.js";
import type { BridgeKind } from "../../../domain/bridge-kind.js";
import type { BridgeParams } from "../../../protocols/reference/bridge-params.js";
import { adapterSwapOut } from "../../adapter-quote.js";
import {
  createDevnetClients,
  type DevnetChainClients,
  waitForReceipt,
  withGasHeadroom,
} from "../../chain-clients.js";
import { type DevnetLogger, errorMessage, silentLogger } from "../../logger.js";
import type { DevnetManifest, ManifestAccount } from "../../manifest.js";
import { STOP_GRACE_MS, settleWithin } from "../../settle.js";
import { type AccountPool, createAccountPool } from "../../traffic-accounts.js";
import {
  amountForUsd,
  applySlippage,
  bridgeFee,
  chooseTransfer,
  createRandom,
  type Random,
  swapPath,
  type TransferChoice,
} from "../../traffic-plan.js";
import { bridgeEntryAbi, bridgeEventsAbi, erc20Abi } from "./relayer-abi.js";

export interface CreateTrafficGeneratorParameters {
  manifest: DevnetManifest;
  /** Transfers started per minute (across all accounts). */
  perMinute: number;
  /** Seed of the random choices; default: time-based. */
  seed?: number;
  /** Share of transfers built to fail on the destination. Default 0.15. */
  failureRate?: number;
  /** Slippage tolerance of the computed minimums, in basis points. Default 50. */
  slippageBps?: number;
  logger?: DevnetLogger;
  /**
   * The user accounts to send from, shared with other protocols' traffic (run-devnet.ts);
   * default a pool of the manifest's accounts of its own.
   */
  accounts?: AccountPool;
}

/** One transfer the generator sent (kept for the last 1,000). */
export interface TrafficTransfer {
  messageId: Hex;
  txHash: Hex;
  /** The user account that sent it. */
  from: Address;
  kind: BridgeKind;
  sourceChainId: number;
  destChainId: number;
  sourceSwap: boolean;
  destSwap: boolean;
  expectFailure: boolean;
}

export interface TrafficStats {
  sent: Record<`${BridgeKind}`, number>;
  expectedFailures: number;
  /** Transfers given up before or at the source (no route, no balance, revert). */
  skipped: number;
  errors: number;
}

export interface TrafficGenerator {
  start(): void;
  stop(): Promise<void>;
  stats(): TrafficStats;
  transfers(): readonly TrafficTransfer[];
  /** Sends one transfer now from a free account (also what each scheduled tick does). */
  sendOne(): Promise<TrafficTransfer | null>;
}

const same = (a: Address, b: Address): boolean => a.toLowerCase() === b.toLowerCase();

const KIND_ORDER: readonly BridgeKind[] = [0, 1, 2];

export function createTrafficGenerator(
  parameters: CreateTrafficGeneratorParameters,
): TrafficGenerator {
  const { manifest } = parameters;
  const logger = parameters.logger ?? silentLogger;
  const failureRate = parameters.failureRate ?? 0.15;
  const slippageBps = BigInt(parameters.slippageBps ?? 50);
  const random: Random = createRandom(parameters.seed ?? Date.now());
  const intervalMs = Math.max(50, Math.round(60_000 / Math.max(parameters.perMinute, 0.001)));

  // One client set per (account, chain): each account's nonces are its own.
  const clients = new Map<string, DevnetChainClients>();
  const clientsFor = (account: ManifestAccount, chainId: number): DevnetChainClients => {
    const key = `${account.address}:${chainId}`;
    let found = clients.get(key);
    if (found === undefined) {
      const chain = manifest.chains.find((c) => c.chainId === chainId);
      if (chain === undefined) throw new Error(`unknown chain ${chainId}`);
      found = createDevnetClients(chain, account.privateKey);
      clients.set(key, found);
    }
    return found;
  };
  const readerFor = (chainId: number): DevnetChainClients => {
    const first = manifest.accounts[0];
    if (first === undefined) throw new Error("the manifest has no user accounts");
    return clientsFor(first, chainId);
  };

  const accounts = parameters.accounts ?? createAccountPool(manifest.accounts);
  const inFlight = new Set<Promise<unknown>>();
  const sentLog: TrafficTransfer[] = [];
  const stats: TrafficStats = {
    sent: { 0: 0, 1: 0, 2: 0 },
    expectedFailures: 0,
    skipped: 0,
    errors: 0,
  };
  let kindCursor = 0;
  let firstPicked = false;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let abort = new AbortController();

  async function ensureAllowance(
    account: ManifestAccount,
    chainId: number,
    token: Address,
    spender: Address,
    amount: bigint,
  ): Promise<void> {
    // Read every time, never remembered: the accounts are the devnet's users, and a user who
    // executes a quote from one (approve(bridge, amount), then bridge(p), as
    // docs/devnet-contracts.md says) replaces this unlimited allowance with one bridge() spends.
    const { publicClient, walletClient } = clientsFor(account, chainId);
    const allowance = await publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "allowance",
      args: [account.address, spender],
    });
    if (allowance < amount) {
      // An unlimited allowance: later transfers find it and skip this step.
      const hash = await walletClient.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: "approve",
        args: [spender, maxUint256],
      });
      await waitForReceipt(publicClient, hash, { signal: abort.signal });
    }
  }

  async function balanceOf(chainId: number, token: Address, owner: Address): Promise<bigint> {
    const { publicClient } = readerFor(chainId);
    if (same(token, zeroAddress)) return publicClient.getBalance({ address: owner });
    return publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [owner],
    });
  }

  async function amountsOut(chainId: number, amount: bigint, path: Address[]): Promise<bigint> {
    const chain = manifest.chains.find((c) => c.chainId === chainId);
    if (chain === undefined) throw new Error(`unknown chain ${chainId}`);
    return adapterSwapOut(readerFor(chainId).publicClient, chain, path, amount);
  }

  /**
   * Computes BridgeParams for `choice` and `amount` from current chain state (docs/protocol.md,
   * "Bridge entry" and the router's quote rule). Null when the amount is outside the limits.
   */
  async function buildParams(
    choice: TransferChoice,
    amount: bigint,
    to: Address,
  ): Promise<BridgeParams | null> {
    const { source, dest, link, kind } = choice;
    const sourceBridge = source.bridges[`${kind}`];
    const destChainId = BigInt(dest.bridgeChainIds[`${kind}`]);
    const reader = readerFor(source.chainId).publicClient;
    const bridgeTokenDecimals = source.tokens.find((t) =>
      same(t.address, link.sourceToken),
    )?.decimals;
    const destBridgeDecimals = dest.tokens.find((t) => same(t.address, link.destToken))?.decimals;
    if (bridgeTokenDecimals === undefined || destBridgeDecimals === undefined) return null;

    const sourceSwap = !same(choice.sourceToken.address, link.sourceToken);
    let expectedBridgeAmount = amount;
    let sourceMinAmount = amount;
    if (sourceSwap) {
      const path = swapPath(source, choice.sourceToken.address, link.sourceToken);
      if (path === null) return null;
      expectedBridgeAmount = await amountsOut(source.chainId, amount, path);
      sourceMinAmount = applySlippage(expectedBridgeAmount, slippageBps);
    }
    const [feeBps, flatFee, minAmount, maxAmount] = await reader.readContract({
      address: sourceBridge,
      abi: bridgeEntryAbi,
      functionName: "tokenConfig",
      args: [link.sourceToken],
    });
    const config = { feeBps, flatFee, minAmount, maxAmount };
    const xprotoFee =
      kind === 2
        ? await reader.readContract({
            address: sourceBridge,
            abi: bridgeEntryAbi,
            functionName: "xprotoFee",
            args: [destChainId],
          })
        : 0n;
    const basis = sourceSwap ? sourceMinAmount : amount;
    if (sourceMinAmount < minAmount || (maxAmount > 0n && expectedBridgeAmount > maxAmount)) {
      return null;
    }
    const fee = bridgeFee(config, basis) + xprotoFee;
    const chargedBridgeFee = fee - xprotoFee; // bridgeFee(actual) >= bridgeFee(basis): capped
    if (basis <= fee) return null;
    const expectedDestBridge = convertDecimals(
      expectedBridgeAmount - chargedBridgeFee - xprotoFee,
      bridgeTokenDecimals,
      destBridgeDecimals,
    );
    const worstDestBridge = convertDecimals(basis - fee, bridgeTokenDecimals, destBridgeDecimals);

    const destSwap = !same(choice.destToken.address, link.destToken);
    let destMinAmount: bigint;
    if (destSwap) {
      const path = swapPath(dest, link.destToken, choice.destToken.address);
      if (path === null) return null;
      const expectedOut = await amountsOut(dest.chainId, expectedDestBridge, path);
      destMinAmount =
        choice.failure === "dest-min-too-high"
          ? (expectedOut * 3n) / 2n + 1n // above anything the pool can give: fails, then refund
          : applySlippage(expectedOut, slippageBps);
    } else {
      // The lower of the slippage minimum and what the source guarantees (bigint: no Math.min).
      destMinAmount = applySlippage(expectedDestBridge, slippageBps);
      if (worstDestBridge < destMinAmount) destMinAmount = worstDestBridge;
    }
    return {
      destChainId,
      sourceToken: choice.sourceToken.address,
      destToken: choice.destToken.address,
      amount,
      fee,
      to,
      sourceSwap,
      sourceSwapFee: sourceSwap ? (amount * 3n) / 1000n : 0n,
      sourceBridgeToken: link.sourceToken,
      sourceMinAmount,
      destSwap,
      destSwapFee: destSwap ? (expectedDestBridge * 3n) / 1000n : 0n,
      destBridgeToken: link.destToken,
      destMinAmount,
    };
  }

  async function sendFrom(account: ManifestAccount): Promise<TrafficTransfer | null> {
    const kind = KIND_ORDER[kindCursor++ % KIND_ORDER.length] ?? 0;
    // A few random draws per transfer: some choices have no route or fall outside the limits.
    let planned: { choice: TransferChoice; amount: bigint; params: BridgeParams } | null = null;
    for (let draw = 0; draw < 5 && planned === null; draw++) {
      const choice = chooseTransfer(manifest, random, { kind, failureRate });
      if (choice === null) continue;
      let amount = amountForUsd(choice.sourceToken, choice.usdCents);
      const balance = await balanceOf(
        choice.source.chainId,
        choice.sourceToken.address,
        account.address,
      );
      // Never spend more than a quarter of what is left (the native coin also pays for gas).
      if (amount > balance / 4n) amount = balance / 4n;
      if (amount === 0n) continue;
      const params = await buildParams(choice, amount, random.pick(manifest.accounts).address);
      if (params !== null) planned = { choice, amount, params };
    }
    if (planned === null) {
      stats.skipped++;
      return null;
    }
    const { choice, amount, params } = planned;
    const { source, dest } = choice;
    const bridge = source.bridges[`${kind}`];
    const isNative = same(params.sourceToken, zeroAddress);
    if (!isNative)
      await ensureAllowance(account, source.chainId, params.sourceToken, bridge, amount);
    const { publicClient, walletClient } = clientsFor(account, source.chainId);
    const call = {
      address: bridge,
      abi: bridgeEntryAbi,
      functionName: "bridge",
      args: [params],
      value: isNative ? amount : 0n,
    } as const;
    const estimate = await publicClient.estimateContractGas({ ...call, account: account.address });
    const gas = withGasHeadroom(estimate);
    const txHash = await walletClient.writeContract({ ...call, gas });
    const receipt = await waitForReceipt(publicClient, txHash, { signal: abort.signal });
    if (receipt.status !== "success") {
      const tx = await publicClient.getTransaction({ hash: txHash });
      throw new Error(
        `bridge transaction ${txHash} reverted (gas used ${receipt.gasUsed} of ${tx.gas})`,
      );
    }
    const [event] = parseEventLogs({
      abi: bridgeEventsAbi,
      eventName: "TransferSent",
      logs: receipt.logs,
    });
    if (event === undefined) throw new Error(`no TransferSent in ${txHash}`);
    const transfer: TrafficTransfer = {
      messageId: event.args.messageId,
      txHash,
      from: account.address,
      kind,
      sourceChainId: source.chainId,
      destChainId: dest.chainId,
      sourceSwap: params.sourceSwap,
      destSwap: params.destSwap,
      expectFailure: choice.failure !== "none",
    };
    stats.sent[`${kind}`]++;
    if (transfer.expectFailure) stats.expectedFailures++;
    sentLog.push(transfer);
    if (sentLog.length > 1000) sentLog.shift();
    logger.info(
      `sent ${event.args.messageId.slice(0, 10)}… kind ${kind} ${source.name}->${dest.name} ` +
        `${formatAmount(amount, choice.sourceToken.decimals)} ${choice.sourceToken.symbol} -> ` +
        `${choice.destToken.symbol}${transfer.expectFailure ? " (built to fail)" : ""}`,
    );
    return transfer;
  }

  async function sendOne(): Promise<TrafficTransfer | null> {
    const free = accounts.free();
    if (free.length === 0) return null;
    // A run's first transfer comes from the first user account: `start`'s banner prints a list
    // query for that address (demoAddress in src/start/banner.ts), which then soon shows one.
    const first = manifest.accounts[0];
    const account =
      !firstPicked && first !== undefined && free.includes(first) ? first : random.pick(free);
    firstPicked = true;
    accounts.take(account);
    try {
      return await sendFrom(account);
    } catch (error) {
      stats.errors++;
      if (running)
        logger.warn(`transfer from ${account.address.slice(0, 8)}… failed: ${errorMessage(error)}`);
      return null;
    } finally {
      accounts.release(account);
    }
  }

  function schedule(): void {
    if (!running) return;
    // Jitter of +-50 % keeps the rate on average while avoiding lockstep with block times.
    const wait = Math.round(intervalMs * (0.5 + random.next()));
    timer = setTimeout(() => {
      const work = sendOne().finally(() => inFlight.delete(work));
      inFlight.add(work);
      schedule();
    }, wait);
  }

  return {
    start() {
      if (running) return;
      running = true;
      abort = new AbortController();
      logger.info(`traffic: ${parameters.perMinute} transfers per minute`);
      schedule();
    },
    async stop() {
      running = false;
      abort.abort();
      if (timer !== undefined) clearTimeout(timer);
      await settleWithin([...inFlight], STOP_GRACE_MS);
    },
    stats: () => ({ ...stats, sent: { ...stats.sent } }),
    transfers: () => sentLog,
    sendOne,
  };
}
