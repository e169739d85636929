/**
 * Webhook subscriptions and their deliveries (docs/webhooks.md; migration 0009-webhooks): what
 * the `webhooks` CLI, the /api/oracle/webhooks endpoints and the delivery process read and
 * write. Same SQL on both backends except where PostgreSQL needs row locks that SQLite's single
 * writer makes unnecessary (`FOR UPDATE`, `SKIP LOCKED`).
 *
 * Invariants:
 * - A subscription is visible to its owner key only (every owner-scoped call takes the key id);
 *   the CLI, run by the operator, passes none and sees all.
 * - The secret is read only by the delivery process (claimDue) and returned only by create.
 * - A delivery is made once per (subscription, change): the fan-out (fan-out.ts) inserts it in
 *   the transaction that moves the cursor past the change.
 * - Times shown to people are UTC "YYYY-MM-DD HH:MM:SS" (docs/http-api.md, "2. Times and unknown values"); scheduling times are
 *   epoch milliseconds.
 */
import type { SqlExecutor } from "./backend.js";
import { createWebhookDeliveryQueue, type WebhookDeliveryQueue } from "./webhook-deliveries.js";
import {
  createWebhookDeliveryLock,
  type WebhookDeliveryLockRepository,
} from "./webhook-delivery-lock.js";
import { createWebhookFanOutCursor, type WebhookFanOutCursor } from "./webhook-fanout-cursor.js";
import type { Dialect } from "./webhook-rows.js";
import {
  createWebhookSubscriptions,
  type WebhookSubscriptionRepository,
} from "./webhook-subscriptions.js";

export type {
  ClaimedDelivery,
  DeliveryLockHolder,
  DeliveryStatus,
  Dialect,
  NewDelivery,
  NewWebhookSubscription,
  WebhookAttempt,
  WebhookDelivery,
  WebhookFilterValues,
  WebhookStatus,
  WebhookSubscription,
} from "./webhook-rows.js";
export { formatWebhookTime } from "./webhook-rows.js";

/** The four webhook tables' repositories over one executor. */
export interface WebhookRepository
  extends WebhookSubscriptionRepository,
    WebhookDeliveryQueue,
    WebhookFanOutCursor,
    WebhookDeliveryLockRepository {
  /**
   * The executor these statements run on: inside a transaction, the transaction's connection,
   * on which the fan-out reads the change log (fan-out.ts) in the same transaction.
   */
  readonly sql: SqlExecutor;
}

export function createWebhookRepository(sql: SqlExecutor, dialect: Dialect): WebhookRepository {
  return {
    sql,
    ...createWebhookSubscriptions(sql, dialect),
    ...createWebhookDeliveryQueue(sql, dialect),
    ...createWebhookFanOutCursor(sql, dialect),
    ...createWebhookDeliveryLock(sql, dialect),
  };
}
