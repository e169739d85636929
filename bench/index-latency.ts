/**
 * Head-following latency for the index benchmark: with the indexer following (pollIntervalMs
 * 1000, its default) and the chains mining a block per second, sends one transfer at a time and
 * measures from the moment its receipt is available on the node (the block is there: with the
 * devnet's 0 confirmations that is its confirmation) to the moment the real API's list endpoint
 * (a separate process on the same SQLite file) returns it. Polls both every 20 ms.
 */
import type { Hex } from "viem";
import { jsonRpc } from "../src/devnet/json-rpc.js";
import type { GeneratedDevnet } from "./index-generate.js";
import { startAppServer } from "./server-process.js";

export interface LatencyResult {
  samples: number;
  /** Latencies in ms, ascending; a transfer not visible after 15 s counts as missing. */
  sortedMs: number[];
  missing: number;
}

const POLL_MS = 20;
const GIVE_UP_MS = 15_000;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function measureFollowLatency(parameters: {
  generated: GeneratedDevnet;
  /** A SQLite path or a postgres:// URL: the API reads the indexer's database there. */
  databaseUrl: string;
  samples: number;
  log: (line: string) => void;
}): Promise<LatencyResult> {
  const { generated, samples } = parameters;
  if (samples === 0) return { samples: 0, sortedMs: [], missing: 0 };
  const server = await startAppServer(parameters.databaseUrl);
  try {
    for (const chain of generated.manifest.chains) {
      await jsonRpc(chain.rpcUrl, "evm_setIntervalMining", [1]);
    }
    await pause(2000); // a few 1 s blocks: the indexer is in its following rhythm
    const latencies: number[] = [];
    let missing = 0;
    for (let i = 0; i < samples; i++) {
      const { rpcUrl, txHash } = await generated.sendOne();
      const confirmed = await waitFor(
        async () => (await jsonRpc(rpcUrl, "eth_getTransactionReceipt", [txHash])) !== null,
      );
      if (confirmed === undefined) {
        missing++;
        continue;
      }
      const seen = await waitFor(() => listed(server.baseUrl, txHash));
      if (seen === undefined) missing++;
      else latencies.push(seen - confirmed);
      // Spread the sends over the block interval, so the phase to the indexer's poll varies.
      await pause(137 * (i % 7));
    }
    latencies.sort((a, b) => a - b);
    parameters.log(
      `follow latency: ${latencies.length} samples, median ${latencies[Math.ceil(latencies.length / 2) - 1]?.toFixed(0)} ms, ` +
        `max ${latencies.at(-1)?.toFixed(0)} ms, ${missing} missing`,
    );
    return { samples, sortedMs: latencies, missing };
  } finally {
    await server.stop();
  }
}

/** performance.now() when `check` first holds, undefined after GIVE_UP_MS. */
async function waitFor(check: () => Promise<boolean>): Promise<number | undefined> {
  const deadline = performance.now() + GIVE_UP_MS;
  while (performance.now() < deadline) {
    if (await check()) return performance.now();
    await pause(POLL_MS);
  }
  return undefined;
}

async function listed(baseUrl: string, txHash: Hex): Promise<boolean> {
  const response = await fetch(
    `${baseUrl}/api/oracle/bridge-transactions?addressOrTxHash=${txHash}&pageNo=1&pageSize=10`,
  );
  const text = await response.text();
  return response.ok && text.toLowerCase().includes(txHash.toLowerCase());
}
