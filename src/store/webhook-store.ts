/**
 * The webhook tables as the webhook modules use them, over the one Database a command opened
 * (docs/store.md, "The database object"): the `webhooks` repository registered in
 * repositories.ts, and transactions of that database. No connection of its own: the `webhooks`
 * CLI, the /api/oracle/webhooks routes and the delivery loop share their process's database.
 */
import type { SqlExecutor } from "./backend.js";
import type { Database } from "./database.js";
import type { Dialect, WebhookRepository } from "./webhook-repository.js";

export interface WebhookStore {
  readonly kind: Dialect;
  /** Statements outside a transaction (each its own). */
  readonly webhooks: WebhookRepository;
  /** The root executor of the webhooks repository. */
  readonly sql: SqlExecutor;
  /**
   * Runs `work` in one transaction of the database; commits when it resolves, rolls back when
   * it rejects. `sql` is the transaction's connection (the fan-out's change log read).
   */
  transaction<T>(work: (webhooks: WebhookRepository, sql: SqlExecutor) => Promise<T>): Promise<T>;
}

/** The webhook view of `database`; closing the database is its opener's business. */
export function webhookStoreOf(database: Database): WebhookStore {
  return {
    kind: database.kind,
    webhooks: database.webhooks,
    sql: database.webhooks.sql,
    transaction: (work) => database.transaction((tx) => work(tx.webhooks, tx.webhooks.sql)),
  };
}
