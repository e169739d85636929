/**
 * The one place the database object's repositories are registered. `createRepositories` builds
 * them twice over: once for the root of a Database (executors on its connections or pools) and
 * once for each transaction (every executor is the transaction's connection), so a repository
 * added here is at once available both ways (docs/store.md, "The database object").
 *
 * To add a repository: write `createXRepository(sql: SqlExecutor)` (or one over a
 * TransferBackend) beside the others in src/store/, add its field to `Repositories` and one line
 * to `createRepositories`, choosing the executor that fits what it does (below). Its tables come
 * from a migration (src/store/migrations/index.ts).
 */
import { type ApiKeyRepository, createApiKeyRepository } from "./api-key-repository.js";
import type { SqlExecutor, TransferBackend } from "./backend.js";
import {
  createIndexedDataRepository,
  type IndexedDataRepository,
} from "./indexed-data-repository.js";
import { createIndexerRepository, type IndexerRepository } from "./indexer-repository.js";
import { createIndexerStatusRepository, type IndexerStatusRepository } from "./indexer-status.js";
import {
  createTransferChangeRepository,
  type TransferChangeRepository,
} from "./transfer-change-repository.js";
import { createTransferRepository } from "./transfer-repository.js";
import type { TransferMaintenanceRepository } from "./types.js";
import {
  createWebhookHealthRepository,
  type WebhookHealthRepository,
} from "./webhook-health-repository.js";
import { createWebhookRepository, type WebhookRepository } from "./webhook-repository.js";

export type DatabaseKind = "sqlite" | "postgres";

/**
 * What a repository may run its statements on. At the root of a Database each is a different
 * route to the database; inside a transaction all of them are the transaction's connection.
 */
export interface RepositoryExecutors {
  readonly kind: DatabaseKind;
  /**
   * Reads that a read replica may serve (transfer lists and lookups): at the root the replica
   * (DATABASE_READ_URL) when there is one, else the primary; SQLite: the reader connection.
   */
  readonly replicaReads: TransferBackend;
  /**
   * Small statements serving requests (API keys, the indexer status of /metrics and /readyz):
   * at the root the primary with the request bounds (PostgreSQL: `timeouts`). SQLite: reads on
   * the reader connection, writes on the writer queued behind its transactions.
   */
  readonly requests: SqlExecutor;
  /**
   * The indexer's statements outside its batches (progress, status): at the root the primary
   * with the background bounds (PostgreSQL: `backgroundTimeouts`, no query bound). SQLite: as
   * `requests`.
   */
  readonly background: SqlExecutor;
  /** Runs `work` atomically: at the root its own transaction; in a transaction a savepoint. */
  atomically<T>(work: (backend: TransferBackend) => Promise<T>): Promise<T>;
}

/** The repositories of a Database, and of each of its transactions. */
export interface Repositories {
  /**
   * Bridge transfers as the API returns them (list, get, upsert, delete), and the reads across
   * all of them: the explorer's latest / summary / timeline (transfer-activity.ts) and the
   * router's duration estimator's recent settlements (settlement-reads.ts).
   */
  readonly transfers: TransferMaintenanceRepository;
  /** The change log of transfer records (migration 0007): the stream's source, its pruning. */
  readonly transferChanges: TransferChangeRepository;
  /** The indexer's state: chain cursors, block hashes, raw events, token metadata. */
  readonly indexer: IndexerRepository;
  /** API keys (the keys CLI, each server's key cache). */
  readonly apiKeys: ApiKeyRepository;
  /** The indexer's progress per chain as the API reports it (/metrics, /readyz). */
  readonly indexerStatus: IndexerStatusRepository;
  /** Every row derived from the indexed chains, as one unit (`start`'s devnet reset). */
  readonly indexedData: IndexedDataRepository;
  /**
   * Webhook subscriptions, deliveries and the fan-out cursor (migration 0009; docs/webhooks.md):
   * the `webhooks` CLI, /api/oracle/webhooks and the delivery loop. Row locks (claims, the
   * cursor) are taken inside `transaction()`.
   */
  readonly webhooks: WebhookRepository;
  /** Delivery heartbeats and running totals (migration 0010), for /metrics. */
  readonly webhookHealth: WebhookHealthRepository;
}

export function createRepositories(executors: RepositoryExecutors): Repositories {
  return {
    transfers: createTransferRepository({
      reader: executors.replicaReads,
      atomically: executors.atomically,
    }),
    // Reads committed changes from the primary (SQLite: the reader), not a replica, whose lag
    // would only delay the stream; prunes in its own transaction (a savepoint inside one).
    transferChanges: createTransferChangeRepository({
      kind: executors.kind,
      sql: executors.requests,
      atomically: (work) => executors.atomically((backend) => work(backend.sql)),
    }),
    indexer: createIndexerRepository(executors.background, executors.kind),
    apiKeys: createApiKeyRepository(executors.requests),
    indexerStatus: createIndexerStatusRepository(executors.requests, executors.kind),
    indexedData: createIndexedDataRepository(executors.background),
    webhooks: createWebhookRepository(writesReturningAtomically(executors), executors.kind),
    webhookHealth: createWebhookHealthRepository(executors.requests),
  };
}

/**
 * `executors.requests`, except that a statement other than a SELECT run through `all` (INSERT /
 * UPDATE ... RETURNING, as the webhook repository writes) runs through `atomically`: at the root
 * of a SQLite database `all` reads on the reader connection, which refuses writes; inside a
 * transaction it is a savepoint on the transaction's connection.
 */
function writesReturningAtomically(executors: RepositoryExecutors): SqlExecutor {
  return {
    all: (text, params) =>
      /^\s*SELECT\b/i.test(text)
        ? executors.requests.all(text, params)
        : executors.atomically((backend) => backend.sql.all(text, params)),
    run: (text, params) => executors.requests.run(text, params),
  };
}
