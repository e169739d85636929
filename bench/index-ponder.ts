/**
 * The index benchmark's peer (issue #43): Ponder 1.0.0 indexing the same devnet into the same
 * record shape, on its embedded PGlite and on PostgreSQL, timed from its process's start to its
 * `/ready` answering 200 (its historical backfill done), then its records read back for the
 * digest (bench/index-records.ts).
 *
 * Ponder is not a dependency of the product: the benchmark installs `ponder@1.0.0` and its peers
 * with `npm install` into a git-ignored cache folder (data/bench/ponder-<version>-<hash of the
 * package list>), once; a failed install (no registry) fails the run loudly. Each run writes the
 * app (bench/ponder-app/, ours) into a fresh folder under that install, with `bench-app.json`
 * naming the chains, the reference bridges and the database, starts `ponder start` there and
 * removes the folder after. On PostgreSQL Ponder gets a database of its own, `bench_ponder`,
 * dropped and created anew by every run and dropped after it: Ponder keeps its RPC cache (logs,
 * blocks) in a schema named `ponder_sync` whatever `--schema` says, and the devnet's chain ids
 * are the same in every run, so a cache kept from an earlier run would hand it another run's
 * logs (and time nothing).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IndexerConfig } from "../src/config/indexer-config.js";
import { jsonRpc } from "../src/devnet/json-rpc.js";
import { DEFAULT_PROTOCOL } from "../src/domain/bridge-registry.js";
import { endClient } from "../src/store/postgres/connections.js";
import { readPostgresCpuMs } from "./index-postgres.js";
import { type ComparedRecord, normaliseRecord } from "./index-records.js";
import { connect } from "./list-postgres.js";
import { readProcessCpu } from "./process-cpu.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const APP_TEMPLATE = join(ROOT, "bench", "ponder-app");
export const DEFAULT_PONDER_CACHE = join(ROOT, "data", "bench");

/**
 * What the benchmark installs: Ponder 1.0.0 and its peer dependencies, pinned (viem, hono and
 * TypeScript of Ponder 1.0's time; Ponder's own dependencies resolve as npm resolves them).
 */
export const PONDER_PACKAGES = {
  ponder: "1.0.0",
  viem: "2.23.2",
  hono: "4.7.2",
  typescript: "5.7.3",
} as const;

/** The Ponder database the PostgreSQL run creates and drops (see the header). */
export const PONDER_DATABASE = "bench_ponder";

export type PonderStore = "pglite" | "postgres";

export interface PonderRun {
  store: PonderStore;
  /** From spawning `ponder start` to `/ready` answering 200. */
  ms: number;
  /** CPU of Ponder's process (all its threads) over that time; undefined without /proc. */
  cpuMs: number | undefined;
  /** CPU of this machine's PostgreSQL processes over that time (PostgreSQL only). */
  serverCpuMs: number | undefined;
  records: ComparedRecord[];
  /** Ponder's database after the backfill: PGlite's folder, or the PostgreSQL database. */
  sizeBytes: number;
}

/**
 * Ponder indexes before `/ready` only what is older than every chain's finalized block (ordering
 * "omnichain": by block time across chains), and for a chain it does not know the finalized
 * block is 30 below the head; the rest it indexes after. So that `/ready` means every record is
 * there, the benchmark ends each generated chain with this many empty blocks, all later than any
 * chain's last block (our indexer reads them too: a few more empty spans).
 */
export const PONDER_SETTLE_BLOCKS = 64;

/** Ends each chain with PONDER_SETTLE_BLOCKS empty blocks, 1 s apart, after every chain's head. */
export async function settleForPonder(chains: readonly { rpcUrl: string }[]): Promise<void> {
  let latest = 0n;
  for (const chain of chains) {
    const block = (await jsonRpc(chain.rpcUrl, "eth_getBlockByNumber", ["latest", false])) as {
      timestamp: string;
    };
    if (BigInt(block.timestamp) > latest) latest = BigInt(block.timestamp);
  }
  for (const chain of chains) {
    await jsonRpc(chain.rpcUrl, "evm_setNextBlockTimestamp", [`0x${(latest + 1n).toString(16)}`]);
    await jsonRpc(chain.rpcUrl, "anvil_mine", [`0x${PONDER_SETTLE_BLOCKS.toString(16)}`, "0x1"]);
  }
}

const installKey = () => {
  const text = JSON.stringify(PONDER_PACKAGES);
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) >>> 0;
  return `ponder-${PONDER_PACKAGES.ponder}-${hash.toString(16)}`;
};

function run(command: string, args: string[], cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, out }));
  });
}

/**
 * The folder holding node_modules with PONDER_PACKAGES, installed by `npm install` on first use
 * (into a folder of its own, renamed into place when complete, so an interrupted install is
 * never taken for a finished one).
 */
export async function ensurePonderInstall(
  cacheDir: string,
  log: (line: string) => void,
): Promise<string> {
  const dir = join(cacheDir, installKey());
  if (existsSync(join(dir, "installed.json"))) return dir;
  await mkdir(cacheDir, { recursive: true });
  const partial = await mkdtemp(join(cacheDir, `${installKey()}.partial-`));
  try {
    log(
      `installing ${Object.entries(PONDER_PACKAGES)
        .map(([n, v]) => `${n}@${v}`)
        .join(", ")} into ${dir}`,
    );
    const started = performance.now();
    await writeFile(
      join(partial, "package.json"),
      `${JSON.stringify({ name: "bench-ponder", private: true, type: "module", dependencies: PONDER_PACKAGES }, null, 2)}\n`,
    );
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const { code, out } = await run(
      npm,
      ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel", "error"],
      partial,
    );
    if (code !== 0) {
      throw new Error(
        `npm install of ponder@${PONDER_PACKAGES.ponder} failed (exit ${code}; is the npm registry reachable?):\n${out.slice(-2000)}`,
      );
    }
    await writeFile(
      join(partial, "installed.json"),
      `${JSON.stringify({ packages: PONDER_PACKAGES, ms: Math.round(performance.now() - started) })}\n`,
    );
    try {
      await rename(partial, dir);
    } catch (error) {
      // Another run finished the same install first: use that one.
      if (!existsSync(join(dir, "installed.json"))) throw error;
    }
    log(`installed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return dir;
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/** The app's bench-app.json: the chains, the reference bridges, the database. */
function appConfig(config: IndexerConfig, database: object) {
  return {
    chains: config.chains.map((c) => ({
      chainId: c.chainId,
      name: c.name,
      rpcUrl: c.rpcUrl,
      nativeSymbol: c.nativeSymbol,
      startBlock: c.startBlock,
    })),
    bridges: config.bridges
      .filter((b) => (b.protocol ?? DEFAULT_PROTOCOL) === DEFAULT_PROTOCOL && !b.auxiliary)
      .map((b) => ({
        chainId: b.chainId,
        kind: b.kind,
        address: b.address,
        bridgeChainId: b.bridgeChainId,
      })),
    database,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function databaseUrlNamed(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  parsed.searchParams.delete("options"); // a search_path of the benchmark's schema
  return parsed.toString();
}

async function dropPonderDatabase(databaseUrl: string): Promise<void> {
  const admin = await connect(databaseUrl);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${PONDER_DATABASE} WITH (FORCE)`);
  } finally {
    await endClient(admin);
  }
}

async function folderBytes(dir: string): Promise<number> {
  let bytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return bytes;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited(child);
  clearTimeout(timer);
}

/** Every `transfer` row of the running app, through its /records route, normalised. */
async function readRecords(base: string): Promise<ComparedRecord[]> {
  const records: ComparedRecord[] = [];
  for (let after = ""; ; ) {
    const response = await fetch(`${base}/records?after=${after}&limit=5000`);
    if (!response.ok) throw new Error(`Ponder /records: HTTP ${response.status}`);
    const page = (await response.json()) as Record<string, unknown>[];
    for (const row of page) records.push(normaliseRecord(row));
    if (page.length < 5000) return records;
    after = String(page.at(-1)!.message_id);
  }
}

export interface PonderOptions {
  installDir: string;
  config: IndexerConfig;
  store: PonderStore;
  /** PostgreSQL only: the server (the benchmark's database URL; Ponder gets its own database). */
  databaseUrl?: string;
  /** Give up when /ready has not answered 200 by then. */
  timeoutMs: number;
  log: (line: string) => void;
}

/** One timed Ponder backfill into an empty database (see the header). */
export async function runPonder(options: PonderOptions): Promise<PonderRun> {
  const { installDir, store } = options;
  const runs = join(installDir, "runs");
  await mkdir(runs, { recursive: true });
  const appDir = await mkdtemp(join(runs, `${store}-`));
  let ponderUrl: string | undefined;
  let child: ChildProcess | undefined;
  try {
    await cp(APP_TEMPLATE, appDir, { recursive: true });
    const pgliteDir = join(appDir, ".ponder", "pglite");
    if (store === "postgres") {
      if (options.databaseUrl === undefined) throw new Error("Ponder on PostgreSQL needs a URL");
      await dropPonderDatabase(options.databaseUrl);
      const admin = await connect(options.databaseUrl);
      try {
        await admin.query(`CREATE DATABASE ${PONDER_DATABASE}`);
      } finally {
        await endClient(admin);
      }
      ponderUrl = databaseUrlNamed(options.databaseUrl, PONDER_DATABASE);
    }
    const database =
      ponderUrl === undefined
        ? { kind: "pglite", directory: pgliteDir }
        : { kind: "postgres", connectionString: ponderUrl };
    await writeFile(
      join(appDir, "bench-app.json"),
      `${JSON.stringify(appConfig(options.config, database), null, 2)}\n`,
    );
    const port = await freePort();
    const logPath = join(appDir, "ponder.log");
    const logFile = createWriteStream(logPath);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PONDER_TELEMETRY_DISABLED: "true",
      CI: "true",
    };
    // Ponder reads these for its database when the config names none; ours names one.
    delete env.DATABASE_URL;
    delete env.DATABASE_PRIVATE_URL;
    const serverBefore = store === "postgres" ? readPostgresCpuMs() : undefined;
    const started = performance.now();
    child = spawn(
      process.execPath,
      [
        join(installDir, "node_modules", "ponder", "dist", "esm", "bin", "ponder.js"),
        "start",
        ...["--port", String(port), "--hostname", "127.0.0.1", "--schema", "bench"],
      ],
      { cwd: appDir, env, stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout!.pipe(logFile);
    child.stderr!.pipe(logFile);
    const base = `http://127.0.0.1:${port}`;
    const failure = async (why: string) => {
      const text = await readFile(logPath, "utf8").catch(() => "");
      return new Error(`Ponder on ${store} ${why}; its log ends:\n${text.slice(-3000)}`);
    };
    let cpuMs: number | undefined;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw await failure(`exited (${child.exitCode ?? child.signalCode}) before /ready`);
      }
      if (performance.now() - started > options.timeoutMs) {
        throw await failure(`was not ready within ${options.timeoutMs / 1000} s`);
      }
      const cpu = readProcessCpu(child.pid!);
      const ready = await fetch(`${base}/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) {
        cpuMs = readProcessCpu(child.pid!)?.ms ?? cpu?.ms;
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const ms = performance.now() - started;
    const serverAfter = store === "postgres" ? readPostgresCpuMs() : undefined;
    const records = await readRecords(base);
    await stop(child);
    let sizeBytes: number;
    if (ponderUrl !== undefined) {
      const client = await connect(ponderUrl);
      try {
        const { rows } = await client.query<{ bytes: string }>(
          "SELECT pg_database_size(current_database()) AS bytes",
        );
        sizeBytes = Number(rows[0]!.bytes);
      } finally {
        await endClient(client);
      }
    } else {
      sizeBytes = await folderBytes(pgliteDir);
    }
    options.log(
      `Ponder on ${store}: ${records.length} records, ready in ${(ms / 1000).toFixed(2)} s`,
    );
    return {
      store,
      ms,
      cpuMs,
      serverCpuMs:
        serverBefore !== undefined && serverAfter !== undefined
          ? serverAfter - serverBefore
          : undefined,
      records,
      sizeBytes,
    };
  } finally {
    if (child !== undefined) await stop(child);
    await rm(appDir, { recursive: true, force: true });
    if (store === "postgres" && options.databaseUrl !== undefined) {
      await dropPonderDatabase(options.databaseUrl);
    }
  }
}
