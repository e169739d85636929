/**
 * The import's rate curve (issue 43, "bulk load"): imports a JSONL file into a fresh SQLite file
 * or a fresh PostgreSQL schema the way `bridge-oracle import --batch-size 2000` does, and prints
 * one line per segment: records/s, the process's CPU and (PostgreSQL on this machine) the CPU of
 * the import's own backends, read from /proc. The last line is the index builds and the commit.
 *
 *   node --import tsx bench/import-curve.ts --file F.jsonl --store sqlite|postgres
 *     [--segment 100000] [--keep-indexes] [--database PATH|postgres://...]
 *
 * --keep-indexes: every list index maintained row by row (the path before the bulk load), for
 * an A/B on the same file. PostgreSQL: a schema `bulkload_curve_<pid>` of the database at
 * --database (default DATABASE_URL), dropped at the end.
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { createStore } from "../src/store/index.js";
import { importTransfersFile } from "../src/transfers/import-file.js";
import { LOAD_BATCH_SIZE } from "./list-data.js";

const { values } = parseArgs({
  options: {
    file: { type: "string" },
    store: { type: "string", default: "sqlite" },
    segment: { type: "string", default: "100000" },
    "keep-indexes": { type: "boolean", default: false },
    database: { type: "string" },
  },
});
if (values.file === undefined) throw new Error("--file is required");
const segment = Number(values.segment);
const postgres = values.store === "postgres";
const TICKS = 100; // clock ticks per second of /proc/<pid>/stat (Linux on x86-64, arm64)

let databaseUrl: string;
let cleanup: () => Promise<void>;
let admin: pg.Client | undefined;
const appName = `bulkcurve${process.pid}`;
if (postgres) {
  const base = values.database ?? process.env.DATABASE_URL ?? "postgres://127.0.0.1/test";
  const schema = `bulkload_curve_${process.pid}`;
  admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set("options", `-c search_path=${schema}`);
  url.searchParams.set("application_name", appName);
  databaseUrl = url.toString();
  cleanup = async () => {
    await admin!.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin!.end();
  };
} else {
  const dir = values.database === undefined ? await mkdtemp(join(tmpdir(), "bulkcurve-")) : "";
  databaseUrl = values.database ?? join(dir, "curve.db");
  cleanup = async () => {
    if (dir !== "") await rm(dir, { recursive: true, force: true });
  };
}

// The import's backends: found by application_name, their CPU read from /proc.
const backendTicks = new Map<number, number>();
async function refreshBackends(): Promise<void> {
  if (admin === undefined) return;
  const { rows } = await admin.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE application_name LIKE $1",
    [`${appName}%`],
  );
  for (const { pid } of rows) if (!backendTicks.has(pid)) backendTicks.set(pid, 0);
  readBackends();
}
function readBackends(): void {
  for (const pid of backendTicks.keys()) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      backendTicks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // ended: keep its last reading
    }
  }
}
const backendSeconds = () => [...backendTicks.values()].reduce((a, b) => a + b, 0) / TICKS;
const processSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

const store = await createStore({ databaseUrl });
const poll = setInterval(() => void refreshBackends().catch(() => undefined), 1000);
const print = (line: Record<string, unknown>) => console.log(JSON.stringify(line));
print({
  store: values.store,
  file: values.file,
  deferIndexes: !values["keep-indexes"],
  started: new Date().toISOString(),
});
let last = { records: 0, ms: 0, cpu: processSeconds(), db: 0 };
let lastProgressMs = 0;
try {
  const summary = await importTransfersFile({
    path: values.file,
    store,
    batchSize: LOAD_BATCH_SIZE,
    progressIntervalMs: 0,
    deferListIndexes: !values["keep-indexes"],
    onProgress: (p) => {
      lastProgressMs = p.elapsedMs;
      if (p.records - last.records < segment) return;
      readBackends();
      const now = {
        records: p.records,
        ms: p.elapsedMs,
        cpu: processSeconds(),
        db: backendSeconds(),
      };
      const seconds = (now.ms - last.ms) / 1000;
      print({
        through: now.records,
        recordsPerSecond: Math.round((now.records - last.records) / seconds),
        seconds: +seconds.toFixed(1),
        processCpu: +(now.cpu - last.cpu).toFixed(1),
        ...(postgres ? { backendCpu: +(now.db - last.db).toFixed(1) } : {}),
      });
      last = now;
    },
  });
  await refreshBackends();
  print({
    through: summary.read,
    tail: "last records, index builds and commit",
    seconds: +((summary.durationMs - last.ms) / 1000).toFixed(1),
    afterLastBatch: +((summary.durationMs - lastProgressMs) / 1000).toFixed(1),
    processCpu: +(processSeconds() - last.cpu).toFixed(1),
    ...(postgres ? { backendCpu: +(backendSeconds() - last.db).toFixed(1) } : {}),
  });
  print({
    total: summary.read,
    deferredIndexes: summary.deferredIndexes,
    seconds: +(summary.durationMs / 1000).toFixed(1),
    recordsPerSecond: Math.round(summary.read / (summary.durationMs / 1000)),
    processCpu: +processSeconds().toFixed(1),
    ...(postgres ? { backendCpu: +backendSeconds().toFixed(1) } : {}),
    finished: new Date().toISOString(),
  });
} finally {
  clearInterval(poll);
  await store.close();
  await cleanup();
}
