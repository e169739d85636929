/**
 * The list benchmark's data set: N generated records as JSONL, cached under the cache directory
 * (data/bench/, gitignored) and reused while complete, and loaded into the store under test:
 * a SQLite database beside the JSONL (here) or a PostgreSQL schema (list-postgres.ts).
 *
 * Completeness: the JSONL is written atomically (renamed into place), the sample file is written
 * after it and its SHA-256 after that, and the SQLite database gets a `.complete` marker only
 * after its import committed; anything without its marker is rebuilt from scratch.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BridgeTransaction } from "../src/domain/bridge-transaction.js";
import { createStore, type Database } from "../src/store/index.js";
import { createTransferGenerator } from "../src/transfers/generate.js";
import { importTransfersFile } from "../src/transfers/import-file.js";
import { writeJsonl } from "../src/transfers/write-jsonl.js";

/** Records per write when loading (`bridge-oracle import --batch-size`). */
export const LOAD_BATCH_SIZE = 2000;

/** Values to query with: drawn from the generated records (every 997th). */
export interface DatasetSample {
  hotAddresses: string[];
  addresses: string[];
  hashes: string[];
}

/** The generated JSONL, and what identifies its content. */
export interface GeneratedData {
  records: number;
  seed: number;
  jsonlPath: string;
  /** SHA-256 of the JSONL: part of a loaded database's fingerprint. */
  sha256: string;
  sample: DatasetSample;
  /** How the JSONL was obtained in this run (for the report). */
  generate: { reused: boolean; seconds: number };
}

/** How the records got into the database: in this run, or by an earlier one (reused). */
export interface DatasetLoad {
  reused: boolean;
  seconds: number;
  recordsPerSecond: number;
  /** PostgreSQL: VACUUM (ANALYZE) after the import. */
  vacuumSeconds?: number;
  /**
   * The import's time for each successive million records (the last part what is left), so a
   * rate that falls as the tables grow shows; absent for a load recorded before it was measured.
   */
  perMillion?: ImportSegment[];
}

export interface ImportSegment {
  records: number;
  seconds: number;
}

/** Records per segment of `DatasetLoad.perMillion`. */
export const IMPORT_SEGMENT = 1_000_000;

export interface Dataset extends GeneratedData {
  /** What the API servers get as DATABASE_URL: a SQLite path or a postgres:// URL. */
  databaseUrl: string;
  load: DatasetLoad;
  /** SQLite: the database file's size (its WAL included) as the benchmark found it. */
  sizeBytes?: number;
}

export interface DatasetOptions {
  records: number;
  seed: number;
  cacheDir: string;
  log: (line: string) => void;
}

function datasetName(records: number, seed: number): string {
  return `transfers-${records}-seed${seed}`;
}

export async function ensureGeneratedData(options: DatasetOptions): Promise<GeneratedData> {
  const { records, seed, cacheDir, log } = options;
  await mkdir(cacheDir, { recursive: true });
  const name = datasetName(records, seed);
  const jsonlPath = join(cacheDir, `${name}.jsonl`);
  const samplePath = join(cacheDir, `${name}.sample.json`);
  const shaPath = join(cacheDir, `${name}.sha256`);

  let generate = { reused: true, seconds: 0 };
  if (!existsSync(jsonlPath) || !existsSync(samplePath)) {
    log(`generating ${records.toLocaleString("en-US")} records into ${jsonlPath} ...`);
    const started = performance.now();
    const generator = createTransferGenerator({ count: records, seed });
    const sample: DatasetSample = {
      hotAddresses: [...generator.hotAddresses],
      addresses: [],
      hashes: [],
    };
    await rm(shaPath, { force: true });
    await writeJsonl(jsonlPath, sampled(generator.records(), sample));
    await writeFile(samplePath, JSON.stringify(sample));
    generate = { reused: false, seconds: (performance.now() - started) / 1000 };
    // A new file means a new SQLite database.
    await rm(`${join(cacheDir, `${name}.db`)}.complete`, { force: true });
  }
  const sample = JSON.parse(await readFile(samplePath, "utf8")) as DatasetSample;
  // Caches from before the fingerprint lack the file: hashed once, then kept.
  if (!existsSync(shaPath)) await writeFile(shaPath, await sha256File(jsonlPath));
  const sha256 = (await readFile(shaPath, "utf8")).trim();
  return { records, seed, jsonlPath, sha256, sample, generate };
}

/** The data set in a SQLite database beside the JSONL, imported once. */
export async function ensureSqliteDataset(options: DatasetOptions): Promise<Dataset> {
  const generated = await ensureGeneratedData(options);
  const { log } = options;
  const databasePath = join(options.cacheDir, `${datasetName(options.records, options.seed)}.db`);
  const markerPath = `${databasePath}.complete`;
  let load: DatasetLoad;
  if (existsSync(markerPath)) {
    load = { reused: true, ...JSON.parse(await readFile(markerPath, "utf8")) };
  } else {
    for (const suffix of ["", "-wal", "-shm"])
      await rm(`${databasePath}${suffix}`, { force: true });
    log(`importing into ${databasePath} (one transaction) ...`);
    const store = await createStore({ databaseUrl: databasePath });
    try {
      load = await importForBenchmark(store, generated.jsonlPath, log);
    } finally {
      await store.close();
    }
    await writeFile(
      markerPath,
      JSON.stringify({
        seconds: load.seconds,
        recordsPerSecond: load.recordsPerSecond,
        perMillion: load.perMillion,
      }),
    );
  }
  let sizeBytes = 0;
  for (const suffix of ["", "-wal"]) {
    sizeBytes += await stat(`${databasePath}${suffix}`).then(
      (s) => s.size,
      () => 0,
    );
  }
  return { ...generated, databaseUrl: databasePath, load, sizeBytes };
}

/**
 * Imports the JSONL into `store` the way `bridge-oracle import --batch-size 2000` does (one
 * transaction, validated records), logging progress every 10 s; returns its time and rate.
 */
export async function importForBenchmark(
  store: Database,
  jsonlPath: string,
  log: (line: string) => void,
): Promise<DatasetLoad> {
  let lastLog = 0;
  const perMillion: ImportSegment[] = [];
  let segmentStart = { records: 0, ms: 0 };
  const summary = await importTransfersFile({
    path: jsonlPath,
    store,
    batchSize: LOAD_BATCH_SIZE,
    onProgress: (p) => {
      // Progress comes after a batch, at most every 200 ms: a segment ends at the first one
      // past its million.
      if (p.records - segmentStart.records >= IMPORT_SEGMENT) {
        perMillion.push({
          records: p.records - segmentStart.records,
          seconds: (p.elapsedMs - segmentStart.ms) / 1000,
        });
        segmentStart = { records: p.records, ms: p.elapsedMs };
      }
      if (p.elapsedMs - lastLog < 10_000) return;
      lastLog = p.elapsedMs;
      const percent = p.totalBytes ? ((p.bytesRead / p.totalBytes) * 100).toFixed(0) : "?";
      log(
        `  ${p.lines.toLocaleString("en-US")} lines (${percent}%) after ${(p.elapsedMs / 1000).toFixed(0)} s`,
      );
    },
  });
  const seconds = summary.durationMs / 1000;
  const recordsPerSecond = Math.round(summary.read / seconds);
  if (summary.read > segmentStart.records) {
    perMillion.push({
      records: summary.read - segmentStart.records,
      seconds: seconds - segmentStart.ms / 1000,
    });
  }
  log(
    `  imported ${summary.read.toLocaleString("en-US")} records in ${seconds.toFixed(1)} s (${recordsPerSecond.toLocaleString("en-US")} records/s)`,
  );
  return { reused: false, seconds, recordsPerSecond, perMillion };
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function* sampled(
  records: Iterable<BridgeTransaction>,
  sample: DatasetSample,
): Generator<BridgeTransaction> {
  let i = 0;
  for (const record of records) {
    if (i++ % 997 === 0) {
      const hot = sample.hotAddresses;
      if (/^0x[0-9a-fA-F]{40}$/.test(record.from_address) && !hot.includes(record.from_address)) {
        sample.addresses.push(record.from_address);
      }
      for (const hash of [record.message_id, record.source_tx_hash, record.dest_tx_hash]) {
        if (/^0x[0-9a-f]{64}$/.test(hash)) sample.hashes.push(hash);
      }
    }
    yield record;
  }
}
