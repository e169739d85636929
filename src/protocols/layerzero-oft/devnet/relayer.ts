/**
 * The devnet's LayerZero DVN + executor. It polls every chain's EndpointV2 for PacketSent and, for
 * each packet, on the destination chain:
 *
 * 1. verifies it: SimpleMessageLib.validatePacket(packet) (the library calls EndpointV2.verify, so
 *    the payload hash is stored: PacketVerified);
 * 2. executes it: EndpointV2.lzReceive(origin, receiver, guid, message, "") after an eth_call
 *    shows it would succeed (PacketDelivered, and the OFT's OFTReceived);
 * 3. when lzReceive would revert, raises EndpointV2.lzReceiveAlert(..., reason) once (LzReceiveAlert:
 *    the payload stays stored, the transfer stays Processing) and tries again later with a growing
 *    delay, until it goes through;
 * 4. for each ComposeSent the delivery emitted (an OFT send with a composeMsg), calls
 *    EndpointV2.lzCompose(from, to, guid, index, message, "") right after, with the lzCompose gas
 *    the packet's executor options ask for (options.ts; a default without one), the executor's
 *    other job. A compose that would revert raises lzComposeAlert once and is retried like a
 *    delivery. Composes are also found by scanning each endpoint for ComposeSent, so one queued
 *    before a restart is still executed; the endpoint's composeQueue says which are done.
 *
 * Idempotent from chain state alone: a packet whose payload hash is gone and whose nonce is at or
 * below the lazy inbound nonce was delivered; one with a stored hash is verified and waits for
 * execution. A restarted relayer rescans from the deploy blocks and redoes nothing (except that an
 * alert for a still-reverting packet is raised once per relayer run).
 */
import {
  type Address,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  parseEventLogs,
  type Transport,
  type WalletClient,
  zeroHash,
} from "viem";
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { createNonceManager, jsonRpc } from "viem/nonce";
import { backoffDelayMs } from "../../../backoff.js";
import { endpointAbi, simpleMessageLibAbi } from "../abi.js";
import { composeGasOf, decodeExecutorOptions } from "../options.js";
import { bytes32ToAddress, decodePacket, type Packet } from "../packet.js";
import type { LayerZeroManifest, LayerZeroManifestChain } from "./manifest.js";

export interface LayerZeroRelayerChain {
  chainId: number;
  rpcUrl: string;
  /** Scanning starts here. */
  deployBlock: number;
}

export interface CreateLayerZeroRelayerParameters {
  layerzero: LayerZeroManifest;
  chains: readonly LayerZeroRelayerChain[];
  pollIntervalMs?: number;
  /** Blocks that must be on top of a PacketSent before it is worked. Default 0. */
  confirmations?: number;
  /** First delay before retrying a delivery that reverted; doubles up to 10 s. Default 500 ms. */
  retryDelayMs?: number;
  logger?: { info(message: string): void; warn(message: string): void };
}

export interface LayerZeroRelayerStats {
  seen: number;
  verified: number;
  delivered: number;
  alerted: number;
  /** Packets verified or waiting whose delivery has not gone through yet. */
  pending: number;
  /** lzCompose calls that went through. */
  composed: number;
  /** lzComposeAlert raised (a compose that reverted, to be retried). */
  composeAlerted: number;
  /** Composes queued on an endpoint and not executed yet. */
  composePending: number;
}

export interface LayerZeroRelayer {
  start(): void;
  stop(): Promise<void>;
  stats(): LayerZeroRelayerStats;
  /** One pass now: scan every chain, then work every due packet. */
  poll(): Promise<void>;
}

interface ChainLink {
  manifest: LayerZeroManifestChain;
  publicClient: PublicClient<Transport, Chain>;
  walletClient: WalletClient<Transport, Chain, PrivateKeyAccount>;
  cursor: bigint;
  /** Scans failed in a row: a streak is logged once, not once per poll. */
  failures: number;
}

interface Job {
  packet: Packet;
  encoded: Hex;
  attempts: number;
  notBefore: number;
  alerted: boolean;
}

const LZ_RECEIVE_GAS = 1_000_000n;
/** lzCompose gas when the packet's options name none (or were not seen). */
const DEFAULT_COMPOSE_GAS = 2_000_000n;
/** The endpoint's own work around the composer's call (hash check, queue write, event). */
const COMPOSE_OVERHEAD_GAS = 100_000n;
/** composeQueue's value once a compose went through (MessagingComposer.RECEIVED_MESSAGE_HASH). */
const COMPOSE_RECEIVED = `0x${"0".repeat(63)}1`;

interface ComposeJob {
  key: string;
  eid: number;
  from: Address;
  to: Address;
  guid: Hex;
  index: number;
  message: Hex;
  attempts: number;
  notBefore: number;
  alerted: boolean;
}
const MAX_RETRY_MS = 10_000;
const STOP_GRACE_MS = 2_000;

/** The revert data inside a viem error chain ("0x" when none is found). */
export function revertDataOf(error: unknown): Hex {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current !== undefined && current !== null; depth++) {
    const data = (current as { data?: unknown }).data;
    if (typeof data === "string" && data.startsWith("0x")) return data as Hex;
    if (
      typeof data === "object" &&
      data !== null &&
      typeof (data as { data?: unknown }).data === "string"
    ) {
      return (data as { data: Hex }).data;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return "0x";
}

export function createLayerZeroRelayer(p: CreateLayerZeroRelayerParameters): LayerZeroRelayer {
  const pollIntervalMs = p.pollIntervalMs ?? 300;
  const confirmations = BigInt(Math.max(0, p.confirmations ?? 0));
  const retryDelayMs = p.retryDelayMs ?? 500;
  const account = privateKeyToAccount(p.layerzero.executor.privateKey, {
    nonceManager: createNonceManager({ source: jsonRpc() }),
  });
  const links = new Map<number, ChainLink>();
  for (const lz of p.layerzero.chains) {
    const chain = p.chains.find((c) => c.chainId === lz.chainId);
    if (chain === undefined) throw new Error(`no RPC for LayerZero chain ${lz.chainId}`);
    const viemChain = defineChain({
      id: chain.chainId,
      name: `devnet ${chain.chainId}`,
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    });
    const transport = http(chain.rpcUrl, { retryCount: 3, retryDelay: 200, timeout: 10_000 });
    links.set(lz.eid, {
      manifest: lz,
      publicClient: createPublicClient({
        chain: viemChain,
        transport,
        pollingInterval: 50,
        cacheTime: 0,
      }),
      walletClient: createWalletClient({
        chain: viemChain,
        transport,
        account,
        pollingInterval: 50,
      }),
      cursor: BigInt(chain.deployBlock) - 1n,
      failures: 0,
    });
  }
  const jobs = new Map<Hex, Job>();
  const composeJobs = new Map<string, ComposeJob>();
  /** lzCompose gas by guid, from the packets' executor options (only packets that ask for one). */
  const composeGas = new Map<Hex, bigint>();
  const counters = {
    seen: 0,
    verified: 0,
    delivered: 0,
    alerted: 0,
    composed: 0,
    composeAlerted: 0,
  };
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let loop: Promise<void> | undefined;

  async function scan(link: ChainLink): Promise<void> {
    // Invariant: cursor <= head - confirmations.
    const head = (await link.publicClient.getBlockNumber()) - confirmations;
    if (head <= link.cursor) return;
    const logs = await link.publicClient.getLogs({
      address: link.manifest.endpoint,
      fromBlock: link.cursor + 1n,
      toBlock: head,
    });
    for (const log of parseEventLogs({ abi: endpointAbi, eventName: "PacketSent", logs })) {
      const packet = decodePacket(log.args.encodedPayload);
      rememberComposeGas(packet.guid, log.args.options);
      if (jobs.has(packet.guid)) continue;
      counters.seen++;
      jobs.set(packet.guid, {
        packet,
        encoded: log.args.encodedPayload,
        attempts: 0,
        notBefore: 0,
        alerted: false,
      });
    }
    queueComposes(link.manifest.eid, logs);
    link.cursor = head;
    if (link.failures > 0) p.logger?.info(`LayerZero scan of eid ${link.manifest.eid} works again`);
    link.failures = 0;
  }

  function rememberComposeGas(guid: Hex, options: Hex): void {
    try {
      const gas = composeGasOf(decodeExecutorOptions(options));
      if (gas !== null) composeGas.set(guid, gas);
    } catch {
      // Options the devnet cannot read (legacy types): the compose gets the default gas.
    }
  }

  /** A compose job per ComposeSent among `logs` (emitted on the chain of `eid`). */
  function queueComposes(eid: number, logs: Parameters<typeof parseEventLogs>[0]["logs"]): void {
    for (const log of parseEventLogs({ abi: endpointAbi, eventName: "ComposeSent", logs })) {
      const { from, to, guid, index, message } = log.args;
      const key = `${eid}:${from}:${to}:${guid}:${index}`.toLowerCase();
      if (composeJobs.has(key)) continue;
      composeJobs.set(key, {
        key,
        eid,
        from,
        to,
        guid,
        index,
        message,
        attempts: 0,
        notBefore: 0,
        alerted: false,
      });
    }
  }

  async function send(
    link: ChainLink,
    to: Address,
    data: Hex,
    gas?: bigint,
  ): Promise<Awaited<ReturnType<typeof link.publicClient.waitForTransactionReceipt>>> {
    const hash = await link.walletClient.sendTransaction({
      to,
      data,
      ...(gas === undefined ? {} : { gas }),
    });
    const receipt = await link.publicClient.waitForTransactionReceipt({
      hash,
      pollingInterval: 50,
      timeout: 30_000,
    });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    return receipt;
  }

  /** true when the packet is done (delivered), false when it must be tried again. */
  async function work(job: Job): Promise<boolean> {
    const { packet } = job;
    const link = links.get(packet.dstEid);
    if (link === undefined) return true; // not a devnet chain: nobody can deliver it
    const endpoint = link.manifest.endpoint;
    const receiver = bytes32ToAddress(packet.receiver);
    const read = <T>(functionName: string, args: readonly unknown[]): Promise<T> =>
      link.publicClient.readContract({
        address: endpoint,
        abi: endpointAbi,
        functionName,
        args,
      } as never) as Promise<T>;
    const [payloadHash, lazyNonce] = await Promise.all([
      read<Hex>("inboundPayloadHash", [receiver, packet.srcEid, packet.sender, packet.nonce]),
      read<bigint>("lazyInboundNonce", [receiver, packet.srcEid, packet.sender]),
    ]);
    if (payloadHash === zeroHash && packet.nonce <= lazyNonce) return true;
    if (payloadHash === zeroHash) {
      await send(
        link,
        link.manifest.messageLib,
        encodeFunctionData({
          abi: simpleMessageLibAbi,
          functionName: "validatePacket",
          args: [job.encoded],
        }),
      );
      counters.verified++;
    }
    const origin = { srcEid: packet.srcEid, sender: packet.sender, nonce: packet.nonce };
    const receive = encodeFunctionData({
      abi: endpointAbi,
      functionName: "lzReceive",
      args: [origin, receiver, packet.guid, packet.message, "0x"],
    });
    try {
      await link.publicClient.call({
        account: account.address,
        to: endpoint,
        data: receive,
        gas: LZ_RECEIVE_GAS,
      });
    } catch (error) {
      if (!job.alerted) {
        const reason = revertDataOf(error);
        await send(
          link,
          endpoint,
          encodeFunctionData({
            abi: endpointAbi,
            functionName: "lzReceiveAlert",
            args: [origin, receiver, packet.guid, LZ_RECEIVE_GAS, 0n, packet.message, "0x", reason],
          }),
        );
        job.alerted = true;
        counters.alerted++;
        p.logger?.warn(
          `lzReceive of ${packet.guid.slice(0, 10)}… reverts (${reason.slice(0, 10)}): alerted, will retry`,
        );
      }
      return false;
    }
    const delivery = await send(link, endpoint, receive, LZ_RECEIVE_GAS);
    // The OFT queued a compose (SendParam.composeMsg): executed right after, in this pass.
    queueComposes(
      packet.dstEid,
      delivery.logs.filter((log) => log.address.toLowerCase() === endpoint.toLowerCase()),
    );
    counters.delivered++;
    p.logger?.info(
      `delivered LayerZero packet ${packet.guid.slice(0, 10)}… eid ${packet.srcEid}->${packet.dstEid}`,
    );
    return true;
  }

  /** true when the compose is done (executed), false when it must be tried again. */
  async function workCompose(job: ComposeJob): Promise<boolean> {
    const link = links.get(job.eid);
    if (link === undefined) return true;
    const endpoint = link.manifest.endpoint;
    const queued = (await link.publicClient.readContract({
      address: endpoint,
      abi: endpointAbi,
      functionName: "composeQueue",
      args: [job.from, job.to, job.guid, job.index],
    })) as Hex;
    if (queued === COMPOSE_RECEIVED) return true;
    if (queued !== keccak256(job.message)) {
      p.logger?.warn(`compose ${job.guid.slice(0, 10)}… is not queued as emitted: skipped`);
      return true;
    }
    const gas = composeGas.get(job.guid) ?? DEFAULT_COMPOSE_GAS;
    const compose = encodeFunctionData({
      abi: endpointAbi,
      functionName: "lzCompose",
      args: [job.from, job.to, job.guid, job.index, job.message, "0x"],
    });
    try {
      await link.publicClient.call({
        account: account.address,
        to: endpoint,
        data: compose,
        gas: gas + COMPOSE_OVERHEAD_GAS,
      });
    } catch (error) {
      if (!job.alerted) {
        const reason = revertDataOf(error);
        await send(
          link,
          endpoint,
          encodeFunctionData({
            abi: endpointAbi,
            functionName: "lzComposeAlert",
            args: [job.from, job.to, job.guid, job.index, gas, 0n, job.message, "0x", reason],
          }),
        );
        job.alerted = true;
        counters.composeAlerted++;
        p.logger?.warn(
          `lzCompose of ${job.guid.slice(0, 10)}… reverts (${reason.slice(0, 10)}): alerted, will retry`,
        );
      }
      return false;
    }
    await send(link, endpoint, compose, gas + COMPOSE_OVERHEAD_GAS);
    counters.composed++;
    p.logger?.info(`composed LayerZero ${job.guid.slice(0, 10)}… at ${job.to} on eid ${job.eid}`);
    return true;
  }

  async function poll(): Promise<void> {
    await Promise.all(
      [...links.values()].map((link) =>
        scan(link).catch((error: unknown) => {
          if (link.failures++ === 0) {
            p.logger?.warn(
              `LayerZero scan of eid ${link.manifest.eid} failed: ${(error as Error).message}`,
            );
          }
        }),
      ),
    );
    // One destination at a time per chain keeps the executor's nonces in order; packets of a
    // path are worked in nonce order (the endpoint needs every earlier nonce verified).
    const due = [...jobs.values()]
      .filter((job) => job.notBefore <= Date.now())
      .sort((a, b) =>
        a.packet.nonce < b.packet.nonce ? -1 : a.packet.nonce > b.packet.nonce ? 1 : 0,
      );
    const byDestination = new Map<number, Job[]>();
    for (const job of due)
      byDestination.set(job.packet.dstEid, [...(byDestination.get(job.packet.dstEid) ?? []), job]);
    // Chains with only composes waiting get a turn too.
    for (const job of composeJobs.values())
      if (!byDestination.has(job.eid)) byDestination.set(job.eid, []);
    await Promise.all(
      [...byDestination.entries()].map(async ([eid, list]) => {
        for (const job of list) {
          try {
            if (await work(job)) {
              jobs.delete(job.packet.guid);
              continue;
            }
          } catch (error) {
            p.logger?.warn(
              `LayerZero packet ${job.packet.guid.slice(0, 10)}…: ${(error as Error).message}`,
            );
          }
          retryLater(job);
        }
        // Composes queued on this chain, those the deliveries above emitted included.
        const composes = [...composeJobs.values()].filter(
          (job) => job.eid === eid && job.notBefore <= Date.now(),
        );
        for (const job of composes) {
          try {
            if (await workCompose(job)) {
              composeJobs.delete(job.key);
              continue;
            }
          } catch (error) {
            p.logger?.warn(
              `LayerZero compose ${job.guid.slice(0, 10)}…: ${(error as Error).message}`,
            );
          }
          retryLater(job);
        }
      }),
    );
  }

  function retryLater(job: { attempts: number; notBefore: number }): void {
    job.attempts++;
    job.notBefore =
      Date.now() +
      backoffDelayMs(job.attempts, { baseMs: retryDelayMs, maxMs: MAX_RETRY_MS, jitter: "none" });
  }

  function schedule(): void {
    if (!running) return;
    timer = setTimeout(() => {
      loop = poll().finally(schedule);
    }, pollIntervalMs);
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = poll().finally(schedule);
    },
    async stop() {
      running = false;
      if (timer !== undefined) clearTimeout(timer);
      // A pass waiting on a node that is already gone must not hold up shutdown.
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        loop?.catch(() => {}),
        new Promise((resolve) => {
          grace = setTimeout(resolve, STOP_GRACE_MS);
        }),
      ]);
      clearTimeout(grace);
    },
    stats: () => ({ ...counters, pending: jobs.size, composePending: composeJobs.size }),
    poll,
  };
}
