/**
 * The change log of transfer records (migration 0007, docs/push.md): read by the stream and
 * the webhooks, pruned by retention. Nothing here writes a change: the triggers on `transfers`
 * do, in the writer's own transaction.
 *
 * Reads see committed changes only (the root store's reader connection on SQLite, the primary
 * on PostgreSQL: a replica's lag would only delay them). Invariant (migration 0007): once a
 * change is visible, every change with a smaller seq that will ever be visible is visible too,
 * so a reader that has returned everything up to seq s never has to look below s again.
 */

import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import type { SqlExecutor } from "./backend.js";
import { markSubscribedSql } from "./change-log-horizon.js";
import type { TransferMatch } from "./transfer-match.js";
import { transferMatches } from "./transfer-match.js";

export const TRANSFER_CHANGE_TYPES = ["created", "updated", "removed"] as const;
export type TransferChangeType = (typeof TRANSFER_CHANGE_TYPES)[number];

export interface TransferChange {
  /** Monotonic, never reused; the stream's event id. */
  seq: number;
  messageId: string;
  type: TransferChangeType;
  /** The whole record at this change (for 'removed', as it was when deleted). */
  record: BridgeTransaction;
  /** `record` as stored: the API's field order, compact JSON, decimals as numbers. */
  recordJson: string;
  /** UTC 'YYYY-MM-DD HH:MM:SS.mmm'. */
  changedAt: string;
}

export interface ChangesSinceOptions {
  /** Only changes whose record matches (the list endpoint's `addressOrTxHash` rule). */
  match?: TransferMatch;
  /** At most this many changes. Default 500. */
  limit?: number;
  /**
   * With `match`: at most this many changes are examined (a filter matching nothing must not
   * read the whole log in one call). Default 20 x limit.
   */
  scanLimit?: number;
}

export interface TransferChangePage {
  changes: TransferChange[];
  /**
   * Every change with seq <= this was examined (or pruned): the next call continues with
   * `changesSince(scannedThrough)`. Equals the argument when nothing newer was committed.
   */
  scannedThrough: number;
}

export interface TransferChangeRepository {
  /** Committed changes with seq > afterSeq, in seq order. */
  changesSince(afterSeq: number, options?: ChangesSinceOptions): Promise<TransferChangePage>;
  /** The newest change's seq; when the log is empty, `prunedThrough()` (0 for a new log). */
  latestSeq(): Promise<number>;
  /** The oldest retained change's seq, undefined when none is retained. */
  oldestSeq(): Promise<number | undefined>;
  /**
   * Every change with seq <= this is gone (pruned); 0 while nothing was. A reader that has
   * seen everything up to s has missed nothing iff s >= prunedThrough().
   */
  prunedThrough(): Promise<number>;
  /**
   * Deletes the changes older than `olderThan` from the oldest on, stopping at the first that is
   * not (so the retained log stays one unbroken run of seqs), a batch of at most `batchSize`
   * per transaction. Returns how many were deleted.
   */
  prune(olderThan: Date, options?: { batchSize?: number }): Promise<number>;
  /**
   * Records that a subscriber (a stream) exists, before it reads the log's head: from then on
   * the writers of history log their changes (change-log-horizon.ts). Writes once per database;
   * later calls on this repository return at once.
   */
  markSubscribed(): Promise<void>;
}

export interface TransferChangeRepositoryDeps {
  /** Committed reads. */
  sql: SqlExecutor;
  /** Runs `work` atomically (a transaction, or a savepoint inside one). */
  atomically<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T>;
  /** The backend (markSubscribed's statement). */
  kind?: "sqlite" | "postgres";
}

const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 10_000;

const CHANGES_SQL =
  "SELECT seq, message_id, change_type, record, changed_at FROM transfer_changes" +
  " WHERE seq > ? ORDER BY seq LIMIT ?";
const LATEST_SQL =
  "SELECT COALESCE((SELECT max(seq) FROM transfer_changes)," +
  " (SELECT through_seq FROM transfer_changes_pruned WHERE id = 1), 0) AS seq";
const OLDEST_SQL = "SELECT min(seq) AS seq FROM transfer_changes";
const PRUNED_SQL = "SELECT through_seq AS seq FROM transfer_changes_pruned WHERE id = 1";
const PRUNE_WINDOW_SQL = "SELECT seq, changed_at FROM transfer_changes ORDER BY seq LIMIT ?";
const PRUNE_DELETE_SQL = "DELETE FROM transfer_changes WHERE seq <= ?";
const PRUNE_MARK_SQL =
  "UPDATE transfer_changes_pruned SET through_seq = ? WHERE id = 1 AND through_seq < ?";

function changeFromRow(row: Record<string, unknown>): TransferChange {
  const recordJson = String(row.record);
  return {
    seq: Number(row.seq),
    messageId: String(row.message_id),
    type: String(row.change_type) as TransferChangeType,
    record: JSON.parse(recordJson) as BridgeTransaction,
    recordJson,
    changedAt: String(row.changed_at),
  };
}

/** 'YYYY-MM-DD HH:MM:SS.mmm' (UTC), the form of changed_at. */
export function changeTime(date: Date): string {
  return date.toISOString().replace("T", " ").replace("Z", "");
}

function positiveInteger(name: string, value: number, max: number): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new RangeError(`${name} must be an integer from 1 to ${max}, got ${value}`);
  }
  return value;
}

export function createTransferChangeRepository(
  deps: TransferChangeRepositoryDeps,
): TransferChangeRepository {
  const { sql } = deps;
  let subscribed = false;

  async function seqOf(query: string): Promise<number | undefined> {
    const [row] = await sql.all<{ seq: unknown }>(query);
    return row?.seq === null || row?.seq === undefined ? undefined : Number(row.seq);
  }

  return {
    async changesSince(afterSeq, options = {}) {
      if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) {
        throw new RangeError(`afterSeq must be a non-negative integer, got ${afterSeq}`);
      }
      const limit = positiveInteger("limit", options.limit ?? DEFAULT_LIMIT, MAX_LIMIT);
      const { match } = options;
      if (match === undefined) {
        const rows = await sql.all(CHANGES_SQL, [afterSeq, limit]);
        const changes = rows.map(changeFromRow);
        return { changes, scannedThrough: changes.at(-1)?.seq ?? afterSeq };
      }
      const scanLimit = positiveInteger(
        "scanLimit",
        options.scanLimit ?? limit * 20,
        MAX_LIMIT * 20,
      );
      const changes: TransferChange[] = [];
      let scannedThrough = afterSeq;
      let scanned = 0;
      while (scanned < scanLimit && changes.length < limit) {
        const chunk = Math.min(MAX_LIMIT, scanLimit - scanned);
        const rows = await sql.all(CHANGES_SQL, [scannedThrough, chunk]);
        for (const row of rows) {
          const change = changeFromRow(row);
          scanned++;
          scannedThrough = change.seq;
          if (transferMatches(change.record, match)) {
            changes.push(change);
            if (changes.length === limit) break;
          }
        }
        if (rows.length < chunk) break;
      }
      return { changes, scannedThrough };
    },
    latestSeq: async () => (await seqOf(LATEST_SQL)) ?? 0,
    oldestSeq: () => seqOf(OLDEST_SQL),
    prunedThrough: async () => (await seqOf(PRUNED_SQL)) ?? 0,
    async markSubscribed() {
      if (subscribed) return;
      if (deps.kind === undefined) throw new Error("markSubscribed needs the database kind");
      await sql.run(markSubscribedSql(deps.kind));
      subscribed = true;
    },
    async prune(olderThan, options = {}) {
      const batchSize = positiveInteger("batchSize", options.batchSize ?? 5000, MAX_LIMIT);
      const cutoff = changeTime(olderThan);
      let deleted = 0;
      for (;;) {
        const rows = await sql.all<{ seq: unknown; changed_at: unknown }>(PRUNE_WINDOW_SQL, [
          batchSize,
        ]);
        let through: number | undefined;
        let whole = true;
        for (const row of rows) {
          if (String(row.changed_at) >= cutoff) {
            whole = false;
            break;
          }
          through = Number(row.seq);
        }
        if (through === undefined) return deleted;
        const boundary = through;
        deleted += await deps.atomically(async (writer) => {
          const count = await writer.run(PRUNE_DELETE_SQL, [boundary]);
          await writer.run(PRUNE_MARK_SQL, [boundary, boundary]);
          return count;
        });
        if (!whole || rows.length < batchSize) return deleted;
      }
    },
  };
}
