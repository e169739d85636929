/**
 * The "index" and "index (PostgreSQL)" sections of bench/RESULTS.md: generation, the bare
 * eth_getLogs ceiling, the indexer's backfill and the ratio (targets: SQLite >= 15 %, PostgreSQL
 * >= 10 %, issue #24), and the
 * head-following latency (target: visible within 2 s of confirmation); on SQLite also the
 * raw-log, raw-events and store floors, on PostgreSQL the server and its settings.
 */
import type { GeneratedDevnet } from "./index-generate.js";
import type { LatencyResult } from "./index-latency.js";
import type { StoreFloorResult } from "./index-store-floor.js";
import type { PostgresInfo } from "./list-postgres.js";

export const INDEX_SECTIONS = { sqlite: "index", postgres: "index (PostgreSQL)" } as const;

/** What both sections report: the run, the data, the ceiling, the backfill, the latency. */
export interface IndexRunReport {
  command: string;
  date: string;
  cpu: string;
  cores: number;
  node: string;
  loadBefore: number[];
  loadAfter: number[];
  /**
   * Share of the machine's CPU time the hypervisor gave to other guests (bench/cpu-steal.ts):
   * during the section's backfill, and over all measured runs (from the first ceiling run to the
   * last one, or to the second raw-events floor run when the SQLite floors are measured).
   */
  steal: { backfill: number | undefined; measurements: number | undefined };
  options: { transfers: number; perBlock: number; maxBlockRange: number; seed: number };
  generated: Pick<
    GeneratedDevnet,
    "sends" | "deliveries" | "failures" | "refunds" | "generationMs" | "deployMs"
  > & { blocks: number };
  ceiling: { ms: number; events: number; calls: number; firstMs: number; secondMs: number };
  /** CPU of the indexer's process (this one) during the backfill: robust to a busy machine. */
  indexer: { ms: number; events: number; cpuUserMs: number; cpuSystemMs: number };
  latency: LatencyResult;
  runMs: number;
}

export interface IndexBenchmarkReport extends IndexRunReport {
  /** Bare calls plus undecoded, keyed raw-log inserts (bench/index-bare-logs.ts); faster of two. */
  rawLogFloor: { ms: number; events: number; calls: number; firstMs: number; secondMs: number };
  /** Fetch + decode + raw_events insert only (bench/index.ts rawEventsFloor); faster of two. */
  floor: { ms: number; events: number; insertMs: number; firstMs: number; secondMs: number };
  /** SQLite alone writing the backfill's final rows (bench/index-store-floor.ts). */
  storeFloor: StoreFloorResult;
}

export interface IndexPostgresReport extends IndexRunReport {
  /** The server and the benchmark's schema as the backfill left it. */
  postgres: PostgresInfo;
  /** CPU time of the server's processes during the backfill, when on this machine (/proc). */
  serverCpuMs: number | undefined;
}

/** Steal above this share of the CPU time marks the run's host as busy. */
const STEAL_BUSY = 0.05;

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The lines both sections open with: command, machine, data, generation, ceiling. */
function runLines(r: IndexRunReport): string[] {
  const busyLoad = r.loadBefore[0]! > r.cores;
  const busySteal = (r.steal.measurements ?? 0) > STEAL_BUSY;
  const g = r.generated;
  return [
    `- Command: \`${r.command}\``,
    `- Date: ${r.date}`,
    ...(busyLoad
      ? [
          `- **Busy machine**: 1-minute load average ${r.loadBefore[0]!.toFixed(1)} on ${r.cores} cores at start (other processes were running): absolute rates are pessimistic, the ratio less so.`,
        ]
      : []),
    ...(busySteal
      ? [
          `- **Busy host**: the hypervisor gave ${percent(r.steal.measurements)} of this machine's CPU time to other guests during the measurements: absolute rates are pessimistic and noisy, the ratio less so.`,
        ]
      : []),
    `- Machine: ${r.cpu}, ${r.cores} cores, Node ${r.node}; load average (1/5/15 min) ${r.loadBefore.map((l) => l.toFixed(2)).join(" / ")} at start, ${r.loadAfter.map((l) => l.toFixed(2)).join(" / ")} at end; CPU steal (time given to other guests, /proc/stat) ${percent(r.steal.backfill)} during the backfill, ${percent(r.steal.measurements)} over the measured runs`,
    `- Data: ${int(g.sends)} transfers on a 3-chain anvil devnet (kinds 0/1/2 at random over random chain pairs, ${r.options.perBlock} transactions per block, seed ${r.options.seed}): ${int(g.deliveries)} deliveries of which ${int(g.failures)} fail on the destination, ${int(g.refunds)} refunds, ~3 % never delivered; ${int(g.blocks)} blocks in all.`,
    `- Generation (not part of any rate): ${seconds(g.generationMs)} (devnet start and deployment ${seconds(g.deployMs)}).`,
    `- Ceiling: the indexer's eth_getLogs calls made bare (fetch + JSON.parse; same addresses, topics, ${r.options.maxBlockRange}-block spans; chains concurrently), ${int(r.ceiling.calls)} calls; run before and after the indexer, the faster kept (${seconds(r.ceiling.firstMs)} / ${seconds(r.ceiling.secondMs)}).`,
  ];
}

const indexerLine = (r: IndexRunReport, into: string) =>
  `- Indexer: \`createIndexer\` as \`bridge-oracle index\` runs it (all chains concurrently, maxBlockRange ${r.options.maxBlockRange}), full backfill from the deploy blocks into ${into}: raw events, block hashes, token metadata reads, derived records and address lists, each batch atomic.`;

/** The backfill's share of the ceiling's rate that each store must reach. */
export const INDEX_TARGETS = { sqlite: 0.15, postgres: 0.1 } as const;

function ratioLine(r: IndexRunReport, target: number): string {
  const ratio = rate(r.indexer) / rate(r.ceiling);
  return `Indexer / ceiling: **${(ratio * 100).toFixed(1)} %** (target >= ${target * 100} %: ${ratio >= target ? "met" : "NOT met"}; the target allows the backfill ${seconds(r.ceiling.ms / target)}).`;
}

const cpuLine = (r: IndexRunReport) =>
  `Indexer process CPU during the backfill: ${seconds(r.indexer.cpuUserMs)} user + ${seconds(r.indexer.cpuSystemMs)} system for ${seconds(r.indexer.ms)} wall, i.e. ${int(r.indexer.events / ((r.indexer.cpuUserMs + r.indexer.cpuSystemMs) / 1000))} events per CPU-second (the rest of the wall time: waiting for the node${"postgres" in r ? " or the database server" : ""}, or for a core on a busy machine).`;

function latencyLine(r: IndexRunReport, api: string): string {
  const lat = r.latency.sortedMs;
  const within = lat.filter((ms) => ms <= 2000).length;
  const ms = (v: number | undefined) => (v === undefined ? "-" : int(v));
  return `Following the head (1 s blocks, pollIntervalMs 1000, ${api}): from a transfer's receipt being available to the list endpoint returning it, ${lat.length} of ${r.latency.samples} samples${r.latency.missing > 0 ? ` (${r.latency.missing} not visible within 15 s)` : ""}: median ${ms(percentile(lat, 50))} ms, p90 ${ms(percentile(lat, 90))} ms, max ${ms(lat.at(-1))} ms; ${within} of ${r.latency.samples} within 2 s (target: all ${within === r.latency.samples ? "met" : "NOT met"}).`;
}

const rate = (m: { events: number; ms: number }) => m.events / (m.ms / 1000);
const percent = (share: number | undefined) =>
  share === undefined ? "not available" : `${(share * 100).toFixed(1)} %`;

export function formatIndexSection(r: IndexBenchmarkReport): string {
  const ceilingRate = rate(r.ceiling);
  const indexerRate = rate(r.indexer);
  const floorRate = rate(r.floor);
  const rawLogRate = rate(r.rawLogFloor);
  const budgetMs = r.ceiling.ms / INDEX_TARGETS.sqlite;
  const storeFloorMs = Math.min(r.storeFloor.indexesInPlaceMs, r.storeFloor.indexesAfterMs);
  const storeFloorRate = r.indexer.events / (storeFloorMs / 1000);
  const share = (value: number) => `${((100 * value) / ceilingRate).toFixed(1)} %`;
  return [
    `## ${INDEX_SECTIONS.sqlite}`,
    "",
    ...runLines(r),
    `- Raw-log floor: the least any indexer that keeps the raw logs must do, whatever its code and read model: the ceiling's calls (same spans, fetch + JSON.parse, no viem), each span's logs stored as they came, undecoded (tx hash, log index, block number and hash, address, topics, data), keyed by (chain id, tx hash, log index), with the chain's cursor, in one transaction per span, the next span requested while one is written; a fresh SQLite file with the indexer's connection settings; no decoding, block hashes, pairing, records or address lists. Run before and after the indexer, the faster kept (${seconds(r.rawLogFloor.firstMs)} / ${seconds(r.rawLogFloor.secondMs)}).`,
    `- Raw-events floor: the least this indexer's own code does before deriving anything: its client's eth_getLogs over the indexer's adaptive spans (viem), decodeBridgeLog, and the repository's raw_events insert, one transaction per span, into a fresh database with the real schema; no block hashes, records or address lists. Run before and after the indexer, the faster kept (${seconds(r.floor.firstMs)} / ${seconds(r.floor.secondMs)}).`,
    `- Store floor: SQLite alone writing the rows the indexer's backfill left (raw events, block hashes, chain rows, token metadata, records, address lists and stats: ${int(r.storeFloor.rows)} rows), copied from its database into a fresh one with the same schema and connection settings by \`INSERT INTO t SELECT * FROM src.t ORDER BY rowid\`, one transaction, no JavaScript per row, inserts only (the backfill also updates records whose delivery comes in a later batch). Two forms, each run twice, the faster kept: every index in place (${seconds(r.storeFloor.indexesInPlaceMs)}), and index-less tables followed by CREATE INDEX (${seconds(r.storeFloor.indexesAfterMs)}); the table shows the faster form.`,
    `${indexerLine(r, "a fresh SQLite file (WAL)")} One transaction per batch.`,
    `- Whole run: ${seconds(r.runMs)}.`,
    "",
    "| measurement | events | time | events/s |",
    "| --- | ---: | ---: | ---: |",
    `| bare eth_getLogs (ceiling) | ${int(r.ceiling.events)} | ${seconds(r.ceiling.ms)} | ${int(ceilingRate)} |`,
    `| raw-log floor (bare fetch + undecoded keyed insert) | ${int(r.rawLogFloor.events)} | ${seconds(r.rawLogFloor.ms)} | ${int(rawLogRate)} |`,
    `| raw-events floor (fetch + decode + raw_events insert) | ${int(r.floor.events)} | ${seconds(r.floor.ms)} | ${int(floorRate)} |`,
    `| store floor (SQLite alone writing the backfill's rows) | ${int(r.indexer.events)} | ${seconds(storeFloorMs)} | ${int(storeFloorRate)} |`,
    `| indexer backfill | ${int(r.indexer.events)} | ${seconds(r.indexer.ms)} | ${int(indexerRate)} |`,
    "",
    `Of the floor's ${seconds(r.floor.ms)}, ${seconds(r.floor.insertMs)} were spent inside the raw_events insert transactions (synchronous, on the one thread); the rest is fetching and decoding.`,
    "",
    ratioLine(r, INDEX_TARGETS.sqlite),
    "",
    `Raw-log floor / ceiling: ${share(rawLogRate)}: storing what eth_getLogs returned, with the cursor and nothing else, took ${seconds(r.rawLogFloor.ms)} of the target's ${seconds(budgetMs)}.`,
    "",
    `Raw-events floor / ceiling: ${share(floorRate)}; indexer / raw-events floor: ${(100 * (indexerRate / floorRate)).toFixed(1)} %.`,
    "",
    `Store floor / ceiling: ${share(storeFloorRate)}; indexer / store floor: ${(100 * (indexerRate / storeFloorRate)).toFixed(1)} %. Of the target's ${seconds(budgetMs)}, SQLite alone needs ${seconds(storeFloorMs)} to write the rows this store keeps, before any fetching, decoding or derivation.`,
    "",
    cpuLine(r),
    "",
    latencyLine(r, "API in its own process on the same SQLite file"),
    "",
  ].join("\n");
}

export function formatIndexPostgresSection(r: IndexPostgresReport): string {
  const p = r.postgres;
  const mb = (bytes: number) => `${int(bytes / (1024 * 1024))} MB`;
  return [
    `## ${INDEX_SECTIONS.postgres}`,
    "",
    ...runLines(r),
    `- PostgreSQL ${p.version}, ${p.location}${p.sameMachine ? ": the database server shares the cores with the indexer and the anvil nodes" : ""}; database \`${p.database}\`, schema \`${p.schema}\` (the benchmark's own, created empty for the run and dropped after it: ${mb(p.sizeBytes)} with indexes after the backfill); settings: ${p.settings.map((x) => `${x.name} ${x.value}`).join(", ")}`,
    `${indexerLine(r, "that schema")} One transaction per batch under the process's commit lock, as \`index\` runs on PostgreSQL.`,
    `- Whole run: ${seconds(r.runMs)}.`,
    "",
    "| measurement | events | time | events/s |",
    "| --- | ---: | ---: | ---: |",
    `| bare eth_getLogs (ceiling) | ${int(r.ceiling.events)} | ${seconds(r.ceiling.ms)} | ${int(rate(r.ceiling))} |`,
    `| indexer backfill into PostgreSQL | ${int(r.indexer.events)} | ${seconds(r.indexer.ms)} | ${int(rate(r.indexer))} |`,
    "",
    ratioLine(r, INDEX_TARGETS.postgres),
    "",
    cpuLine(r),
    r.serverCpuMs === undefined
      ? "The database server's CPU time was not measured (not on this machine)."
      : `The database server's processes used ${seconds(r.serverCpuMs)} of CPU during the backfill (/proc, the postmaster and its children).`,
    "",
    latencyLine(r, "API in its own process on the same schema"),
    "",
  ].join("\n");
}
