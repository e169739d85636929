/**
 * The list benchmark (`npm run bench:list`, `bridge-oracle bench list`): loads N generated records
 * (default 1,000,000, with hot addresses of 100,000+ transfers) into the store under test once,
 * then drives the real API and, in the same run, a bare Fastify baseline (canned responses of the
 * same size with the same response schema, and a hello-world route) with autocannon, and writes
 * the results with the command and the machine into bench/RESULTS.md.
 *
 * `--store sqlite` (the default): a SQLite file in the cache directory, section "list".
 * `--store postgres`: the benchmark's own schema of the database at DATABASE_URL (list-postgres.ts),
 * section "list (PostgreSQL)". `--store both`: the one, then the other, each with its baseline.
 *
 * Run directly: node --import tsx bench/list.ts [--records N] [--duration S] [--connections C]
 */
import { writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ensureStoreDataset } from "./list-dataset.js";
import {
  BENCH_SCHEMA_NAME,
  type CommitWatch,
  DEFAULT_BENCH_SCHEMA,
  watchTransferCommits,
} from "./list-postgres.js";
import { formatListSection, LIST_SECTIONS, type ListBenchmarkReport } from "./list-report.js";
import { buildRequestSets, DEEP_OFFSET, listUrl } from "./list-requests.js";
import type { CannedBodies } from "./list-server.js";
import { finishBenchmark, getJson, type LoadResult, probeLatency, runLoad } from "./load.js";
import {
  benchmarkCommandLine,
  listMixArgs,
  listMixOptions,
  optionsOrExitCode,
  RESULTS_ARGS,
  storesOption,
} from "./options.js";
import { type ServerProcess, startAppServer, startServerProcess } from "./server-process.js";

const USAGE = `usage: bridge-oracle bench list [--records N] [--duration S] [--connections C]
                                 [--seed S] [--cache-dir DIR] [--results FILE] [--no-write]
                                 [--store sqlite|postgres|both] [--database-url URL]
                                 [--schema NAME]

  --records N         records to generate and load (default 1000000; cached in --cache-dir)
  --duration S        seconds per measured scenario (default 10)
  --connections C     concurrent connections (default 10)
  --cache-dir DIR     where the JSONL and the SQLite database are kept (default data/bench)
  --results FILE      markdown file whose "## list" (SQLite) or "## list (PostgreSQL)" section
                      is replaced (default bench/RESULTS.md)
  --no-write          print the section instead of writing it
  --store S           sqlite (default): a SQLite file in --cache-dir; postgres: a schema of the
                      PostgreSQL database at --database-url; both: one after the other, each
                      against its own run of the baseline
  --database-url URL  the PostgreSQL database (default DATABASE_URL); postgres and both only
  --schema NAME       the benchmark's own schema there (default ${DEFAULT_BENCH_SCHEMA}; must start
                      with bench_): loaded once, reused while it holds the same records, seed and
                      JSONL, dropped and loaded again otherwise; nothing outside it is touched
`;

type StoreKind = ListBenchmarkReport["store"];

interface ListBenchmarkOptions {
  records: number;
  durationSeconds: number;
  connections: number;
  seed: number;
  cacheDir: string;
  resultsPath: string;
  write: boolean;
  stores: StoreKind[];
  /** PostgreSQL runs: the database and the schema in it. */
  postgres?: { databaseUrl: string; schema: string };
}

function parseOptions(
  args: string[],
  env: Readonly<Record<string, string | undefined>>,
): ListBenchmarkOptions | "help" {
  const { values } = parseArgs({
    args,
    options: {
      ...listMixArgs("1000000"),
      store: { type: "string", default: "sqlite" },
      "database-url": { type: "string" },
      schema: { type: "string" },
      ...RESULTS_ARGS,
    },
  });
  if (values.help) return "help";
  const { stores, databaseUrl } = storesOption(values.store, values["database-url"], env);
  let postgres: ListBenchmarkOptions["postgres"];
  if (databaseUrl !== undefined) {
    const schema = values.schema ?? DEFAULT_BENCH_SCHEMA;
    if (!BENCH_SCHEMA_NAME.test(schema)) {
      throw new Error(
        "--schema must start with bench_ and have only lowercase letters, digits and _" +
          " (the benchmark drops and reloads it)",
      );
    }
    postgres = { databaseUrl, schema };
  } else if (values["database-url"] !== undefined || values.schema !== undefined) {
    throw new Error("--database-url and --schema apply to --store postgres or both");
  }
  return {
    ...listMixOptions(values),
    resultsPath: values.results,
    write: !values["no-write"],
    stores,
    ...(postgres !== undefined ? { postgres } : {}),
  };
}

export async function runListBenchmark(
  args: string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<number> {
  const options = optionsOrExitCode(() => parseOptions(args, env), USAGE);
  if (typeof options === "number") return options;
  let code = 0;
  for (const store of options.stores) {
    const log = (line: string) =>
      process.stderr.write(`[bench list${store === "postgres" ? " postgres" : ""}] ${line}\n`);
    try {
      const command = benchmarkCommandLine("list", args);
      code = Math.max(code, await runOnStore(store, options, command, log));
    } catch (error) {
      log(`failed: ${(error as Error).message}`);
      code = 1;
    }
  }
  return code;
}

async function runOnStore(
  store: StoreKind,
  options: ListBenchmarkOptions,
  command: string,
  log: (line: string) => void,
): Promise<number> {
  const started = performance.now();
  const loadAverage = os.loadavg();
  const loadAverageAtEnd = (): number[] => os.loadavg();

  const { dataset, postgres: postgresInfo } = await ensureStoreDataset({
    ...options,
    postgres: store === "postgres" ? options.postgres : undefined,
    log,
  });
  const sets = buildRequestSets(dataset.sample, options.seed);
  const scenario = { connections: options.connections, durationSeconds: options.durationSeconds };
  const storeName = store === "sqlite" ? "SQLite" : "PostgreSQL";

  // Both servers stay up and each API scenario runs right next to its baseline, so a change in
  // the machine's load (it is shared) hits both sides of a ratio alike.
  let app: ServerProcess | undefined;
  let uncached: ServerProcess | undefined;
  let baseline: ServerProcess | undefined;
  // PostgreSQL: commits by anyone to this database's transfers empty the cache; counted.
  let commits: CommitWatch | undefined;
  const results: Record<string, LoadResult> = {};
  let hotTotals: { address: string; total: number }[];
  let probes: ListBenchmarkReport["probes"];
  try {
    app = await startAppServer(dataset.databaseUrl);
    // The same API without its response cache: every request queries the database. The
    // database's own costs (deep pages, totals, unloaded latency) are measured here.
    uncached = await startAppServer(dataset.databaseUrl, "no-cache");
    if (store === "postgres") commits = await watchTransferCommits(options.postgres!.databaseUrl);
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

    log(`warming up the API (${storeName}) and the baseline ...`);
    for (const [server, seconds] of [
      [app, 3],
      [uncached, 3],
      [base, 2],
    ] as const) {
      await runLoad({
        name: "warmup",
        baseUrl: server.baseUrl,
        connections: options.connections,
        paths: sets.mix,
        durationSeconds: Math.min(seconds, options.durationSeconds),
      });
    }
    const runs: [name: string, server: ServerProcess, paths: readonly string[]][] = [
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
    await app?.stop();
    await uncached?.stop();
    await baseline?.stop();
    await commits?.stop();
  }

  const report: ListBenchmarkReport = {
    store,
    ...(postgresInfo !== undefined
      ? { postgres: { ...postgresInfo, otherCommits: commits?.count() ?? 0 } }
      : {}),
    command,
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
    sectionName: LIST_SECTIONS[store],
    resultsPath: options.resultsPath,
    write: options.write,
    results,
    log,
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await runListBenchmark(process.argv.slice(2));
}
