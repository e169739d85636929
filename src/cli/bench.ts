/**
 * `bridge-oracle bench <name> [options]`: runs a benchmark. Benchmarks live under bench/ as
 * TypeScript run through tsx (a dev dependency): they are development tools, outside the built
 * service, and their server processes must be separate from the load generator anyway.
 * One line per benchmark in BENCHMARKS; `list` writes its section of bench/RESULTS.md.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { V8_FLAGS } from "../node-flags.js";

/** Benchmark name -> script under bench/. */
const BENCHMARKS: Record<string, string> = {
  list: "list.ts",
  router: "router.ts",
  index: "index.ts",
  push: "push.ts",
};

const USAGE = `usage: bridge-oracle bench <${Object.keys(BENCHMARKS).join(" | ")}> [options]

  list    the bridge-transactions endpoint on 1,000,000 records vs a bare Fastify baseline,
          on SQLite or (--store postgres) PostgreSQL (bridge-oracle bench list --help)
  index   indexer backfill of >= 100,000 devnet transfers vs the bare eth_getLogs calls, and
          head-following latency (bridge-oracle bench index --help)
  push    1,000 concurrent transfer streams held by one API process while the list mix runs,
          against the same mix without them, and webhook latency at 100 changes/s
          (bridge-oracle bench push --help)
  router  route quotes (POST /api/oracle/router, 3 chains, >= 10 tokens each, direct and swap
          routes) vs a bare Fastify POST route (bridge-oracle bench router --help)
`;

export async function run(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h") {
    process.stdout.write(USAGE);
    return name === undefined ? 1 : 0;
  }
  // Own keys only: "constructor" or "toString" must not find Object.prototype's members.
  const script = Object.hasOwn(BENCHMARKS, name) ? BENCHMARKS[name] : undefined;
  if (script === undefined) {
    process.stderr.write(`unknown benchmark: ${name}\n\n${USAGE}`);
    return 1;
  }
  // src/cli/bench.ts and dist/cli/bench.js are both two levels below the repository root.
  const path = fileURLToPath(new URL(`../../bench/${script}`, import.meta.url));
  if (!existsSync(path)) {
    process.stderr.write(`bench ${name}: ${path} is missing (benchmarks run from a checkout)\n`);
    return 1;
  }
  // The benchmark runs with our V8 flags, as the commands it measures do.
  const child = spawn(process.execPath, [...V8_FLAGS, "--import", "tsx", path, ...rest], {
    stdio: "inherit",
  });
  const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
  return code ?? (signal !== null ? 1 : 0);
}
