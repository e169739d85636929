/**
 * The webhook half of `npm run bench:push`: latency from the commit of a change to
 * its webhook's arrival at a receiver on loopback, at a steady 100 changes/s, p50 and p99
 * (target p99 <= 1 s).
 *
 * Set-up, as in production: the writer (this process) commits each change in its own
 * transaction through the store; `bridge-oracle deliver` runs as its own process on the same
 * database and delivers to a receiver in this process, which answers 200 at once. Half the
 * changes create a transfer (Processing), half settle one created earlier (Success). Latency =
 * arrival time - the moment the writer's upsert resolved (after COMMIT), both read from this
 * process's clock. Writing starts once a first change has arrived (the delivery process is up),
 * and the first `warmupSeconds` of changes are not counted.
 *
 * Then the idle cost: with nothing written for `idleSeconds`, the delivery process's CPU time
 * (/proc) and the database's commits per second: PostgreSQL's xact_commit of a database of the
 * benchmark's own (every connection's, the delivery process's listener and claims included);
 * SQLite's commits that changed the file, seen by polling PRAGMA data_version every 5 ms.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import type { BridgeTransaction } from "../src/domain/bridge-transaction.js";
import { createStore } from "../src/store/index.js";
import { webhookStoreOf } from "../src/store/webhook-store.js";
import { createSubscription } from "../src/webhooks/subscriptions.js";
import { writeResultsSection } from "./list-report.js";
import { readProcessCpu } from "./process-cpu.js";
import type { PushScenarioContext, PushScenarioResult } from "./push.js";

const MAIN = fileURLToPath(new URL("../src/cli/main.ts", import.meta.url));

export interface WebhookLatencyOptions {
  readonly store: "sqlite" | "postgres";
  /** PostgreSQL server (a schema of its own is created and dropped). */
  readonly databaseUrl?: string;
  /** Changes per second (default 100). */
  readonly rate?: number;
  /** Measured seconds (default 20), after the warm-up. */
  readonly seconds?: number;
  readonly warmupSeconds?: number;
  /** How long to wait for the last deliveries after the writer stops (default 10 s). */
  readonly drainSeconds?: number;
  /** The idle window after the deliveries (default 10 s). */
  readonly idleSeconds?: number;
}

export interface WebhookLatencyResult {
  readonly store: "sqlite" | "postgres";
  readonly rate: number;
  /** Changes counted (after the warm-up). */
  readonly changes: number;
  /** Counted changes whose webhook arrived. */
  readonly delivered: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** What the writer achieved (it sleeps to hold `rate`, and falls behind if commits are slow). */
  readonly achievedRate: number;
  /** The idle delivery process's CPU, % of one core (NaN where /proc cannot tell). */
  readonly idleCpuPercent: number;
  /** The database's commits per second while idle. */
  readonly idleCommitsPerSecond: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

let counter = 0;
function transfer(): BridgeTransaction {
  const n = ++counter;
  const hex = (label: string) =>
    `0x${Buffer.from(`${label}:${n}`).toString("hex").padEnd(64, "0").slice(0, 64)}`;
  const address = (label: string) =>
    `0x${Buffer.from(`${label}${n}`).toString("hex").padEnd(40, "0").slice(0, 40)}`;
  return {
    message_id: hex("m"),
    source_contract: address("sc"),
    dest_contract: address("dc"),
    source_tx_hash: hex("s"),
    dest_tx_hash: "",
    from_address: address("f"),
    to_address: address("t"),
    send_amount: "100",
    min_receive_amount: "99",
    receive_amount: "",
    source_chain_name: "alpha",
    dest_chain_name: "beta",
    source_token_address: address("st"),
    source_token_decimals: 6,
    source_token_symbol: "USDC",
    dest_token_address: address("dt"),
    dest_token_decimals: 6,
    dest_token_symbol: "USDC",
    dest_bridge_token: address("bt"),
    dest_bridge_token_decimals: 6,
    dest_bridge_token_amount: "",
    fee_address: address("fa"),
    fee_decimals: 6,
    fee_symbol: "USDC",
    xproto_fee: "0",
    bridge_fee: "1",
    status: "Processing",
    subsidy_amount: "0",
    start_time: "2026-01-01 00:00:00",
    end_time: "",
    created_at: "2026-01-01 00:00:01",
    updated_at: "2026-01-01 00:00:01",
    protocol: "reference",
    xproto_fee_address: address("fa"),
    xproto_fee_decimals: 6,
    xproto_fee_symbol: "USDC",
  };
}

interface BenchDatabase {
  readonly url: string;
  /** Counts the database's commits until the returned function is called. */
  countCommits(): Promise<() => Promise<number>>;
  drop(): Promise<void>;
}

async function isolatedDatabase(options: WebhookLatencyOptions): Promise<BenchDatabase> {
  if (options.store === "sqlite") {
    const dir = await mkdtemp(join(tmpdir(), "bench-push-webhooks-"));
    const url = join(dir, "bench.db");
    return {
      url,
      async countCommits() {
        // data_version moves when another connection committed a change to the file.
        const watcher = new Database(url, { readonly: true });
        const version = watcher.prepare("PRAGMA data_version").pluck();
        let last = version.get();
        let commits = 0;
        const poll = setInterval(() => {
          const now = version.get();
          if (now !== last) commits++;
          last = now;
        }, 5);
        return async () => {
          clearInterval(poll);
          watcher.close();
          return commits;
        };
      },
      drop: () => rm(dir, { recursive: true, force: true }),
    };
  }
  // A database of its own: its xact_commit counts only the benchmark's connections. Read from
  // the server's base database, so the reading is not counted.
  const base = options.databaseUrl ?? "postgres://postgres@127.0.0.1:5432/test";
  const name = `bench_push_${randomBytes(4).toString("hex")}`;
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  const committed = () =>
    admin(async (client) => {
      const { rows } = await client.query<{ n: string }>(
        "SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1",
        [name],
      );
      return Number(rows[0]?.n ?? 0);
    });
  return {
    url: url.toString(),
    async countCommits() {
      // A backend that goes idle reports its counts up to 10 s later (PostgreSQL's
      // PGSTAT_IDLE_INTERVAL): wait that out at both ends, so that the busy phase's counts are
      // all in before the window and the window's own are in at its end.
      await sleep(11_000);
      const before = await committed();
      return async () => {
        await sleep(11_000);
        return (await committed()) - before;
      };
    },
    async drop() {
      await admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

export async function measureWebhookLatency(
  options: WebhookLatencyOptions,
): Promise<WebhookLatencyResult> {
  const rate = options.rate ?? 100;
  const seconds = options.seconds ?? 20;
  const warmup = options.warmupSeconds ?? 3;
  const database = await isolatedDatabase(options);
  const committed = new Map<string, number>();
  const arrived = new Map<string, number>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.now();
      const event = JSON.parse(Buffer.concat(chunks).toString()) as {
        data: { message_id: string; status: string };
      };
      const key = `${event.data.message_id}:${event.data.status}`;
      if (!arrived.has(key)) arrived.set(key, at);
      res.end();
    });
  });
  receiver.listen(0, "127.0.0.1");
  await once(receiver, "listening");
  const store = await createStore({ databaseUrl: database.url });
  let deliver: ChildProcess | undefined;
  try {
    await createSubscription(
      webhookStoreOf(store),
      { ownerKeyId: 1, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/` },
      { allowPrivateAddresses: true, now: Date.now() },
    );
    deliver = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `import { main } from ${JSON.stringify(MAIN)}; process.exitCode = await main(["deliver"]);`,
      ],
      {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          LOG_LEVEL: "warn",
          WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "true",
        },
        stdio: ["ignore", "inherit", "inherit"],
      },
    );

    // Ready when a first change has come through (the process started, statements prepared).
    const probe = transfer();
    await store.transfers.upsertTransfers([probe]);
    const readyBy = performance.now() + 60_000;
    while (!arrived.has(`${probe.message_id}:Processing`)) {
      if (performance.now() > readyBy) throw new Error("the delivery process sent nothing in 60 s");
      await sleep(20);
    }

    // The writer: one change per tick, alternating a creation and the settlement of an earlier one.
    const total = Math.round((warmup + seconds) * rate);
    const counted = new Set<string>();
    const open: BridgeTransaction[] = [];
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      await sleep(start + (i * 1000) / rate - performance.now());
      const settle = i % 2 === 1 ? open.shift() : undefined;
      const record: BridgeTransaction =
        settle === undefined
          ? transfer()
          : {
              ...settle,
              status: "Success",
              dest_tx_hash: `0x${"ab".repeat(32)}`,
              receive_amount: "99",
              dest_bridge_token_amount: "99",
              end_time: "2026-01-01 00:01:00",
            };
      await store.transfers.upsertTransfers([record]);
      const key = `${record.message_id}:${record.status}`;
      committed.set(key, performance.now());
      if (settle === undefined) open.push(record);
      if (i >= warmup * rate) counted.add(key);
    }
    const achievedRate = total / ((performance.now() - start) / 1000);
    const drainUntil = performance.now() + (options.drainSeconds ?? 10) * 1000;
    while (performance.now() < drainUntil && [...counted].some((key) => !arrived.has(key))) {
      await sleep(50);
    }
    // Idle: nothing written; what does the delivery process cost?
    const idleSeconds = options.idleSeconds ?? 10;
    const stopCounting = await database.countCommits();
    const pid = deliver.pid as number;
    const cpuBefore = readProcessCpu(pid)?.ms ?? Number.NaN;
    const idleStart = performance.now();
    await sleep(idleSeconds * 1000);
    const idleMs = performance.now() - idleStart;
    const idleCpuPercent = (((readProcessCpu(pid)?.ms ?? Number.NaN) - cpuBefore) / idleMs) * 100;
    const idleCommitsPerSecond = (await stopCounting()) / (idleMs / 1000);
    const latencies = [...counted]
      .filter((key) => arrived.has(key))
      .map((key) => (arrived.get(key) as number) - (committed.get(key) as number))
      .sort((a, b) => a - b);
    return {
      store: options.store,
      rate,
      changes: counted.size,
      delivered: latencies.length,
      p50Ms: quantile(latencies, 0.5),
      p90Ms: quantile(latencies, 0.9),
      p99Ms: quantile(latencies, 0.99),
      maxMs: latencies[latencies.length - 1] ?? Number.NaN,
      achievedRate,
      idleCpuPercent,
      idleCommitsPerSecond,
    };
  } finally {
    if (deliver !== undefined && deliver.exitCode === null) {
      const exited = once(deliver, "exit");
      deliver.kill("SIGTERM");
      await exited;
    }
    receiver.closeAllConnections();
    receiver.close();
    await store.close();
    await database.drop();
  }
}

/** Met only when the writer held the rate (within 5 %) and every change arrived. */
function verdict(r: WebhookLatencyResult): string {
  if (r.achievedRate < r.rate * 0.95) {
    return `not measured: the writer reached ${r.achievedRate.toFixed(0)}/s`;
  }
  return r.delivered === r.changes && r.p99Ms <= 1000 ? "yes" : "**no**";
}

/** The RESULTS.md lines of the measurement. */
export function formatWebhookLatency(results: readonly WebhookLatencyResult[]): string[] {
  const ms = (v: number) => (Number.isNaN(v) ? "-" : `${Math.round(v)} ms`);
  return [
    "| store | changes/s (achieved) | changes counted | delivered | p50 | p90 | p99 | max | p99 <= 1 s | idle: deliver CPU | idle: commits/s |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
    ...results.map(
      (r) =>
        `| ${r.store === "sqlite" ? "SQLite" : "PostgreSQL"} | ${r.rate} (${r.achievedRate.toFixed(1)}) | ${r.changes} | ${r.delivered} | ${ms(r.p50Ms)} | ${ms(r.p90Ms)} | ${ms(r.p99Ms)} | ${ms(r.maxMs)} | ${verdict(r)} | ${Number.isNaN(r.idleCpuPercent) ? "-" : `${r.idleCpuPercent.toFixed(2)} %`} | ${r.idleCommitsPerSecond.toFixed(1)} |`,
    ),
  ];
}

/**
 * The scenario of `npm run bench:push`: the store under test, `--duration` measured seconds;
 * its own database (a temporary SQLite file, or a schema of its own on the PostgreSQL server).
 */
export async function runWebhooksScenario(
  context: PushScenarioContext,
): Promise<PushScenarioResult> {
  const { options, log } = context;
  log(`webhooks: ${options.durationSeconds} s at 100 changes/s on ${options.store}`);
  const result = await measureWebhookLatency({
    store: options.store,
    seconds: options.durationSeconds,
    idleSeconds: Math.min(10, options.durationSeconds),
    ...(options.databaseUrl !== undefined ? { databaseUrl: options.databaseUrl } : {}),
  });
  return {
    name: "webhooks",
    markdown: [
      "### webhook latency at 100 changes/s",
      "",
      WHAT,
      "",
      ...formatWebhookLatency([result]),
    ].join("\n"),
    results: [],
    ok: verdict(result) === "yes",
  };
}

const WHAT =
  "From the commit of a change (the writer's upsert resolved) to its webhook's arrival at a receiver on loopback answering 200; 100 changes/s in one transaction each (half creations, half settlements), 3 s of warm-up not counted; `bridge-oracle deliver` in its own process on the same database (default settings: woken by the change log's sequence on SQLite, polled every 50 ms, and by NOTIFY on PostgreSQL), the writer and the receiver in the benchmark's process. Target: p99 <= 1 s. Then 10 s idle (the measured seconds, when fewer): the delivery process's CPU in % of one core, and the database's commits per second (PostgreSQL: xact_commit of the benchmark's own database, every connection; SQLite: commits that changed the file, PRAGMA data_version polled every 5 ms).";

/**
 * Run directly (`node --import tsx bench/push-webhooks.ts [--store sqlite|postgres|both]
 * [--seconds N] [--no-write]`): this scenario alone, on one store or both, into the
 * "push: webhooks" section of bench/RESULTS.md.
 */
async function main(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      store: { type: "string", default: "both" },
      seconds: { type: "string", default: "20" },
      "no-write": { type: "boolean", default: false },
    },
  });
  const stores =
    values.store === "both"
      ? (["sqlite", "postgres"] as const)
      : [values.store as "sqlite" | "postgres"];
  const databaseUrl = process.env.DATABASE_URL;
  const loadBefore = loadavg();
  const results: WebhookLatencyResult[] = [];
  for (const store of stores) {
    process.stderr.write(`webhook latency on ${store}: ${values.seconds} s at 100 changes/s ...\n`);
    results.push(
      await measureWebhookLatency({
        store,
        seconds: Number(values.seconds),
        ...(store === "postgres" && databaseUrl?.startsWith("postgres") ? { databaseUrl } : {}),
      }),
    );
  }
  const cpu = cpus();
  const section = [
    "## push: webhooks",
    "",
    `- Command: \`node --import tsx bench/push-webhooks.ts --store ${values.store} --seconds ${values.seconds}\` (the same measurement is the "webhooks" scenario of \`npm run bench:push\`)`,
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpu[0]?.model.trim() ?? "?"}, ${cpu.length} cores, Node ${process.version}; load average (1/5/15 min) ${loadBefore.map((l) => l.toFixed(2)).join(" / ")} at start, ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" / ")} at end`,
    ...((loadBefore[0] ?? 0) > cpu.length
      ? [
          `- **Busy machine**: 1-minute load average ${(loadBefore[0] ?? 0).toFixed(1)} on ${cpu.length} cores at start (other processes were running): the writer, the delivery process and the database shared what was left.`,
        ]
      : []),
    `- What: ${WHAT}`,
    "",
    ...formatWebhookLatency(results),
  ].join("\n");
  if (values["no-write"]) process.stdout.write(`${section}\n`);
  else
    await writeResultsSection(
      join(fileURLToPath(new URL("..", import.meta.url)), "bench", "RESULTS.md"),
      "push: webhooks",
      section,
    );
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2));
}
