/**
 * The indexer benchmark (`npm run bench:index`, `bridge-oracle bench index`): fills a devnet with
 * N transfers (bench/index-generate.ts), then in the same run
 *   1. times the bare eth_getLogs calls the indexer needs (same chains, addresses, topics and
 *      block spans; fetch + JSON.parse only) - the ceiling the node allows;
 *   2. times the raw-events floor: the indexer's own fetching, decoding and raw_events insert,
 *      nothing else (rawEventsFloor) - what any indexer that keeps raw events must do;
 *   3. times a full backfill by the real indexer (createIndexer, all chains concurrently, as
 *      `bridge-oracle index` runs them) into a fresh SQLite database;
 *   4. times the store floor: SQLite alone writing the rows the backfill left, by INSERT ...
 *      SELECT from its database into a fresh one (bench/index-store-floor.ts);
 *   5. repeats the ceiling and the floor (the node may have warmed up), keeping the faster ones;
 *   6. follows the head with 1 s blocks behind the real API (a separate process) and measures,
 *      per new transfer, the time from its receipt being available to the list endpoint
 *      returning it.
 * Writes the "index" section of bench/RESULTS.md. Nothing is cached between runs: every run
 * generates its own chains and indexes into an empty database.
 *
 * Run directly: node --import tsx bench/index.ts [--transfers N] [--per-block N] ...
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import type { Hex } from "viem";
import { createAdaptiveRange } from "../src/chain/adaptive-range.js";
import { BRIDGE_EVENT_TOPICS } from "../src/chain/bridge-events-abi.js";
import { createChainClient } from "../src/chain/create-chain-client.js";
import { fetchLogs } from "../src/chain/fetch-logs.js";
import { type IndexerConfig, parseIndexerConfig } from "../src/config/indexer-config.js";
import { createBridgeRegistry } from "../src/indexer/bridge-registry.js";
import { createIndexer } from "../src/indexer/create-indexer.js";
import { decodeBridgeLog } from "../src/indexer/decode-bridge-log.js";
import { createMutex } from "../src/indexer/mutex.js";
import {
  openIndexerSqlite,
  runSqliteTransaction,
} from "../src/indexer/store/indexer-sqlite-transaction.js";
import { openIndexerStore } from "../src/indexer/store/open-indexer-store.js";
import type { BridgeEvent } from "../src/store/bridge-event.js";
import { createStore } from "../src/store/index.js";
import { readCpuTimes, stealShare } from "./cpu-steal.js";
import { type GeneratedDevnet, generateTransfers } from "./index-generate.js";
import { measureFollowLatency } from "./index-latency.js";
import { formatIndexSection, type IndexBenchmarkReport } from "./index-report.js";
import { measureStoreFloor } from "./index-store-floor.js";
import { writeResultsSection } from "./list-report.js";
import { integerOption } from "./options.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const USAGE = `usage: bridge-oracle bench index [--transfers N] [--per-block N] [--max-block-range N]
                                  [--latency-samples N] [--seed S] [--results FILE] [--no-write]

  --transfers N        transfers to generate (default 100000); events are about 2x this
  --per-block N        transactions per generated block (default 100)
  --max-block-range N  the indexer's maxBlockRange and the ceiling's span (default 100: with
                       100 transactions per block about 10,000 logs per eth_getLogs, the
                       usual provider cap)
  --latency-samples N  transfers timed while following the head with 1 s blocks (default 20)
  --seed S             seed of the transfer mix (default 1)
  --results FILE       markdown file whose "## index" section is replaced (default bench/RESULTS.md)
  --no-write           print the section instead of writing it
`;

interface Options {
  transfers: number;
  perBlock: number;
  maxBlockRange: number;
  latencySamples: number;
  seed: number;
  resultsPath: string;
  write: boolean;
}

function parseOptions(args: string[]): Options | "help" {
  const { values } = parseArgs({
    args,
    options: {
      transfers: { type: "string", default: "100000" },
      "per-block": { type: "string", default: "100" },
      "max-block-range": { type: "string", default: "100" },
      "latency-samples": { type: "string", default: "20" },
      seed: { type: "string", default: "1" },
      results: { type: "string", default: join(ROOT, "bench", "RESULTS.md") },
      "no-write": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  return {
    transfers: integerOption("transfers", values.transfers, 10, 10_000_000),
    perBlock: integerOption("per-block", values["per-block"], 1, 5000),
    maxBlockRange: integerOption("max-block-range", values["max-block-range"], 1, 100_000),
    latencySamples: integerOption("latency-samples", values["latency-samples"], 0, 1000),
    seed: integerOption("seed", values.seed, 0, 2 ** 32 - 1),
    resultsPath: values.results,
    write: !values["no-write"],
  };
}

/** The ceiling: the indexer's eth_getLogs calls, bare (chains concurrently, spans in turn). */
async function bareGetLogs(
  generated: GeneratedDevnet,
  heads: Map<number, number>,
  span: number,
): Promise<{ ms: number; events: number; calls: number }> {
  const started = performance.now();
  let events = 0;
  let calls = 0;
  await Promise.all(
    generated.manifest.chains.map(async (chain) => {
      const address = Object.values(chain.bridges);
      const head = heads.get(chain.chainId)!;
      for (let from = chain.deployBlock; from <= head; from += span) {
        const response = await fetch(chain.rpcUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "eth_getLogs",
            params: [
              {
                address,
                topics: [BRIDGE_EVENT_TOPICS],
                fromBlock: `0x${from.toString(16)}`,
                toBlock: `0x${Math.min(head, from + span - 1).toString(16)}`,
              },
            ],
          }),
        });
        const body = (await response.json()) as { result?: unknown[]; error?: { message: string } };
        if (body.result === undefined) throw new Error(`eth_getLogs: ${body.error?.message}`);
        events += body.result.length;
        calls++;
      }
    }),
  );
  return { ms: performance.now() - started, events, calls };
}

/**
 * The floor of any indexer that keeps raw events (as the issue requires): per span, the
 * indexer's own client fetches the logs (viem), decodeBridgeLog decodes them and the indexer
 * repository inserts them into raw_events, one transaction per span, into a fresh database with
 * the real schema. No block hashes, no records, no address lists: what the indexer does on top
 * of this is the derivation and the read model.
 */
async function rawEventsFloor(
  config: IndexerConfig,
  heads: Map<number, number>,
  span: number,
  databasePath: string,
): Promise<{ ms: number; events: number; insertMs: number }> {
  await (await createStore({ databaseUrl: databasePath })).close();
  const connection = openIndexerSqlite(databasePath);
  const registry = createBridgeRegistry(config.chains, config.bridges);
  // One transaction at a time on the one connection, as the indexer's chains commit.
  const commitLock = createMutex();
  const started = performance.now();
  let events = 0;
  let insertMs = 0;
  try {
    await Promise.all(
      config.chains.map(async (chain) => {
        const client = createChainClient({
          rpcUrl: chain.rpcUrl,
          chainId: chain.chainId,
          timeoutMs: config.rpcTimeoutMs,
        });
        const addresses = registry.bridgesOn(chain.chainId).map((b) => b.address as Hex);
        const head = heads.get(chain.chainId)!;
        // The indexer's adaptive spans: a response over the client's size limit halves the span.
        const range = createAdaptiveRange({ initial: span, max: span });
        for (let from = chain.startBlock; from <= head; ) {
          const { logs, toBlock } = await fetchLogs(client, {
            addresses,
            topics: BRIDGE_EVENT_TOPICS,
            fromBlock: from,
            toBlock: head,
            range,
          });
          from = toBlock + 1;
          const decoded: BridgeEvent[] = [];
          for (const log of logs) {
            const kind = registry.bridgeKind(chain.chainId, log.address);
            if (kind === undefined || log.blockTimestamp === undefined) {
              throw new Error(`floor: unexpected log ${log.transactionHash}:${log.logIndex}`);
            }
            const event = decodeBridgeLog(log, {
              chainId: chain.chainId,
              kind,
              blockTime: log.blockTimestamp,
            });
            if (event !== undefined) decoded.push(event);
          }
          await commitLock.runExclusive(async () => {
            const insertStarted = performance.now();
            await runSqliteTransaction(connection, (tx) => tx.indexer.insertEvents(decoded));
            insertMs += performance.now() - insertStarted;
          });
          events += decoded.length;
        }
      }),
    );
    return { ms: performance.now() - started, events, insertMs };
  } finally {
    connection.db.close();
  }
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return ((await response.json()) as { result?: unknown }).result;
}

export async function runIndexBenchmark(args: string[]): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(args);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (options === "help") {
    process.stdout.write(USAGE);
    return 0;
  }
  const log = (line: string) => process.stderr.write(`bench index: ${line}\n`);
  const runStarted = Date.now();
  const loadBefore = os.loadavg();
  const dir = await mkdtemp(join(os.tmpdir(), "bench-index-"));
  log(
    `generating ${options.transfers.toLocaleString("en-US")} transfers (${options.perBlock} per block)`,
  );
  const generated = await generateTransfers({
    transfers: options.transfers,
    perBlock: options.perBlock,
    seed: options.seed,
    log,
  });
  try {
    log(
      `generated in ${(generated.generationMs / 1000).toFixed(1)} s: ${generated.sends} sends, ` +
        `${generated.deliveries} deliveries (${generated.failures} failing), ${generated.refunds} refunds`,
    );
    const heads = new Map<number, number>();
    for (const chain of generated.manifest.chains) {
      heads.set(
        chain.chainId,
        Number(BigInt((await rpc(chain.rpcUrl, "eth_blockNumber", [])) as string)),
      );
    }

    const measurementsStarted = readCpuTimes();
    const ceilingFirst = await bareGetLogs(generated, heads, options.maxBlockRange);
    log(
      `bare eth_getLogs: ${ceilingFirst.events} events in ${(ceilingFirst.ms / 1000).toFixed(2)} s`,
    );

    const databasePath = join(dir, "index.db");
    const config = parseIndexerConfig({
      chains: generated.manifest.chains,
      indexer: { pollIntervalMs: 1000, maxBlockRange: options.maxBlockRange, rpcTimeoutMs: 30_000 },
    });
    const floorFirst = await rawEventsFloor(
      config,
      heads,
      options.maxBlockRange,
      join(dir, "floor-1.db"),
    );
    log(`raw-events floor: ${floorFirst.events} events in ${(floorFirst.ms / 1000).toFixed(2)} s`);
    const store = await openIndexerStore({ databaseUrl: databasePath });
    const lines: string[] = [];
    const logger = {
      info: (m: string) => lines.push(m),
      warn: (m: string) => lines.push(m),
      error: (m: string) => lines.push(m),
    };
    const indexer = createIndexer({ config, store, logger });
    const controller = new AbortController();
    const backfillStarted = performance.now();
    const cpuBefore = process.cpuUsage();
    const backfillTicks = readCpuTimes();
    const running = indexer.run(controller.signal);
    let failed: unknown;
    running.catch((error) => {
      failed = error;
    });
    while (
      failed === undefined &&
      !indexer.status().every((s) => s.cursorBlock >= heads.get(s.chainId)!)
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const backfillMs = performance.now() - backfillStarted;
    const cpu = process.cpuUsage(cpuBefore);
    const backfillSteal = stealShare(backfillTicks, readCpuTimes());
    if (failed !== undefined) throw failed;
    const indexedEvents = Number(
      (
        new Database(databasePath, { readonly: true })
          .prepare("SELECT count(*) AS n FROM raw_events")
          .get() as { n: number }
      ).n,
    );
    log(`indexer backfill: ${indexedEvents} events in ${(backfillMs / 1000).toFixed(2)} s`);
    const storeFloor = await measureStoreFloor(databasePath, join(dir, "store-floor.db"));
    log(
      `store floor: ${storeFloor.rows} rows in ${(storeFloor.indexesInPlaceMs / 1000).toFixed(2)} s` +
        ` (indexes built after: ${(storeFloor.indexesAfterMs / 1000).toFixed(2)} s)`,
    );

    const ceilingSecond = await bareGetLogs(generated, heads, options.maxBlockRange);
    log(`bare eth_getLogs again: ${(ceilingSecond.ms / 1000).toFixed(2)} s`);
    const ceiling = ceilingSecond.ms < ceilingFirst.ms ? ceilingSecond : ceilingFirst;
    const floorSecond = await rawEventsFloor(
      config,
      heads,
      options.maxBlockRange,
      join(dir, "floor-2.db"),
    );
    log(`raw-events floor again: ${(floorSecond.ms / 1000).toFixed(2)} s`);
    const measurementsSteal = stealShare(measurementsStarted, readCpuTimes());
    const floor = floorSecond.ms < floorFirst.ms ? floorSecond : floorFirst;

    const latency = await measureFollowLatency({
      generated,
      databasePath,
      samples: options.latencySamples,
      log,
    });
    controller.abort();
    await running.catch(() => undefined);
    await store.close();

    const report: IndexBenchmarkReport = {
      command: `npm run bench:index${args.length > 0 ? ` -- ${args.join(" ")}` : ""}`,
      date: new Date().toISOString(),
      cpu: os.cpus()[0]?.model ?? "unknown",
      cores: os.cpus().length,
      node: process.version,
      loadBefore,
      loadAfter: os.loadavg(),
      steal: { backfill: backfillSteal, measurements: measurementsSteal },
      options,
      generated: {
        sends: generated.sends,
        deliveries: generated.deliveries,
        failures: generated.failures,
        refunds: generated.refunds,
        generationMs: generated.generationMs,
        deployMs: generated.deployMs,
        blocks: [...heads.values()].reduce((a, b) => a + b, 0),
      },
      ceiling: {
        ms: ceiling.ms,
        events: ceiling.events,
        calls: ceiling.calls,
        firstMs: ceilingFirst.ms,
        secondMs: ceilingSecond.ms,
      },
      floor: {
        ms: floor.ms,
        events: floor.events,
        insertMs: floor.insertMs,
        firstMs: floorFirst.ms,
        secondMs: floorSecond.ms,
      },
      storeFloor,
      indexer: {
        ms: backfillMs,
        events: indexedEvents,
        cpuUserMs: cpu.user / 1000,
        cpuSystemMs: cpu.system / 1000,
      },
      latency,
      runMs: Date.now() - runStarted,
    };
    if (indexedEvents !== ceiling.events) {
      log(
        `WARNING: the indexer stored ${indexedEvents} events, eth_getLogs returned ${ceiling.events}`,
      );
    }
    const section = formatIndexSection(report);
    if (options.write) {
      await writeResultsSection(options.resultsPath, "index", section);
      log(`written to ${options.resultsPath}`);
    }
    process.stdout.write(`${section}\n`);
    return 0;
  } finally {
    await generated.devnet.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await runIndexBenchmark(process.argv.slice(2));
}
