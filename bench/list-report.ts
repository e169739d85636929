/**
 * Formats the list benchmark's results as the "## list" section of bench/RESULTS.md (SQLite) or
 * the "## list (PostgreSQL)" one, and replaces that section in the file, keeping every other
 * section as it is.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { API_POSTGRES_TIMEOUTS } from "../src/store/index.js";
import { LISTENER_HEARTBEAT } from "../src/store/postgres/change-listener.js";
import { type Dataset, type DatasetLoad, LOAD_BATCH_SIZE } from "./list-data.js";
import type { PostgresInfo } from "./list-postgres.js";
import type { LoadResult, ProbeResult } from "./load.js";

/** The results section of each store. */
export const LIST_SECTIONS = { sqlite: "list", postgres: "list (PostgreSQL)" } as const;

export interface ListBenchmarkReport {
  store: keyof typeof LIST_SECTIONS;
  /** PostgreSQL: the server, and the commits notified in its database during the measurement. */
  postgres?: PostgresInfo & { otherCommits: number };
  command: string;
  date: string;
  node: string;
  cpu: string;
  cores: number;
  loadAverage: number[];
  loadAverageAtEnd: number[];
  records: number;
  connections: number;
  durationSeconds: number;
  dataset: Dataset;
  hotTotals: { address: string; total: number }[];
  results: Record<string, LoadResult>;
  probes: Record<string, ProbeResult>;
  totalSeconds: number;
}

const ms = (value: number | undefined): string =>
  value === undefined || Number.isNaN(value) ? "-" : value.toFixed(2);
const int = (value: number): string => Math.round(value).toLocaleString("en-US");
const ratio = (value: number): string => (Number.isFinite(value) ? value.toFixed(2) : "-");

interface Target {
  name: string;
  measured: string;
  pass: boolean;
}

export function evaluateTargets(report: ListBenchmarkReport): Target[] {
  const r = report.results;
  const p = report.probes;
  const rps = (name: string) => r[name]?.requestsPerSecond ?? Number.NaN;
  const probe = (prefix: string) =>
    Object.entries(p).find(([name]) => name.startsWith(prefix))?.[1] ?? {
      p50: Number.NaN,
      p99: Number.NaN,
      mean: Number.NaN,
    };
  const pct = (value: number) => `${(value * 100).toFixed(0)} %`;
  const mix = rps("mix") / rps("canned: mix");
  const mixOff = rps("mix, cache off") / rps("canned: mix");
  const first = rps("first pages") / rps("canned: first pages");
  const firstOff = rps("first pages, cache off") / rps("canned: first pages");
  const firstP99 = r["first pages"]?.p99 ?? Number.NaN;
  const firstP99Off = r["first pages, cache off"]?.p99 ?? Number.NaN;
  const hash = rps("hash lookups") / rps("hello world");
  const hashOff = rps("hash lookups, cache off") / rps("hello world");
  // The database's own costs: measured without the response cache.
  const hotFirst = r["hot first pages, cache off"]?.p50 ?? Number.NaN;
  const deepLoaded = (r["deep pages, cache off"]?.p50 ?? Number.NaN) / hotFirst;
  const deepProbe = probe("deep page").p50 / probe("hot first page").p50;
  const totalProbe = probe("hot first page").p50 / probe("ordinary first page").p50;
  const totalLoaded = hotFirst / (r["first pages, cache off"]?.p50 ?? Number.NaN);
  return [
    {
      name: "list mix req/s >= 50 % of the canned route's (same requests)",
      measured: `${pct(mix)} with the response cache (default); ${pct(mixOff)} with it off`,
      pass: mix >= 0.5,
    },
    {
      name: "first pages req/s >= 50 % of the canned route's",
      measured: `${pct(first)} with the response cache (default); ${pct(firstOff)} with it off`,
      pass: first >= 0.5,
    },
    {
      name: `first pages p99 <= 10 ms at ${report.connections} connections`,
      measured: `${ms(firstP99)} ms with the response cache; ${ms(firstP99Off)} ms with it off`,
      pass: firstP99 <= 10 && firstP99Off <= 10,
    },
    {
      name: "hash lookup req/s >= 50 % of hello world's",
      measured: `${pct(hash)} with the response cache (default); ${pct(hashOff)} with it off`,
      pass: hash >= 0.5,
    },
    {
      name: `page ${int(100_000)} rows deep (default sort) within 2x of the first page's latency (cache off)`,
      measured: `unloaded p50 ${ratio(deepProbe)}x, under load p50 ${ratio(deepLoaded)}x`,
      pass: deepProbe <= 2 && deepLoaded <= 2,
    },
    {
      name: "total for a 100,000+ address no costlier than a first page (hot vs ordinary first page, <= 1.5x; cache off)",
      measured: `unloaded p50 ${ratio(totalProbe)}x, under load p50 ${ratio(totalLoaded)}x`,
      pass: totalProbe <= 1.5 && totalLoaded <= 1.5,
    },
  ];
}

export function formatListSection(report: ListBenchmarkReport): string {
  const { dataset } = report;
  const lines: string[] = [];
  lines.push(`## ${LIST_SECTIONS[report.store]}`, "");
  lines.push(`- Command: \`${report.command}\``);
  lines.push(`- Date: ${report.date}`);
  // The load at the end is the benchmark's own last minute: the API server and the load
  // generator, and on PostgreSQL the database server as a third busy process. Only a load above
  // what those explain means other processes ran.
  const ownProcesses = report.store === "postgres" ? 3 : 2;
  const startLoad = report.loadAverage[0] ?? 0;
  const endLoad = report.loadAverageAtEnd[0] ?? 0;
  if (startLoad > report.cores || endLoad > Math.max(report.cores, ownProcesses)) {
    const busiest = Math.max(startLoad, endLoad);
    lines.push(
      `- **Busy machine**: 1-minute load average ${busiest.toFixed(1)} on ${report.cores} cores (other processes were running), so the server and the load generator did not have a core each: absolute numbers are pessimistic and noisy, ratios less so.`,
    );
  }
  lines.push(
    `- Machine: ${report.cpu}, ${report.cores} cores, Node ${report.node}; load average (1/5/15 min) ${report.loadAverage.map((l) => l.toFixed(2)).join(" / ")} at start, ${report.loadAverageAtEnd.map((l) => l.toFixed(2)).join(" / ")} at end`,
  );
  const hot = report.hotTotals
    .map((h) => `\`${h.address}\` (${int(h.total)} transfers)`)
    .join(", ");
  if (report.postgres === undefined) {
    lines.push(`- Data: ${int(report.records)} generated records in SQLite; hot addresses: ${hot}`);
    lines.push(
      `- Generate: ${dataset.generate.reused ? "reused cached JSONL" : `${dataset.generate.seconds.toFixed(1)} s`}; load (import, one transaction): ${dataset.load.reused ? `reused database (its import took ${dataset.load.seconds.toFixed(1)} s, ${int(dataset.load.recordsPerSecond)} records/s)` : `${dataset.load.seconds.toFixed(1)} s, ${int(dataset.load.recordsPerSecond)} records/s`}`,
      importCurveLine(dataset.load),
      sizeLine("the SQLite file (WAL included)", dataset.sizeBytes, report.records),
    );
    lines.push(
      `- Load: autocannon, ${report.connections} connections, ${report.durationSeconds} s per scenario, after a warm-up; server and load generator in separate processes; API and baseline servers both up, each API scenario run right before its baseline scenario so load changes on the shared machine hit both sides of a ratio; the API as buildApp makes it (LOG_LEVEL=warn, no rate-limit plugin), twice: with its response cache (the default on SQLite: answers kept by URL until the data changes; the request lists cycle, so after the first pass most requests are answered from it) and with the cache off (LIST_CACHE_MB=0, ", cache off": every request queries SQLite). The unloaded probes and the deep-page and total comparisons use the cache-off server: they measure the database. Whole run: ${report.totalSeconds.toFixed(0)} s.`,
    );
  } else {
    lines.push(...postgresLines(report, report.postgres, hot));
  }
  lines.push(
    "",
    "| scenario | req/s | p50 ms | p99 ms | mean ms | non-2xx / errors | bytes/response |",
    "|---|---:|---:|---:|---:|---:|---:|",
  );
  for (const r of Object.values(report.results)) {
    lines.push(
      `| ${r.name} | ${int(r.requestsPerSecond)} | ${ms(r.p50)} | ${ms(r.p99)} | ${ms(r.mean)} | ${r.non2xx} / ${r.errors} | ${int(r.bytesPerResponse)} |`,
    );
  }
  lines.push(
    "",
    "Unloaded latency (one request at a time on one connection; cache off):",
    "",
    "| request | p50 ms | p99 ms | mean ms |",
    "|---|---:|---:|---:|",
  );
  for (const [name, p] of Object.entries(report.probes)) {
    lines.push(`| ${name} | ${ms(p.p50)} | ${ms(p.p99)} | ${ms(p.mean)} |`);
  }
  lines.push("", "| target | measured | met |", "|---|---|---|");
  for (const t of evaluateTargets(report))
    lines.push(`| ${t.name} | ${t.measured} | ${t.pass ? "yes" : "**no**"} |`);
  lines.push(
    "",
    "Scenarios: _mix_ = 30 % ordinary-address first pages, 10 % hot-address first pages, 25 % hash / message-id lookups, 10 % pages 100,000 rows deep into a hot address, 15 % the six sort names (snake and camel case) asc/desc on pages 1-3, 10 % hot-address pages 2-51; page sizes 10 and 50. _first pages_: page 1, size 10, default sort, ordinary and hot addresses. _deep pages_: hot addresses at offsets 100,000 and 100,010 (pageNo 10001 and 10002, size 10), default sort, compared with _hot first pages, cache off_ (same addresses, page 1, size 10). The canned baseline answers the same requests with a real response body of the same kind (page of 10, page of 50, one-record hash result) through the API's response schema.",
    "",
  );
  return lines.join("\n");
}

function postgresLines(
  report: ListBenchmarkReport,
  pg: NonNullable<ListBenchmarkReport["postgres"]>,
  hot: string,
): string[] {
  const { load, generate } = report.dataset;
  const seconds = (ms: number | undefined) => `${(ms ?? Number.NaN) / 1000} s`;
  const mb = (bytes: number) => `${int(bytes / (1024 * 1024))} MB`;
  const where = pg.sameMachine
    ? `on this machine (${pg.location}): the database server shares the ${report.cores} cores with the API servers and the load generator`
    : `on another host (${pg.location}): every query crosses the network, and the database does not use this machine's cores`;
  const loaded = `${load.seconds.toFixed(1)} s, ${int(load.recordsPerSecond)} records/s, then VACUUM (ANALYZE) ${(load.vacuumSeconds ?? Number.NaN).toFixed(1)} s`;
  return [
    `- PostgreSQL ${pg.version}, ${where}; database \`${pg.database}\`, schema \`${pg.schema}\` (the benchmark's own: ${mb(pg.sizeBytes)} with indexes); settings: ${pg.settings.map((s) => `${s.name} ${s.value}`).join(", ")}`,
    `- Data: ${int(report.records)} generated records in PostgreSQL; hot addresses: ${hot}`,
    `- Generate: ${generate.reused ? "reused cached JSONL" : `${generate.seconds.toFixed(1)} s`}; load (\`bridge-oracle import\`'s path: batches of ${int(LOAD_BATCH_SIZE)} records in one transaction, into the indexed tables): ${load.reused ? `reused the schema, loaded from the same records, seed and JSONL (its load took ${loaded})` : loaded}`,
    importCurveLine(load),
    sizeLine("the schema's tables with their indexes and TOAST", pg.sizeBytes, report.records),
    `- Load: autocannon, ${report.connections} connections, ${report.durationSeconds} s per scenario, after a warm-up; server and load generator in separate processes; API and baseline servers both up, each API scenario run right before its baseline scenario so load changes on the shared machine hit both sides of a ratio; the API as buildApp makes it (LOG_LEVEL=warn, no rate-limit plugin) on a PostgreSQL store opened as \`serve\` opens it (its default pool; the API's connect and query bounds, ${seconds(API_POSTGRES_TIMEOUTS.connectMs)} and ${seconds(API_POSTGRES_TIMEOUTS.queryMs)}), twice: with its response cache (the default on PostgreSQL too: answers kept by URL until a commit to the transfers table is notified on the listening connection; the request lists cycle, so after the first pass most requests are answered from it) and with the cache off (LIST_CACHE_MB=0, ", cache off": every request queries PostgreSQL). The unloaded probes and the deep-page and total comparisons use the cache-off server: they measure the database. Whole run: ${report.totalSeconds.toFixed(0)} s.`,
    `- Commits to transfers notified in this database during the measurement: ${int(pg.otherCommits)} (the channel is the database's, not the schema's: a commit from any process to any schema's transfers empties the response cache; 0 means the cached rows were undisturbed).`,
    `- Differs from the SQLite section: the database is a separate server process reached over a socket (SQLite runs inside the API process); the cache learns of commits by LISTEN/NOTIFY, with a \`SELECT 1\` heartbeat every ${seconds(LISTENER_HEARTBEAT.intervalMs)} on its connection (SQLite: by polling \`PRAGMA data_version\`); the load is followed by VACUUM (ANALYZE) (SQLite: \`PRAGMA optimize\` on close). The baseline is the same bare Fastify server, so each section's ratios compare its store with the same yardstick, but the two sections ran at different times.`,
  ];
}

/** The import's rate per million records (issue #43: a rate that falls as the tables grow). */
export function importCurveLine(load: DatasetLoad): string {
  const segments = load.perMillion;
  if (segments === undefined || segments.length === 0) {
    return "- Import rate per 1,000,000 records: not recorded (the database was loaded by a run before it was measured).";
  }
  let at = 0;
  const parts = segments.map((s) => {
    const part = `${int(at)}-${int(at + s.records)}: ${int(s.records / s.seconds)}`;
    at += s.records;
    return part;
  });
  const first = segments[0]!.records / segments[0]!.seconds;
  const last = segments.at(-1)!.records / segments.at(-1)!.seconds;
  return `- Import rate per 1,000,000 records (records/s; each segment ends at the first progress report past its million, the last one includes the commit): ${parts.join(", ")}; the last at ${((100 * last) / first).toFixed(0)} % of the first's rate.`;
}

/** The store's size and its size per 1,000 records. */
export function sizeLine(what: string, bytes: number | undefined, records: number): string {
  if (bytes === undefined) return "- Database size: not measured.";
  const mb = (n: number) => `${(n / 1e6).toFixed(n >= 1e8 ? 0 : 2)} MB`;
  return `- Database size: ${mb(bytes)} (${what}), ${(bytes / records / 1000).toFixed(2)} MB per 1,000 records.`;
}

/** Replaces (or appends) the `## <name>` section of a markdown file, keeping the others. */
export async function writeResultsSection(
  path: string,
  name: string,
  section: string,
): Promise<void> {
  const existing = existsSync(path)
    ? await readFile(path, "utf8")
    : "# Benchmark results\n\nRecorded by `npm run bench:<name>`; each run replaces its own section.\n";
  const lines = existing.split("\n");
  const start = lines.findIndex((line) => line.trim() === `## ${name}`);
  let next: string;
  if (start === -1) {
    next = `${existing.trimEnd()}\n\n${section.trimEnd()}\n`;
  } else {
    let end = lines.findIndex((line, i) => i > start && /^## /.test(line));
    if (end === -1) end = lines.length;
    const before = lines.slice(0, start).join("\n").trimEnd();
    const after = lines.slice(end).join("\n").trim();
    next = `${before}\n\n${section.trimEnd()}\n${after === "" ? "" : `\n${after}\n`}`;
  }
  await writeFile(path, next);
  formatMarkdown(path);
}

/**
 * CI's `biome check .` also checks markdown (table alignment, emphasis style), so the file is
 * run through the formatter after each write. Best effort: a file outside the project (tests)
 * may be refused, which does not matter there.
 */
function formatMarkdown(path: string): void {
  const biome = fileURLToPath(new URL("../node_modules/.bin/biome", import.meta.url));
  if (existsSync(biome)) spawnSync(biome, ["format", "--write", path], { stdio: "ignore" });
}
