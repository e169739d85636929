/**
 * The streams scenario of `npm run bench:push` (bench/push.ts): N concurrent transfer streams
 * (GET /api/oracle/bridge-transactions/stream, docs/push.md) held by one API process while the
 * list benchmark's mix runs against it, against the same mix without them, the runs alternating
 * (`--rounds` of without-then-with, and a last one without). Memory per
 * stream: the server's resident set (/proc/PID/status VmRSS) with the streams open minus before,
 * divided by N (garbage not yet collected counts too, so it is an upper bound).
 */

import { readFile } from "node:fs/promises";
import http from "node:http";
import { TRANSFER_STREAM_PATH } from "../src/api/routes/transfer-stream.js";
import { type LoadResult, probeLatency, runLoad } from "./load.js";
import type { PushScenarioContext, PushScenarioResult } from "./push.js";
import { startAppServer } from "./server-process.js";

export interface StreamsReport {
  streams: number;
  /** Streams that were still open, with no error, when the loaded run ended. */
  heldToTheEnd: number;
  openSeconds: number;
  rssBeforeMb: number | undefined;
  rssWithStreamsMb: number | undefined;
  kbPerStream: number | undefined;
  /** In the order they ran. */
  runs: LoadResult[];
  /** Mean req/s with the streams open / mean req/s without them. */
  ratio: number;
}

interface HeldStream {
  ready: Promise<void>;
  open(): boolean;
  close(): void;
}

/** Opens one stream and resolves `ready` on its `ready` event. */
function holdStream(agent: http.Agent, url: string): HeldStream {
  let open = true;
  let request: http.ClientRequest | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    request = http.get(url, { agent, headers: { accept: "text/event-stream" } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`stream refused: HTTP ${response.statusCode}`));
        response.resume();
        return;
      }
      response.setEncoding("utf8");
      let seen = "";
      response.on("data", (chunk: string) => {
        if (seen !== "done") {
          seen += chunk;
          if (seen.includes("event: ready")) {
            seen = "done";
            resolve();
          }
        }
      });
      response.on("close", () => {
        open = false;
      });
    });
    request.on("error", (error) => {
      open = false;
      reject(error);
    });
  });
  return { ready, open: () => open, close: () => request?.destroy() };
}

async function rssMb(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** Opens `count` streams on `baseUrl` and waits until each has caught up (`ready`). */
async function openStreams(
  agent: http.Agent,
  baseUrl: string,
  addresses: readonly string[],
  count: number,
): Promise<HeldStream[]> {
  const held: HeldStream[] = [];
  for (let i = 0; i < count; i++) {
    const address = addresses[i % addresses.length];
    held.push(holdStream(agent, `${baseUrl}${TRANSFER_STREAM_PATH}?addressOrTxHash=${address}`));
  }
  try {
    await Promise.all(held.map((s) => s.ready));
  } catch (error) {
    for (const stream of held) stream.close();
    throw error;
  }
  return held;
}

export async function runStreamsScenario(
  context: PushScenarioContext,
): Promise<PushScenarioResult> {
  const { options, dataset, sets, log } = context;
  const server = await startAppServer(dataset.databaseUrl, "no-stream-limit");
  const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
  let held: HeldStream[] = [];
  const addresses = [...dataset.sample.addresses, ...dataset.sample.hotAddresses];
  try {
    const load = (name: string) =>
      runLoad({
        name,
        baseUrl: server.baseUrl,
        paths: sets.mix,
        connections: options.connections,
        durationSeconds: options.durationSeconds,
      });
    // Every URL of the mix once, so that the response cache holds the same answers in every
    // run (otherwise the first run pays the misses and the comparison leans on the order).
    log("streams: warming up the API (each URL of the mix, then 3 s of load) ...");
    await probeLatency(server.baseUrl, sets.mix, 1);
    await runLoad({
      name: "warmup",
      baseUrl: server.baseUrl,
      paths: sets.mix,
      connections: options.connections,
      durationSeconds: Math.min(3, options.durationSeconds),
    });
    // Runs alternate, without and with the streams, ending without: a shared machine's load
    // drifts, and alternating spreads the drift over both sides.
    const without: LoadResult[] = [];
    const withStreams: LoadResult[] = [];
    let rssBeforeMb: number | undefined;
    let rssWithStreamsMb: number | undefined;
    let openSeconds = 0;
    let heldToTheEnd = options.streams;
    for (let round = 1; round <= options.rounds; round++) {
      log(
        `streams: round ${round}: the list mix without streams for ${options.durationSeconds} s ...`,
      );
      without.push(await load(`mix, no streams (${round})`));
      if (round === 1) rssBeforeMb = await rssMb(server.pid);
      log(`streams: round ${round}: opening ${options.streams} streams ...`);
      const opening = performance.now();
      held = await openStreams(agent, server.baseUrl, addresses, options.streams);
      if (round === 1) {
        openSeconds = (performance.now() - opening) / 1000;
        rssWithStreamsMb = await rssMb(server.pid);
      }
      log(
        `streams: round ${round}: the list mix with the streams open for ${options.durationSeconds} s ...`,
      );
      withStreams.push(await load(`mix, ${options.streams} streams open (${round})`));
      heldToTheEnd = Math.min(heldToTheEnd, held.filter((s) => s.open()).length);
      for (const stream of held) stream.close();
      held = [];
    }
    log(`streams: the list mix without streams once more for ${options.durationSeconds} s ...`);
    without.push(await load(`mix, no streams (${options.rounds + 1})`));
    const mean = (runs: LoadResult[]) =>
      runs.reduce((sum, r) => sum + r.requestsPerSecond, 0) / runs.length;
    const report: StreamsReport = {
      streams: options.streams,
      heldToTheEnd,
      openSeconds,
      rssBeforeMb,
      rssWithStreamsMb,
      kbPerStream:
        rssBeforeMb === undefined || rssWithStreamsMb === undefined
          ? undefined
          : ((rssWithStreamsMb - rssBeforeMb) * 1024) / options.streams,
      runs: [...without, ...withStreams].sort((a, b) => runOrder(a) - runOrder(b)),
      ratio: mean(withStreams) / mean(without),
    };
    return {
      name: "streams",
      markdown: formatStreams(report),
      results: report.runs,
      ok: report.ratio >= 0.8 && heldToTheEnd === options.streams,
    };
  } finally {
    for (const stream of held) stream.close();
    agent.destroy();
    await server.stop();
  }
}

/** Runs in the order they ran: round n's run without streams, then with them. */
function runOrder(run: LoadResult): number {
  const round = Number(/\((\d+)\)$/.exec(run.name)?.[1] ?? 0);
  return round * 2 + (run.name.includes("streams open") ? 1 : 0);
}

const fixed = (n: number | undefined, digits: number) =>
  n === undefined || Number.isNaN(n) ? "n/a" : n.toFixed(digits);

function formatStreams(r: StreamsReport): string {
  const row = (run: LoadResult) =>
    `| ${run.name} | ${Math.round(run.requestsPerSecond).toLocaleString("en-US")} | ${fixed(run.p50, 2)} | ${fixed(run.p99, 2)} | ${run.non2xx + run.errors} |`;
  return [
    `### ${r.streams.toLocaleString("en-US")} concurrent streams while the list mix runs`,
    "",
    `Target: list throughput with the streams open >= 80 % of the same mix without them.`,
    `**${(r.ratio * 100).toFixed(1)} %** (mean req/s of the runs with the streams open / mean` +
      " of the runs without them, alternating;" +
      ` ${r.ratio >= 0.8 ? "met" : "NOT met"}).` +
      ` Streams held to the end: ${r.heldToTheEnd} of ${r.streams}; all ${r.streams} opened and` +
      ` caught up (\`ready\`) in ${r.openSeconds.toFixed(2)} s.`,
    "",
    "| run | req/s | p50 ms | p99 ms | non-2xx + errors |",
    "|---|---|---|---|---|",
    ...r.runs.map(row),
    "",
    `Memory: the API process's resident set was ${fixed(r.rssBeforeMb, 1)} MiB after the run` +
      ` without streams and ${fixed(r.rssWithStreamsMb, 1)} MiB with the ${r.streams} streams` +
      ` open: **${fixed(r.kbPerStream, 1)} KiB per stream** (an upper bound: garbage not yet` +
      " collected counts too). The streams were idle (no transfer changed during the run): this" +
      " measures holding them, their heartbeats and the feed's subscriptions.",
  ].join("\n");
}
