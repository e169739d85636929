/**
 * The push benchmark (`npm run bench:push`, `bridge-oracle bench push`, docs/push.md): loads the
 * list benchmark's generated data set (default 20,000 records) into the store under test, runs
 * each push scenario against it and writes the results with the command and the machine into
 * the "push" section of bench/RESULTS.md ("push (PostgreSQL)" with --store postgres).
 *
 * Scenarios (each a function in its own file, listed in SCENARIOS):
 *   streams    1,000 concurrent streams held by one API process while the list mix runs
 *              (bench/push-streams.ts)
 *   webhooks   latency from a change's commit to its webhook at a loopback receiver, at 100
 *              changes/s, in a database of its own (bench/push-webhooks.ts)
 * A scenario gets the options, the data set and the list benchmark's request sets, starts and
 * stops its own servers, and returns its markdown and its load results.
 *
 * Run directly: node --import tsx bench/push.ts [--records N] [--duration S] [--streams N]
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { databaseKind } from "../src/store/database-url.js";
import type { Dataset } from "./list-data.js";
import { ensureStoreDataset } from "./list-dataset.js";
import { DEFAULT_BENCH_SCHEMA } from "./list-postgres.js";
import { buildRequestSets, type RequestSets } from "./list-requests.js";
import { finishBenchmark, type LoadResult } from "./load.js";
import {
  benchmarkCommandLine,
  integerOption,
  listMixArgs,
  listMixOptions,
  optionsOrExitCode,
  RESULTS_ARGS,
} from "./options.js";
import { runStreamsScenario } from "./push-streams.js";
import { runWebhooksScenario } from "./push-webhooks.js";

export interface PushBenchmarkOptions {
  records: number;
  durationSeconds: number;
  connections: number;
  streams: number;
  /** Rounds of the streams scenario: a run without streams, then one with them. */
  rounds: number;
  seed: number;
  cacheDir: string;
  resultsPath: string;
  write: boolean;
  store: "sqlite" | "postgres";
  databaseUrl?: string;
  /** Scenario names to run; all by default. */
  only: string[] | undefined;
}

export interface PushScenarioContext {
  options: PushBenchmarkOptions;
  dataset: Dataset;
  sets: RequestSets;
  log: (line: string) => void;
}

export interface PushScenarioResult {
  name: string;
  /** Its part of the results section (a ### heading and what follows). */
  markdown: string;
  /** Load runs: any non-2xx response or error fails the benchmark. */
  results: LoadResult[];
  /** Whether the scenario met its target. */
  ok: boolean;
}

/** Every scenario, in the order they run. */
const SCENARIOS: {
  name: string;
  run(context: PushScenarioContext): Promise<PushScenarioResult>;
}[] = [
  { name: "streams", run: runStreamsScenario },
  { name: "webhooks", run: runWebhooksScenario },
];

const USAGE = `usage: bridge-oracle bench push [--records N] [--duration S] [--connections C]
                                 [--streams N] [--only NAME,...] [--store sqlite|postgres]
                                 [--database-url URL] [--seed S] [--cache-dir DIR]
                                 [--results FILE] [--no-write]

  --records N         records of the list data set (default 20000; cached in --cache-dir; the
                      cost of holding streams does not depend on it, and loading SQLite with
                      the change log's triggers is slow: docs/push.md)
  --duration S        seconds per measured list run (default 10)
  --connections C     concurrent list connections (default 10)
  --streams N         concurrent streams held while the list mix runs (default 1000)
  --rounds N          streams: rounds of a list run without then with the streams, and a
                      last run without (default 2)
  --only NAMES        run only these scenarios (${SCENARIOS.map((s) => s.name).join(", ")})
  --store S           sqlite (default) or postgres (the list benchmark's schema
                      ${DEFAULT_BENCH_SCHEMA} of --database-url / DATABASE_URL)
  --results FILE      markdown file whose "## push" section is replaced (default bench/RESULTS.md)
  --no-write          print the section instead of writing it
`;

function parseOptions(args: string[], env: NodeJS.ProcessEnv): PushBenchmarkOptions | "help" {
  const { values } = parseArgs({
    args,
    options: {
      ...listMixArgs("20000"),
      streams: { type: "string", default: "1000" },
      rounds: { type: "string", default: "2" },
      only: { type: "string" },
      store: { type: "string", default: "sqlite" },
      "database-url": { type: "string" },
      ...RESULTS_ARGS,
    },
  });
  if (values.help) return "help";
  if (values.store !== "sqlite" && values.store !== "postgres") {
    throw new Error("--store must be sqlite or postgres");
  }
  const only = values.only?.split(",").map((name) => name.trim());
  for (const name of only ?? []) {
    if (!SCENARIOS.some((s) => s.name === name)) throw new Error(`--only: no scenario ${name}`);
  }
  const databaseUrl = values["database-url"] ?? env.DATABASE_URL ?? "";
  if (values.store === "postgres" && databaseKind(databaseUrl) !== "postgres") {
    throw new Error("--store postgres needs a postgres:// URL: set DATABASE_URL or --database-url");
  }
  return {
    ...listMixOptions(values),
    streams: integerOption("streams", values.streams, 1, 100_000),
    rounds: integerOption("rounds", values.rounds, 1, 20),
    resultsPath: values.results,
    write: !values["no-write"],
    store: values.store,
    ...(values.store === "postgres" ? { databaseUrl } : {}),
    only,
  };
}

export async function runPushBenchmark(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const options = optionsOrExitCode(() => parseOptions(args, env), USAGE);
  if (typeof options === "number") return options;
  const log = (line: string) => process.stderr.write(`[bench push] ${line}\n`);
  const started = performance.now();
  const loadAverage = os.loadavg();
  const { dataset } = await ensureStoreDataset({
    ...options,
    postgres:
      options.store === "postgres"
        ? { databaseUrl: options.databaseUrl as string, schema: DEFAULT_BENCH_SCHEMA }
        : undefined,
    log,
  });
  const context: PushScenarioContext = {
    options,
    dataset,
    sets: buildRequestSets(dataset.sample, options.seed),
    log,
  };
  const outcomes: PushScenarioResult[] = [];
  for (const scenario of SCENARIOS) {
    if (options.only !== undefined && !options.only.includes(scenario.name)) continue;
    outcomes.push(await scenario.run(context));
  }
  const sectionName = options.store === "sqlite" ? "push" : "push (PostgreSQL)";
  const section = [
    `## ${sectionName}`,
    "",
    `Command: \`${benchmarkCommandLine("push", args)}\`, ${new Date().toISOString()}, ${options.store === "sqlite" ? "SQLite" : "PostgreSQL"},` +
      ` ${options.records.toLocaleString("en-US")} records, ${options.connections} list connections,` +
      ` ${options.durationSeconds} s per run; Node ${process.version}, ${os.cpus()[0]?.model ?? "unknown"}` +
      ` x ${os.cpus().length}; load average ${loadAverage.map((l) => l.toFixed(2)).join(" ")} at the` +
      ` start, ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")} at the end; ${((performance.now() - started) / 1000).toFixed(0)} s in all.`,
    "",
    ...outcomes.flatMap((o) => [o.markdown, ""]),
  ].join("\n");
  const results = Object.fromEntries(
    outcomes.flatMap((o) => o.results).map((r) => [r.name, r] as const),
  );
  const code = await finishBenchmark({
    section: section.trimEnd(),
    sectionName,
    resultsPath: options.resultsPath,
    write: options.write,
    results,
    log,
  });
  const missed = outcomes.filter((o) => !o.ok).map((o) => o.name);
  if (missed.length > 0) log(`targets not met: ${missed.join(", ")}`);
  return missed.length > 0 ? Math.max(code, 1) : code;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await runPushBenchmark(process.argv.slice(2));
}
