/**
 * Helpers of the devnet runtime suites (devnet-*.test.ts): reading transfer events back from the
 * chains, waiting for a condition, and finding anvil processes by port.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createPublicClient, type Hex, http } from "viem";
import type { DevnetManifest, ManifestChain } from "../../src/devnet/manifest.js";
import { bridgeEventsAbi } from "../../src/devnet/protocols/reference/relayer-abi.js";
import type { BridgeKind } from "../../src/domain/bridge-kind.js";

export type TransferEventName =
  | "TransferSent"
  | "TransferDelivered"
  | "TransferFailed"
  | "TransferRefunded";

export interface FoundEvent {
  eventName: TransferEventName;
  chain: string;
  kind: BridgeKind;
  messageId: Hex;
  blockNumber: bigint;
  args: Record<string, unknown>;
}

/** Every transfer event on every bridge of the devnet, oldest first per chain. */
export async function transferEvents(manifest: DevnetManifest): Promise<FoundEvent[]> {
  const perChain = await Promise.all(manifest.chains.map((chain) => chainEvents(chain)));
  return perChain.flat();
}

async function chainEvents(chain: ManifestChain): Promise<FoundEvent[]> {
  const client = createPublicClient({ transport: http(chain.rpcUrl) });
  const logs = await client.getLogs({
    address: [chain.bridges["0"], chain.bridges["1"], chain.bridges["2"]],
    events: bridgeEventsAbi,
    fromBlock: BigInt(chain.deployBlock),
    toBlock: "latest",
  });
  return logs.map((log) => {
    const kind = ([0, 1, 2] as const).find(
      (k) => chain.bridges[`${k}`].toLowerCase() === log.address.toLowerCase(),
    );
    return {
      eventName: log.eventName,
      chain: chain.name,
      kind: kind ?? 0,
      messageId: log.args.messageId as Hex,
      blockNumber: log.blockNumber,
      args: log.args as Record<string, unknown>,
    };
  });
}

/** Events of `name` for `messageId`. */
export function eventsOf(
  events: FoundEvent[],
  name: TransferEventName,
  messageId: Hex,
): FoundEvent[] {
  return events.filter((e) => e.eventName === name && e.messageId === messageId);
}

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  intervalMs = 300,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** PIDs of live anvil processes listening on `port` (by their command line, from /proc). */
export function anvilPidsOnPort(port: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      const portIndex = args.indexOf("--port");
      if (state === "Z" || portIndex < 0 || args[portIndex + 1] !== String(port)) continue;
      if (args.some((arg) => /anvil/.test(arg))) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

export const portOf = (rpcUrl: string): number => Number(new URL(rpcUrl).port);
