/**
 * Load and latency measurement for the benchmarks.
 *
 * runLoad drives a server with autocannon; its own histogram has 1 ms resolution, too coarse for
 * sub-millisecond responses, so latencies are taken from each response's float responseTime
 * instead. probeLatency sends requests one at a time on one kept-alive connection: the unloaded
 * latency of each request kind, free of queueing, for comparing kinds (deep vs first page).
 */
import http from "node:http";
import autocannon from "autocannon";
import { writeResultsSection } from "./list-report.js";

export interface LoadResult {
  name: string;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  mean: number;
  /** Responses that were not 2xx, errors and timeouts: should all be 0. */
  non2xx: number;
  errors: number;
  bytesPerResponse: number;
}

export interface LoadOptions {
  name: string;
  baseUrl: string;
  /** GET requests to these paths, in turn. */
  paths?: readonly string[];
  /** Or these requests (method, path, headers, body), in turn. */
  requests?: readonly autocannon.Request[];
  connections: number;
  durationSeconds: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.baseUrl,
        connections: options.connections,
        duration: options.durationSeconds,
        requests: [
          ...(options.requests ?? []),
          ...(options.paths ?? []).map((path) => ({ method: "GET" as const, path })),
        ],
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on("response", (_client, statusCode, _bytes, ms) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(ms);
    });
  });
  latencies.sort((a, b) => a - b);
  const total = result.requests.total;
  return {
    name: options.name,
    requests: total,
    seconds: result.duration,
    requestsPerSecond: total / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    mean: latencies.reduce((a, b) => a + b, 0) / Math.max(latencies.length, 1),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerResponse: total > 0 ? result.throughput.total / total : 0,
  };
}

export interface ProbeResult {
  p50: number;
  p99: number;
  mean: number;
}

/** Sends `rounds` passes over `paths`, one request at a time; returns latency in ms. */
export async function probeLatency(
  baseUrl: string,
  paths: readonly string[],
  rounds: number,
): Promise<ProbeResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const path of paths) {
        const started = process.hrtime.bigint();
        const status = await get(agent, `${baseUrl}${path}`);
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (status !== 200) throw new Error(`GET ${path}: HTTP ${status}`);
      }
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    mean: times.reduce((a, b) => a + b, 0) / Math.max(times.length, 1),
  };
}

function get(agent: http.Agent, url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

/**
 * The end of a benchmark run: writes its section of the results file (unless `write` is false),
 * prints it, and returns the exit code: 1 when any scenario saw non-2xx responses or errors.
 */
export async function finishBenchmark(options: {
  section: string;
  sectionName: string;
  resultsPath: string;
  write: boolean;
  results: Record<string, LoadResult>;
  log: (line: string) => void;
}): Promise<number> {
  const { section, log } = options;
  if (options.write) {
    await writeResultsSection(options.resultsPath, options.sectionName, section);
    log(`wrote the "${options.sectionName}" section of ${options.resultsPath}`);
  }
  process.stdout.write(`${section}\n`);
  const failures = Object.values(options.results).filter((r) => r.non2xx > 0 || r.errors > 0);
  if (failures.length > 0) {
    log(`non-2xx responses or errors in: ${failures.map((r) => r.name).join(", ")}`);
    return 1;
  }
  return 0;
}

/** GETs a URL and parses its JSON body. */
export async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}
