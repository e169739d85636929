/**
 * The indexer's tables (migration 0003-indexer): chain cursors and status, recent block hashes,
 * raw bridge events and token metadata. One implementation for both backends: the SQL is shared
 * text with `?` placeholders run through the backend's SqlExecutor (PostgreSQL numbers them),
 * and every method runs inside whatever transaction the executor is bound to.
 */
import type { Hex } from "viem";
import type { BridgeEvent, BridgeEventRole, EventArgs } from "../domain/bridge-event.js";
import type { BridgeKind } from "../domain/bridge-kind.js";
import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import type { SqlExecutor, StoredTransfer } from "./backend.js";
import {
  type IndexerLeader,
  LEADER_SQL,
  LEADER_SQL_PARAMS,
  LeaderLostError,
  type LeaderSession,
  STILL_LEADING_SQL,
  stillLeadingParams,
} from "./indexer-leader-lock.js";
import { hashKey } from "./transfer-keys.js";
import { transferFromRow } from "./transfer-row.js";

export type IndexerChainState = "starting" | "backfill" | "following" | "stopped";

export interface IndexerChainRow {
  chainId: number;
  name: string;
  startBlock: number;
  /** Last block whose events are fully stored; startBlock - 1 before the first batch. */
  cursorBlock: number;
  /** Hash of cursorBlock, "" before the first batch. */
  cursorHash: string;
  headBlock: number;
  /** head - confirmations when last polled: where the cursor is heading. */
  targetBlock: number;
  state: IndexerChainState;
  /** Why the chain stopped (reorg deeper than finality, ...), "" otherwise. */
  error: string;
  updatedAt: string;
}

export interface IndexerChainStatus extends IndexerChainRow {
  /** Blocks between the cursor and the confirmed head, targetBlock (0 when caught up). */
  lag: number;
  /**
   * `host:pid` of the process leading this database's indexer (PostgreSQL: the holder of the
   * leader lock, src/store/indexer-leader-lock.ts); "" when none does, and on SQLite.
   */
  leader: string;
}

export interface StoredBlock {
  number: number;
  hash: string;
  parentHash: string;
}

export interface TokenMetadataRow {
  chainId: number;
  /** Lowercase. */
  address: string;
  symbol: string;
  decimals: number;
}

export interface IndexerRepository {
  /**
   * Serialises indexer writes across processes (PostgreSQL advisory lock; SQLite: no-op). With
   * `leader`, then checks that it still leads (assertLeading).
   */
  lockForIndexing(leader?: LeaderSession): Promise<void>;
  /**
   * PostgreSQL: rejects with LeaderLostError unless `leader` still holds the leader lock
   * (fencing: src/store/indexer-leader-lock.ts). SQLite: no-op.
   */
  assertLeading(leader: LeaderSession): Promise<void>;
  /** The process holding the leader lock (PostgreSQL; SQLite: undefined, one indexer only). */
  getLeader(): Promise<IndexerLeader | undefined>;
  getChain(chainId: number): Promise<IndexerChainRow | undefined>;
  /** Inserts the row when absent; returns the stored one. */
  ensureChain(row: IndexerChainRow): Promise<IndexerChainRow>;
  /**
   * Moves the cursor, but only from `expectedCursor` (so two writers, or a replay after a
   * crash, cannot move it twice). Returns false when the stored cursor was elsewhere.
   */
  moveCursor(
    chainId: number,
    expectedCursor: number,
    next: Pick<
      IndexerChainRow,
      "cursorBlock" | "cursorHash" | "headBlock" | "targetBlock" | "state" | "updatedAt"
    >,
  ): Promise<boolean>;
  /** Head, target, state and error without moving the cursor. */
  updateProgress(
    chainId: number,
    progress: Pick<IndexerChainRow, "headBlock" | "targetBlock" | "state" | "error" | "updatedAt">,
  ): Promise<void>;
  /**
   * Moves only `updated_at` (a step still running: the process is alive), unless the chain has
   * stopped. One statement, so it never overwrites what a concurrent batch commit writes.
   */
  touchChain(chainId: number, updatedAt: string): Promise<void>;
  /** Every chain's cursor, head and lag (for /readyz and metrics of any process). */
  getIndexerStatus(): Promise<IndexerChainStatus[]>;

  saveBlocks(chainId: number, blocks: readonly StoredBlock[]): Promise<void>;
  /** Stored blocks at or below `fromBlock`, highest first. */
  blocksDescending(chainId: number, fromBlock: number, limit: number): Promise<StoredBlock[]>;
  deleteBlocksAbove(chainId: number, blockNumber: number): Promise<void>;
  deleteBlocksBelow(chainId: number, blockNumber: number): Promise<void>;

  /** Inserts events; an event already stored (same chain, tx, log index) is left as is. */
  insertEvents(events: readonly BridgeEvent[]): Promise<void>;
  /** Deletes the chain's events above a block; returns the message ids they belonged to. */
  deleteEventsAbove(chainId: number, blockNumber: number): Promise<string[]>;
  /**
   * Stored events of the message ids; `except` leaves out one chain's block range (a batch
   * that already holds those events in memory need not read and parse them back).
   */
  eventsOfMessages(
    messageIds: readonly string[],
    except?: { chainId: number; fromBlock: number; toBlock: number },
  ): Promise<BridgeEvent[]>;
  /**
   * The stored sends of the Processing transfers of `protocols` bound for the chain named
   * `destChainName` (src/indexer/expire-sends.ts looks for passed deadlines among them).
   */
  processingSends(destChainName: string, protocols: readonly string[]): Promise<BridgeEvent[]>;

  /**
   * Adds message ids whose records a backfill batch leaves for later (migration 0014);
   * returns how many ids are pending now.
   */
  deferDerivation(messageIds: readonly string[], chainId: number, reach: number): Promise<number>;
  /**
   * Takes every pending id off the set: the ids (lowercase, distinct) and, per chain, the
   * highest reach among them (the change log's horizon test).
   */
  takePendingDerivation(): Promise<{
    messageIds: string[];
    reaches: { chainId: number; reach: number }[];
  }>;

  loadTokenMetadata(): Promise<TokenMetadataRow[]>;
  saveTokenMetadata(rows: readonly TokenMetadataRow[]): Promise<void>;

  getTransfers(messageIds: readonly string[]): Promise<Map<string, BridgeTransaction>>;
  /** The same rows with their internal ids (key: hashKey(message_id)), for the write path. */
  getStoredTransfers(messageIds: readonly string[]): Promise<Map<string, StoredTransfer>>;
}

/** Chunk size for IN (...) lists: well under both backends' parameter limits. */
const CHUNK = 400;

/** Rows per multi-row INSERT: 13 columns x 100 rows stays far below parameter limits. */
const ROWS_PER_INSERT = 100;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** "(?, ?), (?, ?)" for `count` rows of `columns` values. */
function rows(count: number, columns: number): string {
  const one = `(${placeholders(columns)})`;
  return Array.from({ length: count }, () => one).join(", ");
}

function placeholders(n: number): string {
  return Array.from({ length: n }, () => "?").join(", ");
}

/**
 * `column IN (list)` with one parameter whatever the list's length: a JSON array on SQLite,
 * an array on PostgreSQL. One statement text per query, so SQLite prepares it once (varying
 * `(?, ?, ...)` lists were prepared anew for nearly every batch).
 */
function inList(dialect: "sqlite" | "postgres", column: string): string {
  return dialect === "sqlite"
    ? `${column} IN (SELECT value FROM json_each(?))`
    : `${column} = ANY(?)`;
}

function listParam(dialect: "sqlite" | "postgres", values: readonly string[]): unknown {
  return dialect === "sqlite" ? JSON.stringify(values) : values;
}

/** Rows per list query: bounds statement and result sizes, no parameter limit involved. */
const LIST_CHUNK = 2000;

const EVENT_COLUMNS = [
  "chain_id",
  "tx_hash",
  "log_index",
  "block_number",
  "block_hash",
  "block_time",
  "address",
  "kind",
  "event_name",
  "message_id",
  "args",
  "protocol",
  "role",
];

/** One raw_events row's values in EVENT_COLUMNS order. */
function rawEventValues(e: BridgeEvent): unknown[] {
  return [
    e.chainId,
    e.txHash,
    e.logIndex,
    e.blockNumber,
    e.blockHash,
    e.blockTime,
    e.address,
    e.kind,
    e.name,
    e.messageId,
    JSON.stringify(e.args),
    e.protocol,
    e.role,
  ];
}

/**
 * SQLite: one prepared single-row INSERT, run per event. In-process that is the cheapest form:
 * one JSON array per 2,000 events (INSERT ... SELECT json_extract(value, '$[i]'), ... FROM
 * json_each(?)), used before, cost about 1.5 times as much per event (raw-events floor, dev
 * runs on 30,000 transfers: 21-27 us against 14 us per event).
 */
const INSERT_EVENT_SQL =
  `INSERT INTO raw_events (${EVENT_COLUMNS.join(", ")}) VALUES (${placeholders(EVENT_COLUMNS.length)})` +
  " ON CONFLICT (chain_id, tx_hash, log_index) DO NOTHING";

/**
 * Key of pg_advisory_xact_lock: "bridge-oracle indexer" and the schema, so indexers of other
 * schemas in the same database (tests, benchmarks) do not wait on each other.
 */
export const INDEXER_LOCK_KEY = 727_100_001;

export function createIndexerRepository(
  sql: SqlExecutor,
  dialect: "sqlite" | "postgres",
): IndexerRepository {
  const chainFromRow = (r: Record<string, unknown>): IndexerChainRow => ({
    chainId: Number(r.chain_id),
    name: String(r.name),
    startBlock: Number(r.start_block),
    cursorBlock: Number(r.cursor_block),
    cursorHash: String(r.cursor_hash),
    headBlock: Number(r.head_block),
    targetBlock: Number(r.target_block),
    state: String(r.state) as IndexerChainState,
    error: String(r.error),
    updatedAt: String(r.updated_at),
  });

  return {
    async lockForIndexing(leader) {
      if (dialect === "sqlite") return;
      await sql.all("SELECT pg_advisory_xact_lock(?, hashtext(current_schema()))", [
        INDEXER_LOCK_KEY,
      ]);
      // After the write lock, never before: see the fencing note in indexer-leader-lock.ts.
      if (leader !== undefined) await this.assertLeading(leader);
    },

    async assertLeading(leader) {
      if (dialect === "sqlite") return;
      const rows = await sql.all<{ leading: boolean }>(
        STILL_LEADING_SQL,
        stillLeadingParams(leader),
      );
      if (rows[0]?.leading !== true) throw new LeaderLostError();
    },

    async getLeader() {
      if (dialect === "sqlite") return undefined;
      const rows = await sql.all<IndexerLeader>(LEADER_SQL, LEADER_SQL_PARAMS);
      return rows[0] === undefined ? undefined : { process: rows[0].process, since: rows[0].since };
    },

    async getChain(chainId) {
      const rows = await sql.all("SELECT * FROM indexer_chains WHERE chain_id = ?", [chainId]);
      return rows[0] === undefined ? undefined : chainFromRow(rows[0]);
    },

    async ensureChain(row) {
      await sql.run(
        "INSERT INTO indexer_chains (chain_id, name, start_block, cursor_block, cursor_hash," +
          " head_block, target_block, state, error, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)" +
          " ON CONFLICT (chain_id) DO NOTHING",
        [
          row.chainId,
          row.name,
          row.startBlock,
          row.cursorBlock,
          row.cursorHash,
          row.headBlock,
          row.targetBlock,
          row.state,
          row.error,
          row.updatedAt,
        ],
      );
      const stored = await this.getChain(row.chainId);
      if (stored === undefined) throw new Error(`indexer_chains row ${row.chainId} vanished`);
      return stored;
    },

    async moveCursor(chainId, expectedCursor, next) {
      const changed = await sql.run(
        "UPDATE indexer_chains SET cursor_block = ?, cursor_hash = ?, head_block = ?," +
          " target_block = ?, state = ?, error = '', updated_at = ? WHERE chain_id = ? AND cursor_block = ?",
        [
          next.cursorBlock,
          next.cursorHash,
          next.headBlock,
          next.targetBlock,
          next.state,
          next.updatedAt,
          chainId,
          expectedCursor,
        ],
      );
      return changed === 1;
    },

    async updateProgress(chainId, p) {
      await sql.run(
        "UPDATE indexer_chains SET head_block = ?, target_block = ?, state = ?, error = ?," +
          " updated_at = ? WHERE chain_id = ?",
        [p.headBlock, p.targetBlock, p.state, p.error, p.updatedAt, chainId],
      );
    },

    async touchChain(chainId, updatedAt) {
      await sql.run(
        "UPDATE indexer_chains SET updated_at = ? WHERE chain_id = ? AND state <> 'stopped'",
        [updatedAt, chainId],
      );
    },

    async getIndexerStatus() {
      const rows = await sql.all("SELECT * FROM indexer_chains ORDER BY chain_id");
      const leader = rows.length === 0 ? undefined : await this.getLeader();
      return rows.map((r) => {
        const row = chainFromRow(r);
        // Behind the confirmed head (target = head - confirmations), so caught up is 0.
        const lag = Math.max(0, row.targetBlock - row.cursorBlock);
        return { ...row, lag, leader: leader?.process ?? "" };
      });
    },

    async saveBlocks(chainId, blocks) {
      for (const part of chunks(blocks, ROWS_PER_INSERT)) {
        await sql.run(
          "INSERT INTO indexer_blocks (chain_id, block_number, block_hash, parent_hash) VALUES " +
            rows(part.length, 4) +
            " ON CONFLICT (chain_id, block_number) DO UPDATE SET block_hash = excluded.block_hash," +
            " parent_hash = excluded.parent_hash",
          part.flatMap((b) => [chainId, b.number, b.hash, b.parentHash]),
        );
      }
    },

    async blocksDescending(chainId, fromBlock, limit) {
      const rows = await sql.all(
        "SELECT block_number, block_hash, parent_hash FROM indexer_blocks WHERE chain_id = ?" +
          " AND block_number <= ? ORDER BY block_number DESC LIMIT ?",
        [chainId, fromBlock, limit],
      );
      return rows.map((r) => ({
        number: Number(r.block_number),
        hash: String(r.block_hash),
        parentHash: String(r.parent_hash),
      }));
    },

    async deleteBlocksAbove(chainId, blockNumber) {
      await sql.run("DELETE FROM indexer_blocks WHERE chain_id = ? AND block_number > ?", [
        chainId,
        blockNumber,
      ]);
    },

    async deleteBlocksBelow(chainId, blockNumber) {
      await sql.run("DELETE FROM indexer_blocks WHERE chain_id = ? AND block_number < ?", [
        chainId,
        blockNumber,
      ]);
    },

    async insertEvents(batch) {
      // In message id order: the inserts into the message_id index then walk it from one end to
      // the other instead of jumping between random leaf pages.
      const events = [...batch].sort((a, b) =>
        a.messageId < b.messageId ? -1 : a.messageId > b.messageId ? 1 : 0,
      );
      if (dialect === "sqlite") {
        for (const event of events) await sql.run(INSERT_EVENT_SQL, rawEventValues(event));
        return;
      }
      for (const part of chunks(events, ROWS_PER_INSERT)) {
        await sql.run(
          `INSERT INTO raw_events (${EVENT_COLUMNS.join(", ")}) VALUES ` +
            rows(part.length, EVENT_COLUMNS.length) +
            " ON CONFLICT (chain_id, tx_hash, log_index) DO NOTHING",
          part.flatMap(rawEventValues),
        );
      }
    },

    async deleteEventsAbove(chainId, blockNumber) {
      const rows = await sql.all<{ message_id: string }>(
        "SELECT DISTINCT message_id FROM raw_events WHERE chain_id = ? AND block_number > ?",
        [chainId, blockNumber],
      );
      await sql.run("DELETE FROM raw_events WHERE chain_id = ? AND block_number > ?", [
        chainId,
        blockNumber,
      ]);
      return rows.map((r) => String(r.message_id));
    },

    async eventsOfMessages(messageIds, except) {
      const out: BridgeEvent[] = [];
      const exclusion =
        except === undefined
          ? ""
          : " AND NOT (chain_id = ? AND block_number >= ? AND block_number <= ?)";
      const exclusionParams =
        except === undefined ? [] : [except.chainId, except.fromBlock, except.toBlock];
      for (const part of chunks(messageIds, LIST_CHUNK)) {
        const rows = await sql.all(
          `SELECT * FROM raw_events WHERE ${inList(dialect, "message_id")}${exclusion}`,
          [listParam(dialect, part), ...exclusionParams],
        );
        for (const r of rows) out.push(eventOfRow(r));
      }
      return out;
    },

    async deferDerivation(messageIds, chainId, reach) {
      const keys = [...new Set(messageIds.map((id) => id.toLowerCase()))];
      const from =
        dialect === "sqlite" ? "(SELECT value AS k FROM json_each(?))" : "unnest(?::text[]) AS k";
      await sql.run(
        `INSERT INTO indexer_pending (message_key, chain_id, reach) SELECT k, ?, ? FROM ${from}` +
          " WHERE true ON CONFLICT (message_key, chain_id) DO UPDATE SET reach = excluded.reach" +
          " WHERE excluded.reach > indexer_pending.reach",
        [chainId, reach, listParam(dialect, keys)],
      );
      const [row] = await sql.all<{ n: unknown }>("SELECT count(*) AS n FROM indexer_pending");
      return Number(row?.n ?? 0);
    },

    async takePendingDerivation() {
      const ids = await sql.all<{ message_key: unknown }>(
        "SELECT DISTINCT message_key FROM indexer_pending ORDER BY message_key",
      );
      const reaches = await sql.all<{ chain_id: unknown; reach: unknown }>(
        "SELECT chain_id, max(reach) AS reach FROM indexer_pending GROUP BY chain_id",
      );
      await sql.run("DELETE FROM indexer_pending");
      return {
        messageIds: ids.map((r) => String(r.message_key)),
        reaches: reaches.map((r) => ({ chainId: Number(r.chain_id), reach: Number(r.reach) })),
      };
    },

    async processingSends(destChainName, protocols) {
      if (protocols.length === 0) return [];
      const rows = await sql.all(
        "SELECT s.* FROM transfer_records t JOIN raw_events s ON s.message_id = t.message_id" +
          ` AND s.role = 'sent' WHERE t.status = 'Processing' AND t.dest_chain_name = ?` +
          ` AND ${inList(dialect, "t.protocol")}`,
        [destChainName, listParam(dialect, protocols)],
      );
      return rows.map(eventOfRow);
    },

    async loadTokenMetadata() {
      const rows = await sql.all("SELECT * FROM token_metadata");
      return rows.map((r) => ({
        chainId: Number(r.chain_id),
        address: String(r.address),
        symbol: String(r.symbol),
        decimals: Number(r.decimals),
      }));
    },

    async saveTokenMetadata(rows) {
      for (const t of rows) {
        await sql.run(
          "INSERT INTO token_metadata (chain_id, address, symbol, decimals) VALUES (?, ?, ?, ?)" +
            " ON CONFLICT (chain_id, address) DO NOTHING",
          [t.chainId, t.address.toLowerCase(), t.symbol, t.decimals],
        );
      }
    },

    async getTransfers(messageIds) {
      const stored = await this.getStoredTransfers(messageIds);
      return new Map([...stored].map(([key, s]) => [key, s.record]));
    },

    async getStoredTransfers(messageIds) {
      const out = new Map<string, StoredTransfer>();
      for (const part of chunks(messageIds.map(hashKey), LIST_CHUNK)) {
        const rows = await sql.all(
          `SELECT * FROM transfer_records WHERE ${inList(dialect, "message_key")}`,
          [listParam(dialect, part)],
        );
        for (const r of rows) {
          const record = transferFromRow(r);
          out.set(hashKey(record.message_id), { id: Number(r.id), record });
        }
      }
      return out;
    },
  };
}

/** A raw_events row as the event it stores. */
function eventOfRow(r: Record<string, unknown>): BridgeEvent {
  return {
    chainId: Number(r.chain_id),
    blockNumber: Number(r.block_number),
    blockHash: String(r.block_hash) as Hex,
    blockTime: Number(r.block_time),
    txHash: String(r.tx_hash) as Hex,
    logIndex: Number(r.log_index),
    address: String(r.address) as Hex,
    protocol: String(r.protocol),
    kind: Number(r.kind) as BridgeKind,
    name: String(r.event_name),
    role: String(r.role) as BridgeEventRole,
    messageId: String(r.message_id) as Hex,
    args: JSON.parse(String(r.args)) as EventArgs,
  };
}
