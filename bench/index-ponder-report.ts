/**
 * The "index: against Ponder" section of bench/RESULTS.md (issue #43): in one run on the same
 * devnet, our backfill on SQLite and PostgreSQL beside Ponder 1.0.0's on PGlite and PostgreSQL
 * and the bare eth_getLogs ceiling; the ratios on the same kind of store (embedded: SQLite vs
 * PGlite; server: PostgreSQL vs PostgreSQL; target on PostgreSQL: ours at least 2x as fast);
 * whether the records are the same (bench/index-records.ts); each database's size per 1,000
 * records; and our backfill's time per 20,000 transfers (bench/index-curve.ts).
 */
import type { CurveSegment } from "./index-curve.js";
import { PONDER_PACKAGES, PONDER_SETTLE_BLOCKS } from "./index-ponder.js";
import type { RecordsComparison } from "./index-records.js";
import type { StoreKind } from "./options.js";

export const PONDER_SECTION = "index: against Ponder";

/** Ours must be at least this many times as fast as Ponder on PostgreSQL (issue #43). */
export const PONDER_POSTGRES_TARGET = 2;

export interface OurRun {
  ms: number;
  events: number;
  /** CPU of the indexer's process, and of the PostgreSQL server when measured. */
  cpuMs: number;
  serverCpuMs: number | undefined;
  records: number;
  digest: string;
  sizeBytes: number;
  curve: CurveSegment[];
}

export interface PonderRunReport {
  ms: number;
  cpuMs: number | undefined;
  serverCpuMs: number | undefined;
  records: number;
  digest: string;
  sizeBytes: number;
  /** Its records against ours on the same kind of store. */
  comparison: RecordsComparison;
}

export interface PonderSectionReport {
  command: string;
  date: string;
  cpu: string;
  cores: number;
  node: string;
  loadBefore: number[];
  loadAfter: number[];
  transfers: number;
  blocks: number;
  ceiling: { ms: number; events: number };
  ours: Partial<Record<StoreKind, OurRun>>;
  ponder: Partial<Record<StoreKind, PonderRunReport>>;
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const seconds = (ms: number | undefined) =>
  ms === undefined || Number.isNaN(ms) ? "-" : `${(ms / 1000).toFixed(2)} s`;
const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
/** Bytes per record are kB per 1,000 records; shown in MB like the sizes. */
const perThousand = (bytes: number, records: number) =>
  records === 0 ? "-" : `${(bytes / records / 1000).toFixed(2)} MB`;
const cpu = (process: number | undefined, server: number | undefined) =>
  process === undefined
    ? "-"
    : `${seconds(process)}${server === undefined ? "" : ` + server ${seconds(server)}`}`;

const STORE_NAMES = {
  sqlite: { ours: "ours, SQLite", ponder: "Ponder 1.0.0, PGlite (embedded)" },
  postgres: { ours: "ours, PostgreSQL", ponder: "Ponder 1.0.0, PostgreSQL" },
} as const;

function ratioLine(r: PonderSectionReport, store: StoreKind): string | undefined {
  const ours = r.ours[store];
  const ponder = r.ponder[store];
  if (ours === undefined || ponder === undefined) return undefined;
  const ratio = ponder.ms / ours.ms;
  const kind = store === "sqlite" ? "embedded store (SQLite vs PGlite)" : "PostgreSQL";
  const target =
    store === "postgres"
      ? ` (target >= ${PONDER_POSTGRES_TARGET}x: ${ratio >= PONDER_POSTGRES_TARGET ? "met" : "NOT met"})`
      : "";
  return `- On the ${kind}: ours took ${seconds(ours.ms)}, Ponder ${seconds(ponder.ms)}: ours is **${ratio.toFixed(2)}x** as fast${target}.`;
}

function recordsLine(r: PonderSectionReport, store: StoreKind): string | undefined {
  const ours = r.ours[store];
  const ponder = r.ponder[store];
  if (ours === undefined || ponder === undefined) return undefined;
  const c = ponder.comparison;
  if (c.equal) {
    return `- Records, ${STORE_NAMES[store].ponder} against ${STORE_NAMES[store].ours}: the same ${int(ours.records)} records, field for field (digest \`${ours.digest.slice(0, 16)}\`).`;
  }
  return `- Records, ${STORE_NAMES[store].ponder} against ${STORE_NAMES[store].ours}: **they differ**: ${int(c.onlyOurs)} only ours, ${int(c.onlyTheirs)} only Ponder's, ${int(c.differing)} with different fields; e.g. ${c.examples.map((e) => `\`${e}\``).join("; ")}.`;
}

function curveTable(r: PonderSectionReport): string[] {
  const stores = (["sqlite", "postgres"] as const).filter((s) => r.ours[s] !== undefined);
  if (stores.length === 0) return [];
  const rows = Math.max(...stores.map((s) => r.ours[s]!.curve.length));
  const lines = [
    `| transfers | ${stores.map((s) => `${STORE_NAMES[s].ours}: time | transfers/s`).join(" | ")} |`,
    `| --- | ${stores.map(() => "---: | ---:").join(" | ")} |`,
  ];
  for (let i = 0; i < rows; i++) {
    const segment = stores.map((s) => r.ours[s]!.curve[i]).find((x) => x !== undefined)!;
    const cells = stores.map((s) => {
      const x = r.ours[s]!.curve[i];
      if (x === undefined || Number.isNaN(x.ms)) return "- | -";
      return `${seconds(x.ms)} | ${int((x.to - x.from) / (x.ms / 1000))}`;
    });
    lines.push(`| ${int(segment.from)}-${int(segment.to)} | ${cells.join(" | ")} |`);
  }
  return lines;
}

export function formatPonderSection(r: PonderSectionReport): string {
  const busy = r.loadBefore[0]! > r.cores;
  const rate = (events: number, ms: number) => int(events / (ms / 1000));
  const rows: string[] = [
    `| bare eth_getLogs (ceiling) | ${seconds(r.ceiling.ms)} | ${rate(r.ceiling.events, r.ceiling.ms)} | - | - | - | - |`,
  ];
  for (const store of ["sqlite", "postgres"] as const) {
    const ours = r.ours[store];
    const ponder = r.ponder[store];
    if (ours !== undefined) {
      rows.push(
        `| ${STORE_NAMES[store].ours} | ${seconds(ours.ms)} | ${rate(ours.events, ours.ms)} | ${int(ours.records)} | ${megabytes(ours.sizeBytes)} | ${perThousand(ours.sizeBytes, ours.records)} | ${cpu(ours.cpuMs, ours.serverCpuMs)} |`,
      );
    }
    if (ponder !== undefined) {
      rows.push(
        `| ${STORE_NAMES[store].ponder} | ${seconds(ponder.ms)} | ${rate(r.ceiling.events, ponder.ms)} | ${int(ponder.records)} | ${megabytes(ponder.sizeBytes)} | ${perThousand(ponder.sizeBytes, ponder.records)} | ${cpu(ponder.cpuMs, ponder.serverCpuMs)} |`,
      );
    }
  }
  const packages = Object.entries(PONDER_PACKAGES)
    .map(([name, version]) => `${name} ${version}`)
    .join(", ");
  return [
    `## ${PONDER_SECTION}`,
    "",
    `- Command: \`${r.command}\``,
    `- Date: ${r.date}`,
    ...(busy
      ? [
          `- **Busy machine**: 1-minute load average ${r.loadBefore[0]!.toFixed(1)} on ${r.cores} cores at start (other processes were running): absolute times are pessimistic; the runs being side by side in one run, the ratios less so.`,
        ]
      : []),
    `- Machine: ${r.cpu}, ${r.cores} cores, Node ${r.node}; load average (1/5/15 min) ${r.loadBefore.map((l) => l.toFixed(2)).join(" / ")} at start, ${r.loadAfter.map((l) => l.toFixed(2)).join(" / ")} at end.`,
    `- Data: the devnet of the sections above: ${int(r.transfers)} transfers, ${int(r.ceiling.events)} events, ${int(r.blocks)} blocks (each chain ending with ${PONDER_SETTLE_BLOCKS} empty blocks, so that everything is older than Ponder's finality window).`,
    `- Ours: the backfills of the sections above (\`createIndexer\`, an empty database, until every chain's cursor reaches the head): raw events, block hashes, records, address lists with their list indexes, the change log.`,
    Object.keys(r.ponder).length === 0
      ? "- Ponder: not run (`--no-ponder`)."
      : `- Ponder: ${packages}, installed by the benchmark with \`npm install\` into a git-ignored cache (data/bench/); the app is bench/ponder-app/ (the four events of our reference bridges on the three chains, handlers restating our derivation, one \`transfer\` table of the record's fields keyed by message id, without list indexes); \`ponder start\` with Ponder's defaults (omnichain ordering, its RPC cache) except \`maxRequestsPerSecond\` 10,000 (default 50); PGlite in a fresh folder, PostgreSQL in a database of its own created empty on the same server; timed from spawning the process to \`/ready\` answering 200 (start-up, build and migrations included: about 15-20 s of PGlite's are fixed, whatever the data), then its records read back through a route of the app.`,
    `- Database size: SQLite's file; PostgreSQL: our schema's tables with their indexes and TOAST, Ponder's whole database (its \`ponder_sync\` RPC cache included); PGlite: its folder. Per 1,000 records: the size over the records it holds.`,
    "",
    "| run | time | events/s | records | database | per 1,000 records | CPU (process + PostgreSQL server) |",
    "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ...rows,
    "",
    ...(["sqlite", "postgres"] as const).flatMap((s) => {
      const line = ratioLine(r, s);
      return line === undefined ? [] : [line];
    }),
    ...(["sqlite", "postgres"] as const).flatMap((s) => {
      const line = recordsLine(r, s);
      return line === undefined ? [] : [line];
    }),
    "",
    `Our backfill per ${int(20_000)} transfers (a transfer counts once its source chain's cursor passed its send; times interpolated between cursor samples; the devnet has every send mined before any delivery and the chains are indexed concurrently, so a later segment also carries deliveries of earlier transfers, and the time after the last send's block, deliveries only, is in no segment):`,
    "",
    ...curveTable(r),
    "",
  ].join("\n");
}
