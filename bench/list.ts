/**
 * The list benchmark (`npm run bench:list`, `bridge-oracle bench list`): loads N generated records
 * (default 1,000,000, with hot addresses of 100,000+ transfers) into SQLite once, then drives the
 * real API and, in the same run, a bare Fastify baseline (canned responses of the same size with
 * the same response schema, and a hello-world route) with autocannon, and writes the results
 * with the command and the machine into bench/RESULTS.md (section "list").
 *
 * Run directly: node --import tsx bench/list.ts [--records N] [--duration S] [--connections C]
 */
import { writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensureDataset } from "./list-data.js";
import { formatListSection, type ListBenchmarkReport } from "./list-report.js";
import { buildRequestSets, DEEP_OFFSET, listUrl } from "./list-requests.js";
import type { CannedBodies } from "./list-server.js";
import { finishBenchmark, getJson, type LoadResult, probeLatency, runLoad } from "./load.js";
import { integerOption } from "./options.js";
import { startServerProcess } from "./server-process.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const USAGE = `usage: bridge-oracle bench list [--records N] [--duration S] [--connections C]
                                 [--seed S] [--cache-dir DIR] [--results FILE] [--no-write]

  --records N      records to generate and load (default 1000000; cached in --cache-dir)
  --duration S     seconds per measured scenario (default 10)
  --connections C  concurrent connections (default 10)
  --cache-dir DIR  where the JSONL and the SQLite database are kept (default data/bench)
  --results FILE   markdown file whose "## list" section is replaced (default bench/RESULTS.md)
  --no-write       print the section instead of writing it
`;

interface ListBenchmarkOptions {
  records: number;
  durationSeconds: number;
  connections: number;
  seed: number;
  cacheDir: string;
  resultsPath: string;
  write: boolean;
}

function parseOptions(args: string[]): ListBenchmarkOptions | "help" {
  const { values } = parseArgs({
    args,
    options: {
      records: { type: "string", default: "1000000" },
      duration: { type: "string", default: "10" },
      connections: { type: "string", default: "10" },
      seed: { type: "string", default: "1" },
      "cache-dir": { type: "string", default: join(ROOT, "data", "bench") },
      results: { type: "string", default: join(ROOT, "bench", "RESULTS.md") },
      "no-write": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  return {
    records: integerOption("records", values.records, 1000, 100_000_000),
    durationSeconds: integerOption("duration", values.duration, 1, 600),
    connections: integerOption("connections", values.connections, 1, 1000),
    seed: integerOption("seed", values.seed, 0, 2 ** 32 - 1),
    cacheDir: values["cache-dir"],
    resultsPath: values.results,
    write: !values["no-write"],
  };
}

export async function runListBenchmark(args: string[]): Promise<number> {
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
  const log = (line: string) => process.stderr.write(`[bench list] ${line}\n`);
  const started = performance.now();
  const loadAverage = os.loadavg();
  const loadAverageAtEnd = (): number[] => os.loadavg();

  const dataset = await ensureDataset({ ...options, log });
  const sets = buildRequestSets(dataset.sample, options.seed);
  const scenario = { connections: options.connections, durationSeconds: options.durationSeconds };

  // Both servers stay up and each API scenario runs right next to its baseline, so a change in
  // the machine's load (it is shared) hits both sides of a ratio alike.
  const app = await startServerProcess("app", dataset.databasePath);
  // The same API without its response cache: every request queries SQLite. The database's own
  // costs (deep pages, totals, unloaded latency) are measured here.
  const uncached = await startServerProcess("app", dataset.databasePath, "no-cache");
  let baseline: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  const results: Record<string, LoadResult> = {};
  let hotTotals: { address: string; total: number }[];
  let probes: ListBenchmarkReport["probes"];
  try {
    const hot = dataset.sample.hotAddresses;
    hotTotals = [];
    for (const address of hot) {
      const body = (await getJson(`${app.baseUrl}${listUrl(address, 1, 10)}`)) as {
        data: { total: number };
      };
      hotTotals.push({ address, total: body.data.total });
    }
    const canned: CannedBodies = {
      page10: await getJson(`${app.baseUrl}${listUrl(hot[0]!, 1, 10)}`),
      page50: await getJson(`${app.baseUrl}${listUrl(hot[0]!, 1, 50)}`),
      hash: await getJson(`${app.baseUrl}${sets.hashes[0]}`),
    };
    const cannedPath = join(options.cacheDir, "canned-bodies.json");
    await writeFile(cannedPath, JSON.stringify(canned));
    baseline = await startServerProcess("baseline", cannedPath);
    const base = baseline;

    log("warming up the API and the baseline ...");
    const warmup = { connections: options.connections, paths: sets.mix };
    await runLoad({
      name: "warmup",
      baseUrl: app.baseUrl,
      ...warmup,
      durationSeconds: Math.min(3, options.durationSeconds),
    });
    await runLoad({
      name: "warmup",
      baseUrl: uncached.baseUrl,
      ...warmup,
      durationSeconds: Math.min(3, options.durationSeconds),
    });
    await runLoad({
      name: "warmup",
      baseUrl: base.baseUrl,
      ...warmup,
      durationSeconds: Math.min(2, options.durationSeconds),
    });
    const runs: [name: string, server: typeof app, paths: readonly string[]][] = [
      ["mix", app, sets.mix],
      ["mix, cache off", uncached, sets.mix],
      ["canned: mix", base, sets.mix],
      ["first pages", app, sets.firstPages],
      ["first pages, cache off", uncached, sets.firstPages],
      ["canned: first pages", base, sets.firstPages],
      ["hash lookups", app, sets.hashes],
      ["hash lookups, cache off", uncached, sets.hashes],
      ["canned: hash lookups", base, sets.hashes],
      ["hello world", base, ["/hello"]],
      ["hot first pages, cache off", uncached, sets.hotFirstPages],
      ["deep pages, cache off", uncached, sets.deepPages],
    ];
    for (const [name, server, paths] of runs) {
      log(`${server === base ? "baseline" : "API"}: ${name} for ${options.durationSeconds} s ...`);
      results[name] = await runLoad({ name, baseUrl: server.baseUrl, paths, ...scenario });
    }
    log("API (cache off): unloaded latency probes ...");
    const ordinaryFirst = sets.firstPages
      .filter((p) => !sets.hotFirstPages.includes(p))
      .slice(0, 100);
    probes = {
      "ordinary first page": await probeLatency(uncached.baseUrl, ordinaryFirst, 3),
      "hot first page (total 100,000+)": await probeLatency(
        uncached.baseUrl,
        sets.hotFirstPages,
        75,
      ),
      [`deep page (${DEEP_OFFSET.toLocaleString("en-US")} rows in)`]: await probeLatency(
        uncached.baseUrl,
        sets.deepPages,
        50,
      ),
      "hash lookup": await probeLatency(uncached.baseUrl, sets.hashes.slice(0, 100), 3),
    };
  } finally {
    await app.stop();
    await uncached.stop();
    await baseline?.stop();
  }

  const report: ListBenchmarkReport = {
    command: args.length > 0 ? `npm run bench:list -- ${args.join(" ")}` : "npm run bench:list",
    date: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model ?? "unknown",
    cores: os.cpus().length,
    loadAverage,
    loadAverageAtEnd: loadAverageAtEnd(),
    records: options.records,
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    dataset,
    hotTotals,
    results,
    probes,
    totalSeconds: (performance.now() - started) / 1000,
  };
  return finishBenchmark({
    section: formatListSection(report),
    sectionName: "list",
    resultsPath: options.resultsPath,
    write: options.write,
    results,
    log,
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await runListBenchmark(process.argv.slice(2));
}
