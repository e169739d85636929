/**
 * The repository interface both store implementations (SQLite, PostgreSQL) satisfy, and the list
 * query it answers. The record itself is the domain's (src/domain/bridge-transaction.ts).
 */
import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import type { Settlement } from "../domain/settlement.js";
import type { ActivityRow, StoredBridgeEvent } from "./transfer-activity.js";
import type { TransferChangeRepository } from "./transfer-change-repository.js";
import type { TransferMatch } from "./transfer-match.js";

export type { Settlement } from "../domain/settlement.js";
export type { ActivityRow, StoredBridgeEvent } from "./transfer-activity.js";
export type { TransferMatch } from "./transfer-match.js";

/** Sort keys of the list endpoint (docs/http-api.md, API rule 3), in snake_case. */
export const SORT_FIELDS = [
  "created_at",
  "updated_at",
  "start_time",
  "end_time",
  "send_amount",
  "receive_amount",
] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export type SortOrder = "asc" | "desc";

export interface ListTransfersQuery {
  match: TransferMatch;
  /** Rows to skip: (pageNo - 1) * pageSize. */
  offset: number;
  /** 1..100 */
  limit: number;
  sortField: SortField;
  sortOrder: SortOrder;
}

export interface ListTransfersResult {
  /** All matches, not only this page. */
  total: number;
  items: BridgeTransaction[];
}

export interface UpsertResult {
  inserted: number;
  updated: number;
  unchanged: number;
}

export interface TransferRepository {
  /**
   * Inserts or replaces records keyed by message_id, in one transaction. A record equal to the
   * stored one changes nothing (not even updated_at).
   */
  upsertTransfers(records: readonly BridgeTransaction[]): Promise<UpsertResult>;
  listTransfers(query: ListTransfersQuery): Promise<ListTransfersResult>;
  getTransfer(messageId: string): Promise<BridgeTransaction | undefined>;
  /** The explorer's reads across all transfers (transfer-activity.ts). */
  latestTransfers(limit: number): Promise<BridgeTransaction[]>;
  transfersStartedSince(since: string): Promise<ActivityRow[]>;
  transferEvents(messageId: string): Promise<StoredBridgeEvent[]>;
  /**
   * The `Success` transfers among the latest `limit` records stored (by insertion), newest
   * first. Optional so that test doubles need not have it; both stores do.
   */
  recentSettlements?(limit: number): Promise<Settlement[]>;
}

/**
 * What the indexer needs beyond TransferRepository (kept apart so that test doubles of
 * TransferRepository stay valid). createTransferRepository returns this.
 */
export interface TransferMaintenanceRepository extends TransferRepository {
  /**
   * Removes records (a reorg dropped their send) and their address-list entries, in one
   * transaction (a savepoint inside one); unknown ids are ignored. Returns how many were removed.
   */
  deleteTransfers(messageIds: readonly string[]): Promise<number>;
}

export interface Store {
  readonly kind: "sqlite" | "postgres";
  readonly transfers: TransferRepository;
  /** The change log of transfer records (migration 0007): the stream's and webhooks' source. */
  readonly transferChanges: TransferChangeRepository;
  /**
   * Runs `work` in one database transaction with a store bound to it; commits when it resolves,
   * rolls back when it rejects. Nothing from a rolled back run is visible afterwards.
   */
  transaction<T>(work: (store: Store) => Promise<T>): Promise<T>;
  /**
   * Resolves when the database (and a read replica, where there is one) answers a trivial
   * query; rejects otherwise. With `timeoutMs`, a part that has not answered within that long
   * rejects it, naming which part (PostgreSQL: a NoAnswerError, or a ReadReplicaError for the
   * replica).
   */
  ping(options?: { timeoutMs?: number }): Promise<void>;
  /**
   * A number that changes whenever transfers this store's reads can see may have changed, for
   * caches of read results (the list endpoint's response cache). Commits through this store move
   * it at once (SQLite: those that changed transfers; PostgreSQL: every transaction); commits by other connections and processes within `changeVisibilityMs` (SQLite) or one
   * NOTIFY round trip (PostgreSQL; at most the listener's heartbeat interval plus its timeout,
   * 5 s, when the listening connection dies silently). Returns undefined while the store cannot
   * tell (PostgreSQL before its LISTEN connection is up or after it was lost), and is absent
   * where it never can (PostgreSQL with a read replica, a transaction-scoped store): then
   * nothing may be cached.
   */
  readonly changeCounter?: () => number | undefined;
  /**
   * SQLite: at most this many milliseconds pass between another connection's or process's
   * commit and `changeCounter` moving. Undefined where no fixed bound holds (PostgreSQL).
   */
  readonly changeVisibilityMs?: number;
  /**
   * Calls `listener` (never synchronously) after a commit that may have changed transfers, by
   * this store or by any other connection or process, and not after other commits (webhook
   * bookkeeping, the indexer's cursor): SQLite when the change log's sequence moved (at once for
   * this store's commits, within `changeVisibilityMs` for others': its data_version poll),
   * PostgreSQL on the NOTIFY of migration 0004 (this process's own commits included), and after
   * each (re)connection of the listening connection (a notification may have been missed while
   * it was down). The delivery loop subscribes: a call after its own commits would keep it
   * from ever resting. Returns the unsubscribe function. The stream's change feed
   * (src/api/stream/change-feed.ts) reads the change log on each call. Absent on a
   * transaction-scoped store.
   */
  readonly subscribeChanges?: (listener: () => void) => () => void;
  close(): Promise<void>;
}

/** The logging a store does (start-up, migrations, pool errors); pino/fastify loggers fit. */
export interface StoreLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}
