/**
 * Imports bridge transaction records from a JSONL file (one record per line, in exactly the
 * API's record shape) into a store.
 *
 * Invariants:
 * - all or nothing: the whole run is one store transaction; the first bad line rejects with an
 *   ImportLineError and the transaction rolls back, so nothing from the run is committed (on
 *   PostgreSQL, into empty lists, the drop of their sort indexes commits before it: bulk-load.ts);
 * - bounded memory: lines are pulled from the file as batches are written (readLines), and at
 *   most one batch of records is held, so a file of any length imports in constant memory;
 * - idempotent: records are upserted by message_id; importing the same file again inserts and
 *   updates nothing.
 */
import { stat } from "node:fs/promises";
import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import { repeatedMemberName } from "../repeated-json-member.js";
import { bulkLoad } from "../store/bulk-load.js";
import type { Database } from "../store/database.js";
import type { UpsertResult } from "../store/types.js";
import { LineTooLongError, readLines } from "./read-lines.js";
import { parseTransferRecord } from "./validate.js";

export const DEFAULT_IMPORT_BATCH_SIZE = 1000;

/** A line that cannot be imported: `line N: field X: rule` or `line N: rule`. */
export class ImportLineError extends Error {
  readonly line: number;
  /** The record field at fault; undefined when the line is not a record at all (bad JSON). */
  readonly field: string | undefined;
  readonly rule: string;

  constructor(line: number, field: string | undefined, rule: string) {
    super(field === undefined ? `line ${line}: ${rule}` : `line ${line}: field ${field}: ${rule}`);
    this.name = "ImportLineError";
    this.line = line;
    this.field = field;
    this.rule = rule;
  }
}

export interface ImportProgress {
  /** Lines read so far (blank ones included). */
  lines: number;
  /** Records written so far. */
  records: number;
  bytesRead: number;
  /** File size when known. */
  totalBytes: number | undefined;
  elapsedMs: number;
}

export interface ImportSummary extends UpsertResult {
  /** Records read (non-blank lines). */
  read: number;
  /** The lists were empty: their sort indexes were built after the load (bulk-load.ts). */
  deferredIndexes: boolean;
  durationMs: number;
}

export interface ImportTransfersFileOptions {
  path: string;
  store: Database;
  batchSize?: number;
  /** Called after each batch, at most every `progressIntervalMs` (default 200). */
  onProgress?: (progress: ImportProgress) => void;
  progressIntervalMs?: number;
  /**
   * false: maintain every list index row by row even into empty lists (the benchmarks' A/B of
   * the bulk path). Default true.
   */
  deferListIndexes?: boolean;
}

export async function importTransfersFile(
  options: ImportTransfersFileOptions,
): Promise<ImportSummary> {
  const { path, store, onProgress } = options;
  const batchSize = options.batchSize ?? DEFAULT_IMPORT_BATCH_SIZE;
  const progressIntervalMs = options.progressIntervalMs ?? 200;
  const started = performance.now();
  let totalBytes: number | undefined;
  try {
    const info = await stat(path);
    totalBytes = info.isFile() ? info.size : undefined;
  } catch {
    totalBytes = undefined; // readLines reports a missing file
  }

  const totals: UpsertResult = { inserted: 0, updated: 0, unchanged: 0 };
  let read = 0;
  let lines = 0;
  let bytesRead = 0;
  let lastProgress = 0;
  const report = (force: boolean): void => {
    if (onProgress === undefined) return;
    const now = performance.now();
    if (!force && now - lastProgress < progressIntervalMs) return;
    lastProgress = now;
    const records = totals.inserted + totals.updated + totals.unchanged;
    onProgress({ lines, records, bytesRead, totalBytes, elapsedMs: now - started });
  };

  // An import before any stream or webhook subscription writes no change-log rows (nobody can
  // be owed them: docs/push.md, "History nobody subscribed to").
  // Into empty lists, the sort indexes are built after the load (src/store/bulk-load.ts).
  const { deferredIndexes } = await bulkLoad(
    store,
    (tx) =>
      tx.withHistoryUnlogged(async () => {
        let batch: BridgeTransaction[] = [];
        const flush = async (): Promise<void> => {
          if (batch.length === 0) return;
          // Straight on the transaction, no savepoint per batch: the run is all or nothing anyway,
          // and inside a savepoint every insert costs SQLite more than the one before it
          // (docs/push.md, "Not guaranteed").
          const result = await tx.transferWrites.upsertTransfers(batch);
          totals.inserted += result.inserted;
          totals.updated += result.updated;
          totals.unchanged += result.unchanged;
          batch = [];
          report(false);
        };
        try {
          for await (const line of readLines(path)) {
            lines = line.number;
            bytesRead = line.bytesRead;
            if (line.text.trim() === "") continue;
            batch.push(parseLine(line.text, line.number));
            read++;
            if (batch.length >= batchSize) await flush();
          }
        } catch (error) {
          if (error instanceof LineTooLongError) {
            throw new ImportLineError(
              error.line,
              undefined,
              error.message.replace(/^line \d+: /, ""),
            );
          }
          throw error;
        }
        await flush();
      }),
    options.deferListIndexes ?? true,
  );
  report(true);
  return { read, ...totals, deferredIndexes, durationMs: performance.now() - started };
}

function parseLine(text: string, line: number): BridgeTransaction {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportLineError(line, undefined, `invalid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ImportLineError(
      line,
      undefined,
      "must be a JSON object (one bridge transaction record)",
    );
  }
  // JSON.parse keeps the last of two equal names: which one did the file mean?
  const repeated = repeatedMemberName(text);
  if (repeated !== undefined) {
    throw new ImportLineError(line, repeated.slice(0, 40), "is given more than once in the record");
  }
  const result = parseTransferRecord(value);
  if (!result.ok) throw new ImportLineError(line, result.field, result.rule);
  return result.record;
}
