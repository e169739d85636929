/**
 * A diagnostic beside `npm run bench:router`: what the quote's added fields cost, measured on
 * pairs of fresh router servers in one of three ways, printed (not written to RESULTS.md):
 *
 *   node --import tsx bench/router-pairs.ts [--method M] [--pairs N] [--rounds R] [--duration S]
 *                                           [--memo] [--same]
 *
 * Methods: `in-turn` loads the two servers one after the other, as bench:router does;
 * `in-turn-pinned` does the same with the servers on core 1 and this process, the load
 * generator, on core 0; `at-once` loads both at once, both pinned to core 1, so the two share
 * whatever the machine gives that core. The servers start one after the other, the one with the
 * fields first in odd pairs. `--memo` keeps the quote memo on; `--same` starts two servers with
 * the fields (an A/A check of the method). bench/RESULTS.md, "router: where the added fields'
 * cost goes", says what each method read.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { allowedCpus, pinToCpus } from "./cpu-affinity.js";
import type { LoadResult } from "./load.js";
import { integerOption, optionsOrExitCode } from "./options.js";
import { readProcessCpu } from "./process-cpu.js";
import { postLoad, type Server, startServer } from "./router.js";
import { buildRouterRequests } from "./router-requests.js";

const METHODS = ["in-turn", "in-turn-pinned", "at-once"] as const;
type Method = (typeof METHODS)[number];

const USAGE = `usage: node --import tsx bench/router-pairs.ts [--method M] [--pairs N] [--rounds R]
                                              [--duration S] [--memo] [--same]
  --method M     in-turn, in-turn-pinned or at-once (default at-once)
  --pairs N      pairs of fresh servers, the start order alternating (default 4)
  --rounds R     rounds per pair after a warm-up (default 6)
  --duration S   seconds per round (default 3)
  --memo         the quote memo on (default off: every request validated and priced)
  --same         both servers with the added fields (an A/A check)
`;

/** The median, the mean of the two middle values for an even count. */
export function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const half = sorted.length / 2;
  return Number.isInteger(half) ? (sorted[half - 1]! + sorted[half]!) / 2 : sorted[half - 0.5]!;
}

export interface PairResult {
  /** The first server's req/s over the second's: the median of the rounds' ratios. */
  ratio: number;
  roundRatios: number[];
  /** Server CPU per request over the rounds, µs, each server; undefined without /proc. */
  cpuMicros: [number, number] | undefined;
}

function parseOptions(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      method: { type: "string", default: "at-once" },
      pairs: { type: "string", default: "4" },
      rounds: { type: "string", default: "6" },
      duration: { type: "string", default: "3" },
      memo: { type: "boolean", default: false },
      same: { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help" as const;
  if (!(METHODS as readonly string[]).includes(values.method)) {
    throw new Error(`--method must be one of ${METHODS.join(", ")}`);
  }
  return {
    method: values.method as Method,
    pairs: integerOption("pairs", values.pairs, 1, 20),
    rounds: integerOption("rounds", values.rounds, 1, 20),
    duration: integerOption("duration", values.duration, 1, 60),
    memo: values.memo,
    same: values.same,
  };
}

export async function runRouterPairs(
  args: string[],
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<number> {
  const options = optionsOrExitCode(() => parseOptions(args), USAGE);
  if (typeof options === "number") return options;
  const { method, pairs, rounds, duration } = options;
  const set = buildRouterRequests({ extraTokensPerChain: 10, count: 100, seed: 1 });
  const pinned = method !== "in-turn";
  if (pinned && os.cpus().length < 2) throw new Error(`--method ${method} needs two cores`);
  const ownCpus = allowedCpus(process.pid);
  if (pinned && !pinToCpus(process.pid, "0")) throw new Error("taskset could not pin this process");
  const names = [
    "with the added fields",
    options.same ? "the same" : "the spec's four fields only",
  ];
  const flags = (second: boolean) => [
    ...(options.memo ? [] : ["no-memo"]),
    ...(second && !options.same ? ["spec-only"] : []),
  ];
  const start = async (second: boolean): Promise<Server> => {
    const server = await startServer(undefined, "app", "10", ...flags(second));
    if (pinned && (server.pid === undefined || !pinToCpus(server.pid, "1"))) {
      await server.stop();
      throw new Error("taskset could not pin a server");
    }
    return server;
  };
  // Half the connections each when both are loaded at once: bench:router's 10 in all.
  const connections = method === "at-once" ? 5 : 10;
  const load = (server: Server, seconds: number) =>
    postLoad("pair", server, set.mix, connections, seconds);
  const results: PairResult[] = [];
  try {
    for (let pair = 1; pair <= pairs; pair++) {
      const firstIsFields = pair % 2 === 1;
      const started: { fields?: Server; other?: Server } = {};
      try {
        // One after the other: the process started first reads a few % slower.
        for (const which of firstIsFields
          ? (["fields", "other"] as const)
          : (["other", "fields"] as const)) {
          started[which] = await start(which === "other");
        }
        const fields = started.fields!;
        const other = started.other!;
        const servers = [fields, other];
        const cpu = () =>
          servers.map((s) => (s.pid === undefined ? undefined : readProcessCpu(s.pid)));
        let calls = 0;
        const loadPair = async (seconds: number): Promise<[LoadResult, LoadResult]> => {
          if (method === "at-once")
            return Promise.all([load(fields, seconds), load(other, seconds)]);
          // In turn, the order flipping each call.
          const turn = calls++ % 2 === 0;
          const first = await load(turn ? fields : other, seconds);
          const second = await load(turn ? other : fields, seconds);
          return turn ? [first, second] : [second, first];
        };
        await loadPair(Math.min(3, duration));
        const roundRatios: number[] = [];
        const cpuMs = [0, 0];
        const requests = [0, 0];
        let cpuRead = true;
        for (let round = 1; round <= rounds; round++) {
          const before = cpu();
          const [f, o] = await loadPair(duration);
          const after = cpu();
          roundRatios.push(f.requestsPerSecond / o.requestsPerSecond);
          requests[0]! += f.requests;
          requests[1]! += o.requests;
          if ([...before, ...after].some((c) => c === undefined)) cpuRead = false;
          else for (const i of [0, 1]) cpuMs[i]! += after[i]!.ms - before[i]!.ms;
        }
        const result: PairResult = {
          ratio: middle(roundRatios),
          roundRatios,
          cpuMicros: cpuRead
            ? [(cpuMs[0]! * 1000) / requests[0]!, (cpuMs[1]! * 1000) / requests[1]!]
            : undefined,
        };
        results.push(result);
        const cpuText =
          result.cpuMicros === undefined
            ? "CPU not read"
            : `CPU ${result.cpuMicros[0].toFixed(1)} vs ${result.cpuMicros[1].toFixed(1)} µs per request`;
        print(
          `pair ${pair} (${firstIsFields ? names[0] : names[1]} started first): ${(result.ratio * 100).toFixed(1)} %; rounds ${roundRatios.map((r) => (r * 100).toFixed(1)).join(", ")}; ${cpuText}`,
        );
      } finally {
        await started.fields?.stop();
        await started.other?.stop();
      }
    }
  } finally {
    if (pinned && ownCpus !== undefined) pinToCpus(process.pid, ownCpus);
  }
  print(
    `${method}${options.memo ? ", memo on" : ", memo off"}: ${names[0]} vs ${names[1]}: median ${(middle(results.map((r) => r.ratio)) * 100).toFixed(1)} % over ${pairs} pairs of ${rounds} rounds of ${duration} s`,
  );
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await runRouterPairs(process.argv.slice(2));
}
