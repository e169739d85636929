/**
 * The reference bridge's relayer on the devnet (docs/protocol.md, "Delivery, failure and
 * refund"); other protocols relay with their own (src/devnet/protocols/). It polls every chain's
 * bridges and messaging endpoint with eth_getLogs and:
 *
 * - on TransferSent waits `confirmations` blocks and `delayMs`, then delivers on the destination
 *   as the relayer account (kinds 0/1: `bridge.deliver(message)`; kind 2: the endpoint's
 *   `deliver` with the packet of the matching PacketSent);
 * - on TransferFailed calls `refund(messageId)` on the source bridge.
 *
 * Idempotent: on start it rescans from each chain's deploy block, so state on chain (the
 * TransferDelivered / TransferFailed / TransferRefunded events) tells it what is already done;
 * before each action it checks those events for the message id once more and treats an
 * "already done" revert as done. A restarted relayer therefore never delivers twice.
 */
import { type Address, type Hex, type Log, parseEventLogs } from "viem";
import type { BridgeKind } from "../../../domain/bridge-kind.js";
import {
  createDevnetClients,
  type DevnetChainClients,
  waitForReceipt,
  withGasHeadroom,
} from "../../chain-clients.js";
import { type DevnetLogger, errorMessage, silentLogger } from "../../logger.js";
import type { DevnetManifest, ManifestChain } from "../../manifest.js";
import { STOP_GRACE_MS, settleWithin } from "../../settle.js";
import { bridgeEventsAbi, bridgeRelayAbi, endpointAbi } from "./relayer-abi.js";
import {
  type BridgeMessage,
  backoffMs,
  bridgeKindOf,
  buildBridgeMessage,
  chainByBridgeId,
  isAlreadyProcessedRevert,
  nextScanRange,
  type TransferSentArgs,
} from "./relayer-messages.js";

export interface CreateRelayerParameters {
  manifest: DevnetManifest;
  /** Minimum wait between seeing a (confirmed) event and acting on it. Default 0. */
  delayMs?: number;
  /** Blocks that must be on top of an event's block before the relayer acts. Default 1. */
  confirmations?: number;
  /** How often each chain is polled. Default 300 ms. */
  pollIntervalMs?: number;
  logger?: DevnetLogger;
}

export interface RelayerStats {
  /**
   * Delivery / refund transactions this relayer instance sent and saw mined successfully (a
   * delivery counts even when the destination reported TransferFailed in it).
   */
  delivered: number;
  refunded: number;
  /** Messages seen on chain in each state (including those handled by an earlier relayer). */
  seenSent: number;
  seenDone: number;
  seenFailed: number;
  seenRefunded: number;
  /** Actions waiting for their delay, their confirmations or a retry. */
  pending: number;
  /** Polls finished (each chain scanned, or its failure noted, and due actions started). */
  polls: number;
}

export interface Relayer {
  start(): Promise<void>;
  stop(): Promise<void>;
  stats(): RelayerStats;
  /** Resolves once every chain has been scanned up to its confirmed head at least once. */
  caughtUp(): Promise<void>;
}

interface PacketSentArgs {
  guid: Hex;
  srcEid: number;
  dstEid: number;
  sender: Address;
  receiver: Address;
  payload: Hex;
}

/** A delivery or refund waiting to be sent. */
interface Job {
  type: "deliver" | "refund";
  messageId: Hex;
  kind: BridgeKind;
  /** The chain the transaction goes to (destination for deliveries, source for refunds). */
  target: ManifestChain;
  source: ManifestChain;
  sent: TransferSentArgs;
  notBefore: number;
  attempts: number;
  inFlight: boolean;
}

interface ChainState {
  chain: ManifestChain;
  clients: DevnetChainClients;
  /** Last scanned block; invariant `cursor <= head - confirmations`. */
  cursor: bigint;
  failures: number;
  nextScanAt: number;
  addresses: Address[];
}

export function createRelayer(parameters: CreateRelayerParameters): Relayer {
  const { manifest } = parameters;
  const delayMs = parameters.delayMs ?? 0;
  const confirmations = Math.max(0, parameters.confirmations ?? 1);
  const pollIntervalMs = parameters.pollIntervalMs ?? 300;
  const logger = parameters.logger ?? silentLogger;

  const chains = new Map<number, ChainState>();
  for (const chain of manifest.chains) {
    chains.set(chain.chainId, {
      chain,
      clients: createDevnetClients(chain, manifest.relayer.privateKey),
      cursor: BigInt(chain.deployBlock) - 1n,
      failures: 0,
      nextScanAt: 0,
      addresses: [
        chain.bridges["0"],
        chain.bridges["1"],
        chain.bridges["2"],
        chain.messagingEndpoint,
      ],
    });
  }

  const sentById = new Map<
    Hex,
    { kind: BridgeKind; source: ManifestChain; sent: TransferSentArgs }
  >();
  const packets = new Map<Hex, PacketSentArgs>();
  const done = new Set<Hex>(); // delivered or failed on the destination
  const failed = new Set<Hex>();
  const refunded = new Set<Hex>();
  const jobs = new Map<string, Job>();
  const counters = { delivered: 0, refunded: 0, polls: 0 };

  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: () => void = () => {};
  let abort = new AbortController();
  let loop: Promise<void> | undefined;
  let firstPassDone = false;
  const inFlight = new Set<Promise<void>>();
  const caughtUpWaiters: Array<() => void> = [];

  const short = (id: Hex): string => `${id.slice(0, 10)}…`;

  function queue(job: Omit<Job, "attempts" | "inFlight">): void {
    const key = `${job.type}:${job.messageId}`;
    if (!jobs.has(key)) jobs.set(key, { ...job, attempts: 0, inFlight: false });
  }

  function onTransferSent(state: ChainState, kind: BridgeKind, sent: TransferSentArgs): void {
    sentById.set(sent.messageId, { kind, source: state.chain, sent });
    const dest = chainByBridgeId(manifest, kind, sent.destChainId);
    if (dest === undefined) {
      logger.warn(`${short(sent.messageId)} kind ${kind} to unknown chain ${sent.destChainId}`);
      return;
    }
    if (!done.has(sent.messageId)) {
      queue({
        type: "deliver",
        messageId: sent.messageId,
        kind,
        target: dest,
        source: state.chain,
        sent,
        notBefore: Date.now() + delayMs,
      });
    }
  }

  function queueRefundIfKnown(messageId: Hex): void {
    const origin = sentById.get(messageId);
    if (origin === undefined || refunded.has(messageId)) return;
    queue({
      type: "refund",
      messageId,
      kind: origin.kind,
      target: origin.source,
      source: origin.source,
      sent: origin.sent,
      notBefore: Date.now() + delayMs,
    });
  }

  async function scanChain(state: ChainState): Promise<void> {
    const { publicClient } = state.clients;
    const head = await publicClient.getBlockNumber({ cacheTime: 0 });
    for (;;) {
      const range = nextScanRange(state.cursor, head, confirmations);
      if (range === null) return;
      const logs = await publicClient.getLogs({
        address: state.addresses,
        events: [...bridgeEventsAbi, ...endpointAbi.filter((item) => item.type === "event")],
        fromBlock: range.fromBlock,
        toBlock: range.toBlock,
      });
      for (const log of logs) {
        if (log.eventName === "PacketSent") {
          const guid = log.args.guid as Hex;
          if (!done.has(guid)) packets.set(guid, log.args as PacketSentArgs);
          continue;
        }
        const kind = bridgeKindOf(state.chain, log.address);
        if (kind === undefined) continue;
        switch (log.eventName) {
          case "TransferSent":
            onTransferSent(state, kind, log.args as TransferSentArgs);
            break;
          case "TransferDelivered":
            done.add(log.args.messageId as Hex);
            packets.delete(log.args.messageId as Hex); // delivered: the payload is not needed
            jobs.delete(`deliver:${log.args.messageId}`);
            break;
          case "TransferFailed": {
            const messageId = log.args.messageId as Hex;
            done.add(messageId);
            packets.delete(messageId);
            failed.add(messageId);
            jobs.delete(`deliver:${messageId}`);
            break;
          }
          case "TransferRefunded":
            refunded.add(log.args.messageId as Hex);
            jobs.delete(`refund:${log.args.messageId}`);
            break;
        }
      }
      state.cursor = range.toBlock;
    }
  }

  /** Whether the destination (or source, for refunds) already shows the job as done. */
  async function alreadyDoneOnChain(job: Job): Promise<boolean> {
    const { publicClient } = chains.get(job.target.chainId)?.clients ?? {};
    if (publicClient === undefined) return false;
    const bridge = job.target.bridges[`${job.kind}`];
    const names =
      job.type === "deliver" ? ["TransferDelivered", "TransferFailed"] : ["TransferRefunded"];
    const counts = await Promise.all(
      bridgeEventsAbi
        .filter((event) => names.includes(event.name))
        .map(async (event) => {
          const logs = await publicClient.getLogs({
            address: bridge,
            event,
            args: { messageId: job.messageId },
            fromBlock: BigInt(job.target.deployBlock),
            toBlock: "latest",
          });
          return logs.length;
        }),
    );
    return counts.some((count) => count > 0);
  }

  async function sendJob(job: Job): Promise<Hex> {
    const clients = chains.get(job.target.chainId)?.clients;
    if (clients === undefined) throw new Error(`no clients for chain ${job.target.chainId}`);
    const { publicClient, walletClient } = clients;
    const account = walletClient.account;
    // Each with a gas limit above the estimate (withGasHeadroom): a destination swap's gas
    // depends on the block the delivery lands in.
    if (job.type === "refund") {
      const { request } = await publicClient.simulateContract({
        account,
        address: job.target.bridges[`${job.kind}`],
        abi: bridgeRelayAbi,
        functionName: "refund",
        args: [job.messageId],
      });
      const gas = withGasHeadroom(await publicClient.estimateContractGas(request));
      return walletClient.writeContract({ ...request, gas });
    }
    if (job.kind === 2) {
      const packet = packets.get(job.messageId);
      if (packet === undefined) throw new Error("PacketSent not seen yet");
      const { request } = await publicClient.simulateContract({
        account,
        address: job.target.messagingEndpoint,
        abi: endpointAbi,
        functionName: "deliver",
        args: [packet.guid, packet.srcEid, packet.sender, packet.receiver, packet.payload],
      });
      const gas = withGasHeadroom(await publicClient.estimateContractGas(request));
      return walletClient.writeContract({ ...request, gas });
    }
    const message: BridgeMessage = buildBridgeMessage(job.sent, job.source, job.kind);
    const { request } = await publicClient.simulateContract({
      account,
      address: job.target.bridges[`${job.kind}`],
      abi: bridgeRelayAbi,
      functionName: "deliver",
      args: [message],
    });
    const gas = withGasHeadroom(await publicClient.estimateContractGas(request));
    return walletClient.writeContract({ ...request, gas });
  }

  /** Done by someone (an earlier relayer run, or a transaction not yet scanned): never again. */
  function markDone(job: Job): void {
    jobs.delete(`${job.type}:${job.messageId}`);
    if (job.type === "deliver") done.add(job.messageId);
    else refunded.add(job.messageId);
  }

  async function runJob(job: Job): Promise<void> {
    const key = `${job.type}:${job.messageId}`;
    const label =
      job.type === "deliver"
        ? `deliver ${short(job.messageId)} kind ${job.kind} ${job.source.name}->${job.target.name}`
        : `refund ${short(job.messageId)} kind ${job.kind} on ${job.target.name}`;
    job.inFlight = true;
    try {
      if (await alreadyDoneOnChain(job)) {
        markDone(job);
        return;
      }
      const hash = await sendJob(job);
      const clients = chains.get(job.target.chainId)?.clients;
      if (clients === undefined) throw new Error(`no clients for chain ${job.target.chainId}`);
      const receipt = await waitForReceipt(clients.publicClient, hash, { signal: abort.signal });
      if (receipt.status === "success") {
        jobs.delete(key);
        if (job.type === "deliver") {
          done.add(job.messageId);
          counters.delivered++;
        } else {
          refunded.add(job.messageId);
          counters.refunded++;
        }
        logger.info(`${label}: ${describeOutcome(job.type, receipt.logs)}`);
        return;
      }
      throw new Error(`transaction ${hash} reverted`);
    } catch (error) {
      const message = errorMessage(error);
      if (isAlreadyProcessedRevert(message)) {
        markDone(job);
        logger.info(`${label}: already done on chain`);
        return;
      }
      job.attempts++;
      job.notBefore = Date.now() + backoffMs(job.attempts);
      if (running && (job.attempts === 1 || job.attempts % 5 === 0)) {
        logger.warn(`${label}: attempt ${job.attempts} failed: ${message}`);
      }
    } finally {
      job.inFlight = false;
    }
  }

  async function tick(): Promise<void> {
    const now = Date.now();
    await Promise.all(
      [...chains.values()]
        .filter((state) => state.nextScanAt <= now)
        .map(async (state) => {
          try {
            await scanChain(state);
            if (state.failures > 0) logger.info(`${state.chain.name}: RPC reachable again`);
            state.failures = 0;
          } catch (error) {
            state.failures++;
            state.nextScanAt = Date.now() + backoffMs(state.failures);
            if (running && (state.failures === 1 || state.failures % 10 === 0)) {
              logger.warn(
                `${state.chain.name}: scan failed (${state.failures}x): ${errorMessage(error)}`,
              );
            }
          }
        }),
    );
    if (!firstPassDone && [...chains.values()].every((state) => state.failures === 0)) {
      firstPassDone = true;
      for (const resolve of caughtUpWaiters.splice(0)) resolve();
    }
    // Failures seen on a destination before their TransferSent was scanned get their refund now.
    for (const messageId of failed) if (!refunded.has(messageId)) queueRefundIfKnown(messageId);

    const due = [...jobs.values()].filter((job) => !job.inFlight && job.notBefore <= Date.now());
    // Jobs run concurrently and outside the tick, so waiting for a receipt never holds up
    // scanning: each chain's wallet has its own nonce manager, and no two jobs share a message
    // id, so their order does not matter.
    for (const job of due) {
      const running = runJob(job).finally(() => inFlight.delete(running));
      inFlight.add(running);
    }
    counters.polls++;
  }

  async function runLoop(): Promise<void> {
    while (running) {
      const started = Date.now();
      try {
        await tick();
      } catch (error) {
        logger.error(`tick failed: ${errorMessage(error)}`);
      }
      if (!running) break;
      const wait = Math.max(0, pollIntervalMs - (Date.now() - started));
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, wait);
      });
    }
  }

  return {
    async start() {
      if (running) return;
      running = true;
      abort = new AbortController();
      logger.info(
        `relaying ${manifest.chains.map((c) => c.name).join(", ")} (confirmations ${confirmations}, delay ${delayMs} ms)`,
      );
      loop = runLoop();
    },
    async stop() {
      running = false;
      abort.abort();
      if (timer !== undefined) clearTimeout(timer);
      wake(); // ends the loop's sleep now (clearing the timer alone would leave it pending)
      await loop;
      loop = undefined;
      // A job waiting for a receipt from a node that is already gone must not hold up shutdown.
      await settleWithin([...inFlight], STOP_GRACE_MS);
    },
    stats() {
      return {
        delivered: counters.delivered,
        refunded: counters.refunded,
        seenSent: sentById.size,
        seenDone: done.size,
        seenFailed: failed.size,
        seenRefunded: refunded.size,
        pending: jobs.size,
        polls: counters.polls,
      };
    },
    caughtUp() {
      if (firstPassDone) return Promise.resolve();
      return new Promise((resolve) => caughtUpWaiters.push(resolve));
    },
  };
}

/** One word on what a delivery or refund transaction did, from its events. */
function describeOutcome(type: Job["type"], logs: Log[]): string {
  const [event] = parseEventLogs({ abi: bridgeEventsAbi, logs });
  if (event?.eventName === "TransferFailed")
    return `failed on the destination (${event.args.reason})`;
  if (event?.eventName === "TransferDelivered") return "delivered";
  return type === "deliver" ? "delivered" : "refunded";
}
