/**
 * The index benchmark's two runs of the real indexer (bench/index.ts): a timed full backfill
 * into an empty database, and head-following by an indexer resuming on a store while new
 * transfers are timed to the list endpoint (bench/index-latency.ts). Either store: a SQLite
 * path or a postgres:// URL.
 */
import Database from "better-sqlite3";
import type { IndexerConfig } from "../src/config/indexer-config.js";
import { createIndexer } from "../src/indexer/create-indexer.js";
import { databaseKind } from "../src/store/database-url.js";
import { openDatabase } from "../src/store/index.js";
import { type CpuTimes, readCpuTimes, stealShare } from "./cpu-steal.js";
import type { GeneratedDevnet } from "./index-generate.js";
import { type LatencyResult, measureFollowLatency } from "./index-latency.js";
import { readPostgresCpuMs } from "./index-postgres.js";

export interface Backfill {
  ms: number;
  events: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  /** Share of the machine's CPU time stolen during the backfill. */
  steal: number | undefined;
  /** CPU time of this machine's PostgreSQL processes during the backfill (PostgreSQL only). */
  serverCpuMs: number | undefined;
  /** Each chain's cursor whenever one moved, ms from the start (bench/index-curve.ts). */
  progress: BackfillProgress[];
}

export interface BackfillProgress {
  ms: number;
  /** chain id -> cursor block */
  cursors: Map<number, number>;
}

const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };

/**
 * A full backfill by `createIndexer` (as `bridge-oracle index` runs it, all chains concurrently)
 * into the empty database at `databaseUrl`, timed until every chain's cursor reaches the head
 * the ceiling read; the indexer is stopped after it.
 */
export async function timeBackfill(
  config: IndexerConfig,
  heads: Map<number, number>,
  databaseUrl: string,
  countEvents: () => Promise<number>,
): Promise<Backfill> {
  const postgres = databaseKind(databaseUrl) === "postgres";
  const store = await openDatabase(databaseUrl, { busyTimeoutMs: 10_000 });
  const indexer = createIndexer({ config, store, logger: quietLogger });
  const controller = new AbortController();
  const serverBefore = postgres ? readPostgresCpuMs() : undefined;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const ticks: CpuTimes | undefined = readCpuTimes();
  const running = indexer.run(controller.signal);
  let failed: unknown;
  running.catch((error) => {
    failed = error;
  });
  const progress: BackfillProgress[] = [];
  let last = "";
  for (;;) {
    const status = indexer.status();
    const seen = status.map((s) => s.cursorBlock).join(",");
    if (seen !== last) {
      last = seen;
      progress.push({
        ms: performance.now() - started,
        cursors: new Map(status.map((s) => [s.chainId, s.cursorBlock])),
      });
    }
    if (failed !== undefined || status.every((s) => s.cursorBlock >= heads.get(s.chainId)!)) break;
    await new Promise((r) => setTimeout(r, 10));
  }
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const steal = stealShare(ticks, readCpuTimes());
  const serverAfter = postgres ? readPostgresCpuMs() : undefined;
  controller.abort();
  await running.catch(() => undefined);
  await store.close();
  if (failed !== undefined) throw failed;
  return {
    ms,
    events: await countEvents(),
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    steal,
    serverCpuMs:
      serverBefore !== undefined && serverAfter !== undefined
        ? serverAfter - serverBefore
        : undefined,
    progress,
  };
}

/** Follows the head on `databaseUrl` (an indexer resuming there) while new transfers are timed. */
export async function timeFollowing(
  config: IndexerConfig,
  generated: GeneratedDevnet,
  databaseUrl: string,
  samples: number,
  log: (line: string) => void,
): Promise<LatencyResult> {
  const store = await openDatabase(databaseUrl, { busyTimeoutMs: 10_000 });
  const indexer = createIndexer({ config, store, logger: quietLogger });
  const controller = new AbortController();
  const running = indexer.run(controller.signal);
  try {
    return await measureFollowLatency({ generated, databaseUrl, samples, log });
  } finally {
    controller.abort();
    await running.catch(() => undefined);
    await store.close();
  }
}

export function countSqliteEvents(path: string): Promise<number> {
  const db = new Database(path, { readonly: true });
  try {
    const row = db.prepare("SELECT count(*) AS n FROM raw_events").get() as { n: number };
    return Promise.resolve(Number(row.n));
  } finally {
    db.close();
  }
}
