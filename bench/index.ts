/**
 * The indexer benchmark (`npm run bench:index`, `bridge-oracle bench index`): fills a devnet with
 * N transfers (bench/index-generate.ts), then in the same run
 *   1. times the bare eth_getLogs calls the indexer needs (same chains, addresses, topics and
 *      block spans; fetch + JSON.parse only) - the ceiling the node allows;
 *   2. times the raw-log floor: the same bare calls with each span's logs stored undecoded,
 *      keyed as the indexer keeps them, with the cursor, one transaction per span
 *      (bench/index-bare-logs.ts) - the least any indexer that keeps the raw logs
 *      must do, whatever its code and read model;
 *   3. times the raw-events floor: the indexer's own fetching, decoding and raw_events insert,
 *      nothing else (rawEventsFloor) - what this indexer's code does before deriving anything;
 *   4. times a full backfill by the real indexer (createIndexer, all chains concurrently, as
 *      `bridge-oracle index` runs them) into a fresh SQLite database;
 *   5. times the store floor: SQLite alone writing the rows the backfill left, by INSERT ...
 *      SELECT from its database into a fresh one (bench/index-store-floor.ts);
 *   6. repeats the ceiling and the two fetching floors (the node may have warmed up), keeping
 *      the faster ones;
 *   7. follows the head with 1 s blocks behind the real API (a separate process) and measures,
 *      per new transfer, the time from its receipt being available to the list endpoint
 *      returning it.
 * With `--store postgres` the backfill (4) goes into the benchmark's own schema of a PostgreSQL
 * database (bench/index-postgres.ts) and the floors (2, 3, 5), which measure SQLite, are not run;
 * `--store both` runs the SQLite steps and the PostgreSQL backfill against the same chains and
 * ceiling, then follows the head on each store in turn.
 * After our backfills, Ponder 1.0.0 backfills the same chains (bench/index-ponder.ts): on PGlite
 * beside our SQLite run, on PostgreSQL beside ours there; its records are compared with ours
 * (bench/index-records.ts). `--no-ponder` leaves it out.
 * Writes the "index" (SQLite), "index (PostgreSQL)" and "index: against Ponder" sections of
 * bench/RESULTS.md. Nothing is cached between runs but Ponder's npm install: every run generates
 * its own chains and indexes into an empty database.
 *
 * Run directly: node --import tsx bench/index.ts [--transfers N] [--per-block N] ...
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { Hex } from "viem";
import { createAdaptiveRange } from "../src/chain/adaptive-range.js";
import { createChainClient } from "../src/chain/create-chain-client.js";
import { fetchLogs } from "../src/chain/fetch-logs.js";
import { type IndexerConfig, parseIndexerConfig } from "../src/config/indexer-config.js";
import { jsonRpc } from "../src/devnet/json-rpc.js";
import type { BridgeEvent } from "../src/domain/bridge-event.js";
import { createBridgeRegistry } from "../src/domain/bridge-registry.js";
import { createMutex } from "../src/indexer/mutex.js";
import { ACROSS_PROTOCOL } from "../src/protocols/across/index.js";
import { decodeBridgeLog } from "../src/protocols/reference/decode-log.js";
import { BRIDGE_EVENT_TOPICS } from "../src/protocols/reference/events-abi.js";
import { openDatabase } from "../src/store/index.js";
import { readCpuTimes, stealShare } from "./cpu-steal.js";
import { type Backfill, countSqliteEvents, timeBackfill, timeFollowing } from "./index-backfill.js";
import { type BareLogsResult, bareGetLogs, rawLogFloor } from "./index-bare-logs.js";
import { backfillCurve, readSendsByBlock } from "./index-curve.js";
import { generateTransfers } from "./index-generate.js";
import type { LatencyResult } from "./index-latency.js";
import {
  DEFAULT_PONDER_CACHE,
  ensurePonderInstall,
  type PonderRun,
  runPonder,
  settleForPonder,
} from "./index-ponder.js";
import {
  formatPonderSection,
  type OurRun,
  PONDER_SECTION,
  type PonderRunReport,
} from "./index-ponder-report.js";
import { countStoredEvents, freshIndexSchema, type IndexSchema } from "./index-postgres.js";
import { compareRecords, readOurRecords, recordsDigest } from "./index-records.js";
import {
  formatIndexPostgresSection,
  formatIndexSection,
  INDEX_SECTIONS,
  type IndexBenchmarkReport,
  type IndexPostgresReport,
  type IndexRunReport,
} from "./index-report.js";
import { measureStoreFloor, type StoreFloorResult } from "./index-store-floor.js";
import { writeResultsSection } from "./list-report.js";
import {
  benchmarkCommandLine,
  integerOption,
  optionsOrExitCode,
  RESULTS_ARGS,
  type StoreKind,
  storesOption,
} from "./options.js";

const USAGE = `usage: bridge-oracle bench index [--transfers N] [--per-block N] [--max-block-range N]
                                  [--latency-samples N] [--seed S] [--results FILE] [--no-write]
                                  [--store sqlite|postgres|both] [--database-url URL]
                                  [--no-ponder] [--ponder-cache DIR]

  --transfers N        transfers to generate (default 100000); events are about 2x this
  --per-block N        transactions per generated block (default 100)
  --max-block-range N  the indexer's maxBlockRange and the ceiling's span (default 100: with
                       100 transactions per block about 10,000 logs per eth_getLogs, the
                       usual provider cap)
  --latency-samples N  transfers timed while following the head with 1 s blocks (default 20)
  --seed S             seed of the transfer mix (default 1)
  --results FILE       markdown file whose "## index" section is replaced (default bench/RESULTS.md)
  --no-write           print the section instead of writing it
  --store S            sqlite (default): backfill into a fresh SQLite file, with the raw-events
                       and store floors; postgres: backfill into the schema bench_index of the
                       PostgreSQL database at --database-url (created empty, dropped after);
                       both: the two against the same chains and ceiling
  --database-url URL   the PostgreSQL database (default DATABASE_URL); postgres and both only
  --no-ponder          leave out the Ponder 1.0.0 baseline (by default it backfills the same
                       chains on PGlite beside SQLite and on PostgreSQL, in a database of its
                       own named bench_ponder, beside PostgreSQL; installed with npm on first use)
  --ponder-cache DIR   where Ponder's npm install is kept between runs (default data/bench)
`;

interface Options {
  transfers: number;
  perBlock: number;
  maxBlockRange: number;
  latencySamples: number;
  seed: number;
  resultsPath: string;
  write: boolean;
  stores: StoreKind[];
  /** PostgreSQL runs: the database the benchmark's schema goes into. */
  databaseUrl?: string;
  ponder: boolean;
  ponderCache: string;
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
      store: { type: "string", default: "sqlite" },
      "database-url": { type: "string" },
      "no-ponder": { type: "boolean", default: false },
      "ponder-cache": { type: "string", default: DEFAULT_PONDER_CACHE },
      ...RESULTS_ARGS,
    },
  });
  if (values.help) return "help";
  const { stores, databaseUrl } = storesOption(values.store, values["database-url"], process.env);
  if (databaseUrl === undefined && values["database-url"] !== undefined) {
    throw new Error("--database-url applies to --store postgres or both");
  }
  return {
    stores,
    ...(databaseUrl !== undefined ? { databaseUrl } : {}),
    transfers: integerOption("transfers", values.transfers, 10, 10_000_000),
    perBlock: integerOption("per-block", values["per-block"], 1, 5000),
    maxBlockRange: integerOption("max-block-range", values["max-block-range"], 1, 100_000),
    latencySamples: integerOption("latency-samples", values["latency-samples"], 0, 1000),
    seed: integerOption("seed", values.seed, 0, 2 ** 32 - 1),
    resultsPath: values.results,
    write: !values["no-write"],
    ponder: !values["no-ponder"],
    ponderCache: values["ponder-cache"],
  };
}

/**
 * The raw-events floor, this indexer's own code up to its raw events: per span, the
 * indexer's client fetches the logs (viem), decodeBridgeLog decodes them and the indexer
 * repository inserts them into raw_events, one transaction per span, into a fresh database with
 * the real schema. No block hashes, no records, no address lists: what the indexer does on top
 * of this is the derivation and the read model.
 */
interface FloorResult {
  ms: number;
  events: number;
  insertMs: number;
}

async function rawEventsFloor(
  config: IndexerConfig,
  heads: Map<number, number>,
  span: number,
  databasePath: string,
): Promise<FloorResult> {
  const database = await openDatabase(databasePath, { busyTimeoutMs: 10_000 });
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
            await database.transaction((tx) => tx.indexer.insertEvents(decoded));
            insertMs += performance.now() - insertStarted;
          });
          events += decoded.length;
        }
      }),
    );
    return { ms: performance.now() - started, events, insertMs };
  } finally {
    await database.close();
  }
}

export async function runIndexBenchmark(args: string[]): Promise<number> {
  const options = optionsOrExitCode(() => parseOptions(args), USAGE);
  if (typeof options === "number") return options;
  const { stores } = options;
  const log = (line: string) => process.stderr.write(`bench index: ${line}\n`);
  const runStarted = Date.now();
  const loadBefore = os.loadavg();
  // Installed (or found) first: an unreachable registry fails the run before any work.
  const ponderInstall = options.ponder ? await ensurePonderInstall(options.ponderCache, log) : "";
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
  let schema: IndexSchema | undefined;
  try {
    log(
      `generated in ${(generated.generationMs / 1000).toFixed(1)} s: ${generated.sends} sends, ` +
        `${generated.deliveries} deliveries (${generated.failures} failing), ${generated.refunds} refunds`,
    );
    await settleForPonder(generated.manifest.chains);
    const heads = new Map<number, number>();
    for (const chain of generated.manifest.chains) {
      heads.set(
        chain.chainId,
        Number(BigInt((await jsonRpc(chain.rpcUrl, "eth_blockNumber", [])) as string)),
      );
    }

    const measurementsStarted = readCpuTimes();
    const ceilingFirst = await bareGetLogs(generated, heads, options.maxBlockRange);
    log(
      `bare eth_getLogs: ${ceilingFirst.events} events in ${(ceilingFirst.ms / 1000).toFixed(2)} s`,
    );
    const config = parseIndexerConfig({
      chains: generated.manifest.chains,
      // The chains' Across SpokePools, as the benchmark has always indexed them (LayerZero's
      // contracts stay out, as before).
      contracts: (generated.manifest.contracts ?? []).filter((c) => c.protocol === ACROSS_PROTOCOL),
      indexer: { pollIntervalMs: 1000, maxBlockRange: options.maxBlockRange, rpcTimeoutMs: 30_000 },
    });
    const floorRun = (name: string) =>
      rawEventsFloor(config, heads, options.maxBlockRange, join(dir, name));
    const rawLogRun = (name: string) =>
      rawLogFloor(generated, heads, options.maxBlockRange, join(dir, name));

    const sqlitePath = join(dir, "index.db");
    const ours: Partial<Record<StoreKind, OurRun>> = {};
    const ourRecords: Partial<Record<StoreKind, Awaited<ReturnType<typeof readOurRecords>>>> = {};
    /** What a backfill left, read before following the head adds to it. */
    const ourRun = async (backfill: Backfill, url: string, sizeBytes: number): Promise<OurRun> => {
      const records = await readOurRecords(url);
      ourRecords[url === sqlitePath ? "sqlite" : "postgres"] = records;
      return {
        ms: backfill.ms,
        events: backfill.events,
        cpuMs: backfill.cpuUserMs + backfill.cpuSystemMs,
        serverCpuMs: backfill.serverCpuMs,
        records: records.length,
        digest: recordsDigest(records),
        sizeBytes,
        curve: backfillCurve(backfill.progress, await readSendsByBlock(url)),
      };
    };
    let sqlite:
      | {
          rawLogFirst: BareLogsResult;
          floorFirst: FloorResult;
          backfill: Backfill;
          storeFloor: StoreFloorResult;
        }
      | undefined;
    if (stores.includes("sqlite")) {
      const rawLogFirst = await rawLogRun("raw-log-1.db");
      log(`raw-log floor: ${rawLogFirst.events} events in ${(rawLogFirst.ms / 1000).toFixed(2)} s`);
      const floorFirst = await floorRun("floor-1.db");
      log(
        `raw-events floor: ${floorFirst.events} events in ${(floorFirst.ms / 1000).toFixed(2)} s`,
      );
      const backfill = await timeBackfill(config, heads, sqlitePath, () =>
        countSqliteEvents(sqlitePath),
      );
      log(
        `indexer backfill (SQLite): ${backfill.events} events in ${(backfill.ms / 1000).toFixed(2)} s`,
      );
      const storeFloor = await measureStoreFloor(sqlitePath, join(dir, "store-floor.db"));
      log(
        `store floor: ${storeFloor.rows} rows in ${(storeFloor.indexesInPlaceMs / 1000).toFixed(2)} s` +
          ` (indexes built after: ${(storeFloor.indexesAfterMs / 1000).toFixed(2)} s)`,
      );
      sqlite = { rawLogFirst, floorFirst, backfill, storeFloor };
      ours.sqlite = await ourRun(backfill, sqlitePath, await sqliteBytes(sqlitePath));
    }
    let postgresBackfill: Backfill | undefined;
    if (stores.includes("postgres")) {
      const fresh = await freshIndexSchema(options.databaseUrl!);
      schema = fresh;
      postgresBackfill = await timeBackfill(config, heads, fresh.url, () =>
        countStoredEvents(fresh.url),
      );
      log(
        `indexer backfill (PostgreSQL): ${postgresBackfill.events} events in ` +
          `${(postgresBackfill.ms / 1000).toFixed(2)} s`,
      );
      const { sizeBytes } = await fresh.describe();
      ours.postgres = await ourRun(postgresBackfill, fresh.url, sizeBytes);
    }
    const ponder: Partial<Record<StoreKind, PonderRun>> = {};
    if (options.ponder) {
      for (const store of stores) {
        ponder[store] = await runPonder({
          installDir: ponderInstall,
          config,
          store: store === "sqlite" ? "pglite" : "postgres",
          ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
          timeoutMs: 3_600_000,
          log,
        });
      }
    }

    const ceilingSecond = await bareGetLogs(generated, heads, options.maxBlockRange);
    log(`bare eth_getLogs again: ${(ceilingSecond.ms / 1000).toFixed(2)} s`);
    const ceiling = ceilingSecond.ms < ceilingFirst.ms ? ceilingSecond : ceilingFirst;
    const rawLogSecond = stores.includes("sqlite") ? await rawLogRun("raw-log-2.db") : undefined;
    const floorSecond = stores.includes("sqlite") ? await floorRun("floor-2.db") : undefined;
    if (rawLogSecond !== undefined && floorSecond !== undefined) {
      log(
        `raw-log floor again: ${(rawLogSecond.ms / 1000).toFixed(2)} s; ` +
          `raw-events floor again: ${(floorSecond.ms / 1000).toFixed(2)} s`,
      );
    }
    const measurementsSteal = stealShare(measurementsStarted, readCpuTimes());

    // Following the head on each store in turn: an indexer resumes there, the API reads it.
    const latency: Partial<Record<StoreKind, LatencyResult>> = {};
    for (const store of stores) {
      log(`following the head on ${store}`);
      latency[store] = await timeFollowing(
        config,
        generated,
        store === "sqlite" ? sqlitePath : schema!.url,
        options.latencySamples,
        log,
      );
    }

    const base = (backfill: Backfill, store: StoreKind): IndexRunReport => ({
      command: benchmarkCommandLine("index", args),
      date: new Date().toISOString(),
      cpu: os.cpus()[0]?.model ?? "unknown",
      cores: os.cpus().length,
      node: process.version,
      loadBefore,
      loadAfter: os.loadavg(),
      steal: { backfill: backfill.steal, measurements: measurementsSteal },
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
      indexer: {
        ms: backfill.ms,
        events: backfill.events,
        cpuUserMs: backfill.cpuUserMs,
        cpuSystemMs: backfill.cpuSystemMs,
      },
      latency: latency[store]!,
      runMs: Date.now() - runStarted,
    });
    const sections: [string, string][] = [];
    const ponderReports: Partial<Record<StoreKind, PonderRunReport>> = {};
    for (const store of stores) {
      const run = ponder[store];
      if (run === undefined) continue;
      const comparison = compareRecords(ourRecords[store]!, run.records);
      if (!comparison.equal) {
        log(
          `WARNING: Ponder's records on ${run.store} differ from ours: ${comparison.examples[0]}`,
        );
      }
      ponderReports[store] = {
        ms: run.ms,
        cpuMs: run.cpuMs,
        serverCpuMs: run.serverCpuMs,
        records: run.records.length,
        digest: recordsDigest(run.records),
        sizeBytes: run.sizeBytes,
        comparison,
      };
    }
    if (sqlite !== undefined) {
      const { rawLogFirst, floorFirst, backfill, storeFloor } = sqlite;
      const floor = floorSecond!.ms < floorFirst.ms ? floorSecond! : floorFirst;
      const rawLog = rawLogSecond!.ms < rawLogFirst.ms ? rawLogSecond! : rawLogFirst;
      const report: IndexBenchmarkReport = {
        ...base(backfill, "sqlite"),
        rawLogFloor: { ...rawLog, firstMs: rawLogFirst.ms, secondMs: rawLogSecond!.ms },
        floor: { ...floor, firstMs: floorFirst.ms, secondMs: floorSecond!.ms },
        storeFloor,
      };
      sections.push([INDEX_SECTIONS.sqlite, formatIndexSection(report)]);
    }
    if (postgresBackfill !== undefined) {
      const report: IndexPostgresReport = {
        ...base(postgresBackfill, "postgres"),
        postgres: await schema!.describe(),
        serverCpuMs: postgresBackfill.serverCpuMs,
      };
      sections.push([INDEX_SECTIONS.postgres, formatIndexPostgresSection(report)]);
    }
    for (const backfill of [sqlite?.backfill, postgresBackfill]) {
      if (backfill !== undefined && backfill.events !== ceiling.events) {
        log(
          `WARNING: the indexer stored ${backfill.events} events, eth_getLogs returned ${ceiling.events}`,
        );
      }
    }
    sections.push([
      PONDER_SECTION,
      formatPonderSection({
        command: benchmarkCommandLine("index", args),
        date: new Date().toISOString(),
        cpu: os.cpus()[0]?.model ?? "unknown",
        cores: os.cpus().length,
        node: process.version,
        loadBefore,
        loadAfter: os.loadavg(),
        transfers: generated.sends,
        blocks: [...heads.values()].reduce((a, b) => a + b, 0),
        ceiling: { ms: ceiling.ms, events: ceiling.events },
        ours,
        ponder: ponderReports,
      }),
    ]);
    for (const [name, section] of sections) {
      if (options.write) {
        await writeResultsSection(options.resultsPath, name, section);
        log(`"${name}" written to ${options.resultsPath}`);
      }
      process.stdout.write(`${section}\n`);
    }
    return 0;
  } finally {
    await generated.devnet.stop();
    await rm(dir, { recursive: true, force: true });
    await schema?.drop();
  }
}

/** A closed SQLite database's size: its file and a WAL left beside it. */
async function sqliteBytes(path: string): Promise<number> {
  let bytes = 0;
  for (const file of [path, `${path}-wal`]) {
    bytes += await stat(file).then(
      (s) => s.size,
      () => 0,
    );
  }
  return bytes;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await runIndexBenchmark(process.argv.slice(2));
}
