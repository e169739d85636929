/**
 * The list benchmark's data set: N generated records as JSONL and a SQLite database loaded from
 * it, both cached under the cache directory (data/bench/, gitignored) and reused while complete.
 *
 * Completeness: the JSONL is written atomically (renamed into place), the sample file is written
 * after it, and the database gets a `.complete` marker only after its import committed; anything
 * without its marker is rebuilt from scratch.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createStore } from "../src/store/index.js";
import type { BridgeTransaction } from "../src/store/types.js";
import { createTransferGenerator } from "../src/transfers/generate.js";
import { importTransfersFile } from "../src/transfers/import-file.js";
import { writeJsonl } from "../src/transfers/write-jsonl.js";

/** Values to query with: drawn from the generated records (every 997th). */
export interface DatasetSample {
  hotAddresses: string[];
  addresses: string[];
  hashes: string[];
}

export interface Dataset {
  jsonlPath: string;
  databasePath: string;
  sample: DatasetSample;
  /** How the data was obtained in this run (for the report). */
  generate: { reused: boolean; seconds: number };
  load: { reused: boolean; seconds: number; recordsPerSecond: number };
}

export interface DatasetOptions {
  records: number;
  seed: number;
  cacheDir: string;
  log: (line: string) => void;
}

export async function ensureDataset(options: DatasetOptions): Promise<Dataset> {
  const { records, seed, cacheDir, log } = options;
  await mkdir(cacheDir, { recursive: true });
  const name = `transfers-${records}-seed${seed}`;
  const jsonlPath = join(cacheDir, `${name}.jsonl`);
  const samplePath = join(cacheDir, `${name}.sample.json`);
  const databasePath = join(cacheDir, `${name}.db`);
  const markerPath = `${databasePath}.complete`;

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
    await writeJsonl(jsonlPath, sampled(generator.records(), sample));
    await writeFile(samplePath, JSON.stringify(sample));
    generate = { reused: false, seconds: (performance.now() - started) / 1000 };
    await rm(markerPath, { force: true }); // a new file means a new database
  }
  const sample = JSON.parse(await readFile(samplePath, "utf8")) as DatasetSample;

  let load: Dataset["load"];
  if (existsSync(markerPath)) {
    load = { reused: true, ...JSON.parse(await readFile(markerPath, "utf8")) };
  } else {
    for (const suffix of ["", "-wal", "-shm"])
      await rm(`${databasePath}${suffix}`, { force: true });
    log(`importing into ${databasePath} (one transaction) ...`);
    const store = await createStore({ databaseUrl: databasePath });
    try {
      let lastLog = 0;
      const summary = await importTransfersFile({
        path: jsonlPath,
        store,
        batchSize: 2000,
        onProgress: (p) => {
          if (p.elapsedMs - lastLog < 10_000) return;
          lastLog = p.elapsedMs;
          const percent = p.totalBytes ? ((p.bytesRead / p.totalBytes) * 100).toFixed(0) : "?";
          log(
            `  ${p.lines.toLocaleString("en-US")} lines (${percent}%) after ${(p.elapsedMs / 1000).toFixed(0)} s`,
          );
        },
      });
      const seconds = summary.durationMs / 1000;
      load = { reused: false, seconds, recordsPerSecond: Math.round(summary.read / seconds) };
    } finally {
      await store.close();
    }
    await writeFile(
      markerPath,
      JSON.stringify({ seconds: load.seconds, recordsPerSecond: load.recordsPerSecond }),
    );
  }
  return { jsonlPath, databasePath, sample, generate, load };
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
