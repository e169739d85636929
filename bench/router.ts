import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { finishBenchmark, type LoadResult, runLoad } from "./load.js";
import { integerOption, optionsOrExitCode, RESULTS_ARGS } from "./options.js";
import { readProcessCpu } from "./process-cpu.js";
import {
  APP_CANNED_PATH,
  BARE_SPEC_TEXT_PATH,
  BARE_TEXT_PATH,
  type BenchRequest,
  buildRouterRequests,
  type GcStats,
} from "./router-requests.js";
import { startServerScript } from "./server-process.js";

const SERVER = fileURLToPath(new URL("./router-server.ts", import.meta.url));
const PATH = "/api/oracle/router";
const MEMO_OFF = "router: mix, quote memo off (every request validated and priced)";
const BARE_TEXT = "bare route, the canned quote's text as is (diagnostic)";
const BARE_SPEC_TEXT = "bare route, the same text without the added fields (diagnostic)";

const USAGE = `usage: bridge-oracle bench router [--duration S] [--rounds R] [--connections C]
                                   [--tokens N] [--pairs P] [--pair-rounds R]
                                   [--results FILE] [--no-write]

  --duration S     seconds per scenario and round (default 3)
  --rounds R       rounds; scenarios alternate within each, medians are reported (default 12)
  --connections C  concurrent connections (default 10)
  --tokens N       extra tokens per chain besides the base ones (default 10)
  --pairs P        pairs of fresh memo-off servers (with the added fields, the spec's four
                   fields only) that measure what the added fields cost (default 5)
  --pair-rounds R  rounds per pair (default 6)
  --results FILE   markdown file whose "## router" section is replaced (default bench/RESULTS.md)
  --no-write       print the section instead of writing it
`;

export interface Server {
  baseUrl: string;
  key: string | undefined;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** gcFile: where the server writes the collections it saw (bench/router-server.ts), if anywhere. */
export async function startServer(
  gcFile: string | undefined,
  mode: "app" | "baseline",
  arg: string,
  ...flags: string[]
): Promise<Server> {
  const started = await startServerScript(
    SERVER,
    [mode, arg, ...flags],
    mode,
    gcFile === undefined ? {} : { BENCH_GC_FILE: gcFile },
  );
  const key = started.info.key;
  return { ...started, key: typeof key === "string" ? key : undefined };
}

export function postLoad(
  name: string,
  server: Server,
  requests: readonly BenchRequest[],
  connections: number,
  durationSeconds: number,
  path = PATH,
): Promise<LoadResult> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (server.key !== undefined) headers.authorization = server.key;
  return runLoad({
    name,
    baseUrl: server.baseUrl,
    requests: requests.map((r) => ({
      method: "POST" as const,
      path,
      headers,
      body: JSON.stringify(r.body),
    })),
    connections,
    durationSeconds,
  });
}

/**
 * Starts servers at once (loading the sources is most of a start, and there are two cores); when
 * one fails, stops the others and throws.
 */
async function startServers(...starts: (() => Promise<Server>)[]): Promise<Server[]> {
  const settled = await Promise.allSettled(starts.map((start) => start()));
  const failed = settled.find((s) => s.status === "rejected");
  if (failed === undefined) return settled.map((s) => (s as PromiseFulfilledResult<Server>).value);
  for (const s of settled) if (s.status === "fulfilled") await s.value.stop();
  throw failed.reason;
}

/** The median of a list of numbers (the lower middle of an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Per metric, the median over the rounds (errors summed). */
function medianOfRounds(list: readonly LoadResult[]): LoadResult {
  const of = (pick: (r: LoadResult) => number) => median(list.map(pick));
  return {
    name: list[0]!.name,
    requests: list.reduce((n, r) => n + r.requests, 0),
    seconds: list.reduce((n, r) => n + r.seconds, 0),
    requestsPerSecond: of((r) => r.requestsPerSecond),
    p50: of((r) => r.p50),
    p99: of((r) => r.p99),
    mean: of((r) => r.mean),
    non2xx: list.reduce((n, r) => n + r.non2xx, 0),
    errors: list.reduce((n, r) => n + r.errors, 0),
    bytesPerResponse: of((r) => r.bytesPerResponse),
  };
}

async function readGcStats(path: string): Promise<GcStats | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as GcStats;
  } catch {
    return undefined;
  }
}

/** Scavenge count, mean and longest pause per server (a pause stops every request in flight). */
function gcReading(gc: Record<"app" | "computing" | "baseline", GcStats | undefined>): string {
  const one = (name: string, stats: GcStats | undefined) => {
    if (stats === undefined) return `${name}: not reported`;
    const { count, totalMs, maxMs } = stats.scavenges;
    const mean = count === 0 ? 0 : totalMs / count;
    return `${name}: ${count}, mean ${mean.toFixed(2)} ms, longest ${maxMs.toFixed(2)} ms`;
  };
  return [
    one("app", gc.app),
    one("memo-off app", gc.computing),
    one("bare route", gc.baseline),
  ].join("; ");
}

const ms = (v: number) => (Number.isNaN(v) ? "-" : v.toFixed(2));
const int = (v: number) => Math.round(v).toLocaleString("en-US");

function parseOptions(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      duration: { type: "string", default: "3" },
      rounds: { type: "string", default: "12" },
      connections: { type: "string", default: "10" },
      tokens: { type: "string", default: "10" },
      pairs: { type: "string", default: "5" },
      "pair-rounds": { type: "string", default: "6" },
      ...RESULTS_ARGS,
    },
  });
  if (values.help) return "help" as const;
  return {
    duration: integerOption("duration", values.duration, 1, 600),
    connections: integerOption("connections", values.connections, 1, 1000),
    tokens: integerOption("tokens", values.tokens, 0, 200),
    roundCount: integerOption("rounds", values.rounds, 1, 20),
    pairs: integerOption("pairs", values.pairs, 1, 20),
    pairRounds: integerOption("pair-rounds", values["pair-rounds"], 1, 20),
    resultsPath: values.results,
    write: !values["no-write"],
  };
}

/** One pair of memo-off servers: per metric, the median over its rounds, and CPU per request. */
interface PairReading {
  fields: LoadResult;
  specOnly: LoadResult;
  /** fields' req/s over specOnly's. */
  ratio: number;
  /** Server CPU (user + system) per request over the pair's rounds, µs; undefined without /proc. */
  fieldsCpuMicros: number | undefined;
  specOnlyCpuMicros: number | undefined;
}

/**
 * What the fields beside the spec's cost: a memo-off server with them and one answering the
 * spec's four fields only, both started afresh, warmed up, loaded in turn for `rounds` rounds
 * (the order flips each round) and stopped; `pairs` times. One pair is not enough: the ratio
 * moves from one pair of processes to the next by more than the 10 % the target allows (an A/B of
 * two builds read 111 % in one pair and 88 % in the next), so the target reads the median pair.
 */
async function measureAddedFields(options: {
  set: ReturnType<typeof buildRouterRequests>;
  tokens: number;
  pairs: number;
  rounds: number;
  duration: number;
  connections: number;
  log: (line: string) => void;
}): Promise<PairReading[]> {
  const { set, tokens, connections, duration, log } = options;
  const readings: PairReading[] = [];
  for (let pair = 1; pair <= options.pairs; pair++) {
    const start = (specOnly: boolean) =>
      startServer(undefined, "app", String(tokens), "no-memo", ...(specOnly ? ["spec-only"] : []));
    const [fields, specOnly] = (await startServers(
      () => start(false),
      () => start(true),
    )) as [Server, Server];
    try {
      await postLoad("warmup", fields, set.mix, connections, Math.min(3, duration));
      await postLoad("warmup", specOnly, set.mix, connections, Math.min(3, duration));
      const runs = { fields: [] as LoadResult[], specOnly: [] as LoadResult[] };
      const cpuMs = { fields: 0, specOnly: 0 };
      let cpuRead = true;
      for (let round = 1; round <= options.rounds; round++) {
        const order =
          round % 2 === 1 ? (["fields", "specOnly"] as const) : (["specOnly", "fields"] as const);
        for (const which of order) {
          const server = which === "fields" ? fields : specOnly;
          log(
            `pair ${pair}/${options.pairs}, round ${round}/${options.rounds}: memo off, ${which === "fields" ? "with the added fields" : "the spec's four fields only"} ...`,
          );
          const before = server.pid === undefined ? undefined : readProcessCpu(server.pid);
          const result = await postLoad(which, server, set.mix, connections, duration);
          const after = server.pid === undefined ? undefined : readProcessCpu(server.pid);
          if (before === undefined || after === undefined) cpuRead = false;
          else cpuMs[which] += after.ms - before.ms;
          log(`  ${int(result.requestsPerSecond)} req/s`);
          runs[which].push(result);
        }
      }
      const reading = {
        fields: medianOfRounds(runs.fields),
        specOnly: medianOfRounds(runs.specOnly),
      };
      const micros = (which: "fields" | "specOnly") =>
        cpuRead ? (cpuMs[which] * 1000) / reading[which].requests : undefined;
      readings.push({
        ...reading,
        ratio: reading.fields.requestsPerSecond / reading.specOnly.requestsPerSecond,
        fieldsCpuMicros: micros("fields"),
        specOnlyCpuMicros: micros("specOnly"),
      });
      log(`pair ${pair}: ${(readings.at(-1)!.ratio * 100).toFixed(1)} %`);
    } finally {
      await fields.stop();
      await specOnly.stop();
    }
  }
  return readings;
}

const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** The added fields' target and readings, from the pairs; the median pair's rows for the table. */
function addedFieldsReport(readings: readonly PairReading[], rounds: number) {
  const ratio = median(readings.map((r) => r.ratio));
  const medianPair = readings.findIndex((r) => r.ratio === ratio);
  const { fields, specOnly } = readings[medianPair]!;
  const label = `pair ${medianPair + 1} of ${readings.length}, the median pair`;
  const everyPair = Object.fromEntries(
    readings.flatMap((r, i) => [
      [`pair ${i + 1} fields`, r.fields],
      [`pair ${i + 1} spec-only`, r.specOnly],
    ]),
  );
  const cpu = readings.every(
    (r) => r.fieldsCpuMicros !== undefined && r.specOnlyCpuMicros !== undefined,
  )
    ? {
        fields: median(readings.map((r) => r.fieldsCpuMicros!)),
        specOnly: median(readings.map((r) => r.specOnlyCpuMicros!)),
        pairs: readings
          .map((r) => `${r.fieldsCpuMicros!.toFixed(0)} vs ${r.specOnlyCpuMicros!.toFixed(0)}`)
          .join(", "),
      }
    : undefined;
  const targetRows = [
    `| memo-off quote req/s with the fields beside the spec's (transactionRequest, approval, stateBlocks, expiresAt, estimatedDuration) >= 90 % of the same server answering the spec's four fields only (the median of ${readings.length} pairs of fresh servers) | ${percent(ratio)} (${int(fields.requestsPerSecond)} vs ${int(specOnly.requestsPerSecond)} req/s, i.e. ${((1 / fields.requestsPerSecond - 1 / specOnly.requestsPerSecond) * 1e6).toFixed(0)} µs more per request; ${int(fields.bytesPerResponse)} vs ${int(specOnly.bytesPerResponse)} bytes per response); pair by pair, each over ${rounds} rounds: ${readings.map((r) => percent(r.ratio)).join(", ")} | ${ratio >= 0.9 ? "yes" : "**no**"} |`,
    cpu === undefined
      ? "| (reading) server CPU per memo-off quote | not read (no /proc) | - |"
      : `| (reading) server CPU per memo-off quote, with the added fields vs the spec's four only (median over the pairs) | ${cpu.fields.toFixed(0)} vs ${cpu.specOnly.toFixed(0)} µs: the fields add ${(cpu.fields - cpu.specOnly).toFixed(0)} µs, ${percent(cpu.fields / cpu.specOnly - 1)}; pair by pair, µs: ${cpu.pairs} | - |`,
  ];
  return {
    targetRows,
    everyPair,
    rows: [
      { ...fields, name: `${MEMO_OFF}, with the added fields (${label})` },
      { ...specOnly, name: `router: mix, quote memo off, the spec's four fields only (${label})` },
    ],
  };
}

export async function runRouterBenchmark(args: string[]): Promise<number> {
  const options = optionsOrExitCode(() => parseOptions(args), USAGE);
  if (typeof options === "number") return options;
  const { duration, connections, tokens, roundCount, pairs, pairRounds } = options;
  const log = (line: string) => process.stderr.write(`[bench router] ${line}\n`);
  const started = performance.now();
  const loadAverage = os.loadavg();
  const set = buildRouterRequests({ extraTokensPerChain: tokens, count: 100, seed: 1 });
  log(
    `${set.direct.length} direct and ${set.swaps.length} swap requests; tokens per chain: ${JSON.stringify(set.tokensPerChain)}`,
  );

  const results: Record<string, LoadResult> = {};
  const rounds = new Map<string, LoadResult[]>();
  const dir = await mkdtemp(join(os.tmpdir(), "bench-router-"));
  const gcFiles = {
    app: join(dir, "app.gc.json"),
    computing: join(dir, "no-memo.gc.json"),
    baseline: join(dir, "baseline.gc.json"),
  };
  let gc: Record<keyof typeof gcFiles, GcStats | undefined> | undefined;
  const [app, computing] = (await startServers(
    () => startServer(gcFiles.app, "app", String(tokens)),
    // The same app with the router's quote memo off: every request validated and priced.
    () => startServer(gcFiles.computing, "app", String(tokens), "no-memo"),
  )) as [Server, Server];
  let baseline: Server | undefined;
  try {
    // A mix response of median size becomes the baseline's canned body.
    const sizes: { size: number; text: string }[] = [];
    for (const r of set.mix) {
      const response = await fetch(`${app.baseUrl}${PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: app.key! },
        body: JSON.stringify(r.body),
      });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`quote failed: ${response.status} ${text}`);
      sizes.push({ size: text.length, text });
    }
    sizes.sort((a, b) => a.size - b.size);
    const cannedPath = join(dir, "canned.json");
    await writeFile(cannedPath, sizes[Math.floor(sizes.length / 2)]!.text);
    baseline = await startServer(gcFiles.baseline, "baseline", cannedPath);
    log("warming up ...");
    await postLoad("warmup", app, set.mix, connections, Math.min(3, duration));
    await postLoad("warmup", computing, set.mix, connections, Math.min(3, duration));
    await postLoad("warmup", baseline, set.mix, connections, Math.min(2, duration));
    // Both servers stay up (only one is loaded at a time) and the scenarios alternate round by
    // round, so a burst of background load on a shared machine hits every scenario alike.
    const scenarios: [string, Server, readonly BenchRequest[], string][] = [
      ["router: mix", app, set.mix, PATH],
      ["bare Fastify POST, canned quote", baseline, set.mix, PATH],
      [MEMO_OFF, computing, set.mix, PATH],
      ["router: direct routes", app, set.direct, PATH],
      ["router: swap routes", app, set.swaps, PATH],
      ["app stack, canned quote (no router; diagnostic)", app, set.mix, APP_CANNED_PATH],
      [BARE_TEXT, baseline, set.mix, BARE_TEXT_PATH],
      [BARE_SPEC_TEXT, baseline, set.mix, BARE_SPEC_TEXT_PATH],
    ];
    for (let round = 1; round <= roundCount; round++) {
      for (const [name, server, requests, path] of scenarios) {
        log(`round ${round}/${roundCount}: ${name} for ${duration} s ...`);
        const result = await postLoad(name, server, requests, connections, duration, path);
        log(`  ${int(result.requestsPerSecond)} req/s, p99 ${ms(result.p99)} ms`);
        rounds.set(name, [...(rounds.get(name) ?? []), result]);
      }
    }
    for (const [name, list] of rounds) results[name] = medianOfRounds(list);
  } finally {
    await baseline?.stop();
    await computing.stop();
    await app.stop();
    gc = {
      app: await readGcStats(gcFiles.app),
      computing: await readGcStats(gcFiles.computing),
      baseline: await readGcStats(gcFiles.baseline),
    };
    await rm(dir, { recursive: true, force: true });
  }
  // Only now, with the servers above stopped: each pair has the machine to itself.
  const pairReadings = await measureAddedFields({
    set,
    tokens,
    pairs,
    rounds: pairRounds,
    duration,
    connections,
    log,
  });

  const mix = results["router: mix"]!;
  const bare = results["bare Fastify POST, canned quote"]!;
  // The router and bare runs of one round are seconds apart: their ratios show the spread.
  const mixRounds = rounds.get("router: mix")!;
  const bareRounds = rounds.get("bare Fastify POST, canned quote")!;
  const perRound = (pick: (r: LoadResult) => number, format: (ratio: number) => string) =>
    mixRounds.map((r, i) => format(pick(r) / pick(bareRounds[i]!))).join(", ");
  const rpsRounds = perRound(
    (r) => r.requestsPerSecond,
    (x) => `${(x * 100).toFixed(0)} %`,
  );
  const p99Rounds = perRound(
    (r) => r.p99,
    (x) => `${x.toFixed(2)}x`,
  );
  const rpsRatio = mix.requestsPerSecond / bare.requestsPerSecond;
  const stack = results["app stack, canned quote (no router; diagnostic)"]!;
  const computed = results[MEMO_OFF]!;
  const computedRatio = computed.requestsPerSecond / bare.requestsPerSecond;
  const added = addedFieldsReport(pairReadings, pairRounds);
  const bareText = results[BARE_TEXT]!;
  const bareSpecText = results[BARE_SPEC_TEXT]!;
  const bytesRatio = bareText.requestsPerSecond / bareSpecText.requestsPerSecond;
  const bytesMicros = (1 / bareText.requestsPerSecond - 1 / bareSpecText.requestsPerSecond) * 1e6;
  const loadAtEnd = os.loadavg();
  const busiest = Math.max(loadAverage[0]!, loadAtEnd[0]!);
  // Per-request time the router's own work adds over the app stack answering a canned quote.
  const routerMicros = (1 / computed.requestsPerSecond - 1 / stack.requestsPerSecond) * 1e6;
  const p99Ratio = mix.p99 / bare.p99;
  const lines = [
    "## router",
    "",
    `- Command: \`npm run bench:router -- ${args.join(" ")}\``.replace(" -- `", "`"),
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${os.cpus()[0]?.model ?? "unknown"}, ${os.cpus().length} cores, Node ${process.version}; load average (1/5/15 min) ${loadAverage.map((l) => l.toFixed(2)).join(" / ")} at start, ${loadAtEnd.map((l) => l.toFixed(2)).join(" / ")} at end`,
    ...(busiest > os.cpus().length
      ? [
          `- **Busy machine**: 1-minute load average ${busiest.toFixed(1)} on ${os.cpus().length} cores (other processes were running), so the server and the load generator did not have a core each: absolute numbers are pessimistic and noisy; the rounds alternate so that ratios suffer less.`,
        ]
      : []),
    `- Data: the router fixture, three chains with ${Object.entries(set.tokensPerChain)
      .map(([c, n]) => `${n} tokens on ${c}`)
      .join(
        ", ",
      )} (native coin included), every bridge kind between every pair of chains, Uniswap V3 pools (three fee tiers, ticks crossed by the larger swaps) beside the V2 pairs on USDC/WETH and DAI/USDC; ${set.direct.length} direct-route and ${set.swaps.length} swap-route requests (seeded), every one a 200.`,
    `- Load: autocannon, ${connections} connections, ${roundCount} rounds of ${duration} s per scenario after a warm-up (scenarios alternate within each round, both servers up; each figure is the median over the rounds), POST with a JSON body and \`Authorization: <key>\`; server and load generator in separate processes. The API as buildApp makes it (LOG_LEVEL=warn) with API-key auth (a key in SQLite, cached), rate limiting (limit high enough never to refuse) and the router route over a static snapshot republished every second (a new snapshot each second, as on a chain with 1 s blocks, so the router's per-snapshot caches and its quote memo turn over every second). "router: mix" is the production default: a request repeated within one snapshot is answered from the router's memo (the ${set.mix.length} requests cycle, so most are repeats); "quote memo off" is a second app server that validates and prices every request. Baseline: a bare Fastify POST route (JSON body parsed) answering a canned quote of the median response size through the same response schema. Whole run: ${((performance.now() - started) / 1000).toFixed(0)} s.`,
    `- What the fields beside the spec's cost (transactionRequest, approval, stateBlocks, expiresAt, estimatedDuration), measured after the scenarios above, with their servers stopped: ${pairs} pairs of fresh memo-off servers, one with the fields and one whose quotes carry the spec's four fields only, each pair warmed up and loaded in turn (the order flipping each round) for ${pairRounds} rounds of ${duration} s with the mix, then stopped. A pair's figure is the ratio of its two medians over the rounds; the target reads the median pair, because one pair's ratio can stray from the next pair's by more than the target's margin (an A/B of two builds read 111 % in one pair of processes and 88 % in the next). Server CPU per request: the server process's user + system time (/proc/<pid>/stat: every thread, the kernel's work on its socket writes included) over the requests it answered.`,
    "",
    "| scenario | req/s | p50 ms | p99 ms | mean ms | non-2xx / errors | bytes/response |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...[...Object.values(results), ...added.rows].map(
      (r) =>
        `| ${r.name} | ${int(r.requestsPerSecond)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.mean)} | ${r.non2xx} / ${r.errors} | ${int(r.bytesPerResponse)} |`,
    ),
    "",
    "| target | measured | met |",
    "|---|---|---|",
    `| router mix req/s >= 70 % of the bare route's | ${(rpsRatio * 100).toFixed(1)} % | ${rpsRatio >= 0.7 ? "yes" : "**no**"} |`,
    `| router mix p99 within 1.5x of the bare route's p99 | ${p99Ratio.toFixed(3)}x (${ms(mix.p99)} vs ${ms(bare.p99)} ms) | ${p99Ratio <= 1.5 ? "yes" : "**no**"} |`,
    `| (reading) the same ratios round by round (each round's router and bare runs back to back) | req/s ${rpsRounds}; p99 ${p99Rounds} | - |`,
    ...added.targetRows,
    `| (reading) the added bytes alone: the bare route sending the canned quote's text vs the same text without the added fields, one process, no serialising | ${percent(bytesRatio)} (${int(bareText.bytesPerResponse)} vs ${int(bareSpecText.bytesPerResponse)} bytes per response): sending them costs about ${bytesMicros.toFixed(0)} µs per request | - |`,
    `| (reading) router mix with the quote memo off vs the bare route | ${(computedRatio * 100).toFixed(0)} %, p99 ${(computed.p99 / bare.p99).toFixed(2)}x | - |`,
    `| (reading) the app stack alone vs the bare route | ${((stack.requestsPerSecond / bare.requestsPerSecond) * 100).toFixed(0)} %; with the memo off, the router's own work (validation incl. EIP-55 checksums, pricing, response building) adds about ${routerMicros.toFixed(0)} µs per request on top | - |`,
    `| (reading) young-generation collections (scavenges) in each server from listening to stopping, warm-up included | ${gcReading(gc)} | - |`,
    "| no RPC call and no database query on the request path | state from the provider's snapshot, keys from the in-memory cache (test/router/quote-route.test.ts counts the calls) | yes |",
    "",
  ];
  return finishBenchmark({
    section: lines.join("\n"),
    sectionName: "router",
    resultsPath: options.resultsPath,
    write: options.write,
    results: { ...results, ...added.everyPair },
    log,
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await runRouterBenchmark(process.argv.slice(2));
}
