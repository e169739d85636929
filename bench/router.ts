import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { finishBenchmark, type LoadResult, runLoad } from "./load.js";
import { integerOption, optionsOrExitCode, RESULTS_ARGS } from "./options.js";
import {
  APP_CANNED_PATH,
  type BenchRequest,
  buildRouterRequests,
  type GcStats,
} from "./router-requests.js";
import { startServerScript } from "./server-process.js";

const SERVER = fileURLToPath(new URL("./router-server.ts", import.meta.url));
const PATH = "/api/oracle/router";
const SPEC_ONLY = "router: mix, quote memo off, the spec's four fields only (diagnostic)";

const USAGE = `usage: bridge-oracle bench router [--duration S] [--rounds R] [--connections C]
                                   [--tokens N] [--results FILE] [--no-write]

  --duration S     seconds per scenario and round (default 3)
  --rounds R       rounds; scenarios alternate within each, medians are reported (default 12)
  --connections C  concurrent connections (default 10)
  --tokens N       extra tokens per chain besides the base ones (default 10)
  --results FILE   markdown file whose "## router" section is replaced (default bench/RESULTS.md)
  --no-write       print the section instead of writing it
`;

interface Server {
  baseUrl: string;
  key: string | undefined;
  stop(): Promise<void>;
}

async function startServer(
  gcFile: string,
  mode: "app" | "baseline",
  arg: string,
  ...flags: string[]
): Promise<Server> {
  const started = await startServerScript(SERVER, [mode, arg, ...flags], mode, {
    BENCH_GC_FILE: gcFile,
  });
  const key = started.info.key;
  return { ...started, key: typeof key === "string" ? key : undefined };
}

function postLoad(
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

/** Per metric, the median over the rounds (errors summed). */
function medianOfRounds(list: readonly LoadResult[]): LoadResult {
  const median = (pick: (r: LoadResult) => number) => {
    const sorted = list.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)]!;
  };
  return {
    name: list[0]!.name,
    requests: list.reduce((n, r) => n + r.requests, 0),
    seconds: list.reduce((n, r) => n + r.seconds, 0),
    requestsPerSecond: median((r) => r.requestsPerSecond),
    p50: median((r) => r.p50),
    p99: median((r) => r.p99),
    mean: median((r) => r.mean),
    non2xx: list.reduce((n, r) => n + r.non2xx, 0),
    errors: list.reduce((n, r) => n + r.errors, 0),
    bytesPerResponse: median((r) => r.bytesPerResponse),
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
function gcReading(
  gc: Record<"app" | "computing" | "specOnly" | "baseline", GcStats | undefined>,
): string {
  const one = (name: string, stats: GcStats | undefined) => {
    if (stats === undefined) return `${name}: not reported`;
    const { count, totalMs, maxMs } = stats.scavenges;
    const mean = count === 0 ? 0 : totalMs / count;
    return `${name}: ${count}, mean ${mean.toFixed(2)} ms, longest ${maxMs.toFixed(2)} ms`;
  };
  return [
    one("app", gc.app),
    one("memo-off app", gc.computing),
    one("memo-off spec-only app", gc.specOnly),
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
      ...RESULTS_ARGS,
    },
  });
  if (values.help) return "help" as const;
  return {
    duration: integerOption("duration", values.duration, 1, 600),
    connections: integerOption("connections", values.connections, 1, 1000),
    tokens: integerOption("tokens", values.tokens, 0, 200),
    roundCount: integerOption("rounds", values.rounds, 1, 20),
    resultsPath: values.results,
    write: !values["no-write"],
  };
}

export async function runRouterBenchmark(args: string[]): Promise<number> {
  const options = optionsOrExitCode(() => parseOptions(args), USAGE);
  if (typeof options === "number") return options;
  const { duration, connections, tokens, roundCount } = options;
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
    specOnly: join(dir, "spec-only.gc.json"),
    baseline: join(dir, "baseline.gc.json"),
  };
  let gc: Record<keyof typeof gcFiles, GcStats | undefined> | undefined;
  const app = await startServer(gcFiles.app, "app", String(tokens));
  // The same app with the router's quote memo off: every request validated and priced.
  const computing = await startServer(gcFiles.computing, "app", String(tokens), "no-memo");
  // The same again answering the spec's four fields only: what the added fields cost.
  const specOnly = await startServer(
    gcFiles.specOnly,
    "app",
    String(tokens),
    "no-memo",
    "spec-only",
  );
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
    await postLoad("warmup", specOnly, set.mix, connections, Math.min(3, duration));
    await postLoad("warmup", baseline, set.mix, connections, Math.min(2, duration));
    // Both servers stay up (only one is loaded at a time) and the scenarios alternate round by
    // round, so a burst of background load on a shared machine hits every scenario alike.
    const scenarios: [string, Server, readonly BenchRequest[], string][] = [
      ["router: mix", app, set.mix, PATH],
      ["bare Fastify POST, canned quote", baseline, set.mix, PATH],
      [
        "router: mix, quote memo off (every request validated and priced)",
        computing,
        set.mix,
        PATH,
      ],
      [SPEC_ONLY, specOnly, set.mix, PATH],
      ["router: direct routes", app, set.direct, PATH],
      ["router: swap routes", app, set.swaps, PATH],
      ["app stack, canned quote (no router; diagnostic)", app, set.mix, APP_CANNED_PATH],
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
    await specOnly.stop();
    await app.stop();
    gc = {
      app: await readGcStats(gcFiles.app),
      computing: await readGcStats(gcFiles.computing),
      specOnly: await readGcStats(gcFiles.specOnly),
      baseline: await readGcStats(gcFiles.baseline),
    };
    await rm(dir, { recursive: true, force: true });
  }

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
  const computed = results["router: mix, quote memo off (every request validated and priced)"]!;
  const computedRatio = computed.requestsPerSecond / bare.requestsPerSecond;
  const spec = results[SPEC_ONLY]!;
  const addedRatio = computed.requestsPerSecond / spec.requestsPerSecond;
  // Round by round: the two memo-off servers run back to back within each round.
  const specRounds = rounds.get(SPEC_ONLY)!;
  const addedRounds = rounds
    .get("router: mix, quote memo off (every request validated and priced)")!
    .map(
      (r, i) => `${((r.requestsPerSecond / specRounds[i]!.requestsPerSecond) * 100).toFixed(0)} %`,
    )
    .join(", ");
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
      )} (native coin included), every bridge kind between every pair of chains; ${set.direct.length} direct-route and ${set.swaps.length} swap-route requests (seeded), every one a 200.`,
    `- Load: autocannon, ${connections} connections, ${roundCount} rounds of ${duration} s per scenario after a warm-up (scenarios alternate within each round, both servers up; each figure is the median over the rounds), POST with a JSON body and \`Authorization: <key>\`; server and load generator in separate processes. The API as buildApp makes it (LOG_LEVEL=warn) with API-key auth (a key in SQLite, cached), rate limiting (limit high enough never to refuse) and the router route over a static snapshot republished every second (a new snapshot each second, as on a chain with 1 s blocks, so the router's per-snapshot caches and its quote memo turn over every second). "router: mix" is the production default: a request repeated within one snapshot is answered from the router's memo (the ${set.mix.length} requests cycle, so most are repeats); "quote memo off" is a second app server that validates and prices every request; "spec's fields only" a third, the same with quotes carrying only the four fields of the specification (no transactionRequest, approval, stateBlocks, expiresAt, estimatedDuration), to measure what those cost. Baseline: a bare Fastify POST route (JSON body parsed) answering a canned quote of the median response size through the same response schema. Whole run: ${((performance.now() - started) / 1000).toFixed(0)} s.`,
    "",
    "| scenario | req/s | p50 ms | p99 ms | mean ms | non-2xx / errors | bytes/response |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...Object.values(results).map(
      (r) =>
        `| ${r.name} | ${int(r.requestsPerSecond)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.mean)} | ${r.non2xx} / ${r.errors} | ${int(r.bytesPerResponse)} |`,
    ),
    "",
    "| target | measured | met |",
    "|---|---|---|",
    `| router mix req/s >= 70 % of the bare route's | ${(rpsRatio * 100).toFixed(1)} % | ${rpsRatio >= 0.7 ? "yes" : "**no**"} |`,
    `| router mix p99 within 1.5x of the bare route's p99 | ${p99Ratio.toFixed(3)}x (${ms(mix.p99)} vs ${ms(bare.p99)} ms) | ${p99Ratio <= 1.5 ? "yes" : "**no**"} |`,
    `| (reading) the same ratios round by round (each round's router and bare runs back to back) | req/s ${rpsRounds}; p99 ${p99Rounds} | - |`,
    `| memo-off quote req/s with the fields beside the spec's (transactionRequest, approval, stateBlocks, expiresAt, estimatedDuration) >= 90 % of the same server answering the spec's four fields only | ${(addedRatio * 100).toFixed(1)} % (${int(computed.requestsPerSecond)} vs ${int(spec.requestsPerSecond)} req/s; ${int(computed.bytesPerResponse)} vs ${int(spec.bytesPerResponse)} bytes per response); round by round ${addedRounds} | ${addedRatio >= 0.9 ? "yes" : "**no**"} |`,
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
    results,
    log,
  });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await runRouterBenchmark(process.argv.slice(2));
}
