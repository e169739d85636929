/** Table webhook_subscriptions: a key's subscriptions, their filters and their failure bookkeeping. */
import type { SqlExecutor } from "./backend.js";
import { markSubscribedSql } from "./change-log-horizon.js";
import {
  type Dialect,
  type NewWebhookSubscription,
  num,
  numOrNull,
  ownerClause,
  type Row,
  SUBSCRIPTION_COLUMNS,
  toSubscription,
  type WebhookSubscription,
} from "./webhook-rows.js";

export interface WebhookSubscriptionRepository {
  /**
   * Stores a subscription starting after the fan-out cursor: it receives every change not yet
   * fanned out. Run inside a transaction (it locks the cursor row so no fan-out runs meanwhile
   * and misses the new subscription).
   */
  createSubscription(subscription: NewWebhookSubscription): Promise<WebhookSubscription>;
  listSubscriptions(ownerKeyId?: number): Promise<WebhookSubscription[]>;
  getSubscription(id: number, ownerKeyId?: number): Promise<WebhookSubscription | undefined>;
  /** Deletes it with its deliveries; false when there is none (for this owner). */
  deleteSubscription(id: number, ownerKeyId?: number): Promise<boolean>;
  activeSubscriptions(): Promise<WebhookSubscription[]>;
  /** Failure bookkeeping of the subscription; returns its failing_since (epoch ms). */
  noteSubscriptionFailure(id: number, now: number): Promise<number | undefined>;
  noteSubscriptionSuccess(id: number): Promise<void>;
  /** Disables it and fails its pending deliveries with the reason. */
  disableSubscription(id: number, reason: string, now: number): Promise<void>;
}

export function createWebhookSubscriptions(
  sql: SqlExecutor,
  dialect: Dialect,
): WebhookSubscriptionRepository {
  const forUpdate = dialect === "postgres" ? " FOR UPDATE" : "";
  return {
    async createSubscription(s) {
      // The first subscription ends the change log's exemption of history (0013).
      await sql.run(markSubscribedSql(dialect));
      const [cursor] = await sql.all<{ seq: unknown }>(
        `SELECT seq FROM webhook_fanout_cursor WHERE id = 1${forUpdate}`,
      );
      const rows = await sql.all<Row>(
        "INSERT INTO webhook_subscriptions (owner_key_id, url, filter, secret, start_seq, created_at)" +
          ` VALUES (?, ?, ?, ?, ?, ?) RETURNING ${SUBSCRIPTION_COLUMNS}`,
        [
          s.ownerKeyId,
          s.url,
          JSON.stringify({ addresses: s.filter.addresses, txHashes: s.filter.txHashes }),
          s.secret,
          num(cursor?.seq ?? 0),
          s.createdAt,
        ],
      );
      return toSubscription(rows[0] as Row);
    },

    async listSubscriptions(ownerKeyId) {
      const owner = ownerClause(ownerKeyId);
      const rows = await sql.all<Row>(
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE true${owner.sql} ORDER BY id`,
        owner.params,
      );
      return rows.map(toSubscription);
    },

    async getSubscription(id, ownerKeyId) {
      const owner = ownerClause(ownerKeyId);
      const rows = await sql.all<Row>(
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ?${owner.sql}`,
        [id, ...owner.params],
      );
      return rows[0] === undefined ? undefined : toSubscription(rows[0]);
    },

    async deleteSubscription(id, ownerKeyId) {
      const owner = ownerClause(ownerKeyId);
      // Attempts and deliveries first: SQLite enforces ON DELETE CASCADE only with foreign keys
      // on, which a connection opened by hand may not have.
      await sql.run(
        "DELETE FROM webhook_attempts WHERE delivery_id IN" +
          ` (SELECT d.id FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE s.id = ?${ownerClause(ownerKeyId, "s.owner_key_id").sql})`,
        [id, ...owner.params],
      );
      await sql.run(
        "DELETE FROM webhook_deliveries WHERE subscription_id IN" +
          ` (SELECT id FROM webhook_subscriptions WHERE id = ?${owner.sql})`,
        [id, ...owner.params],
      );
      return (
        (await sql.run(`DELETE FROM webhook_subscriptions WHERE id = ?${owner.sql}`, [
          id,
          ...owner.params,
        ])) > 0
      );
    },

    async activeSubscriptions() {
      const rows = await sql.all<Row>(
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE status = 'active' ORDER BY id`,
      );
      return rows.map(toSubscription);
    },

    async noteSubscriptionFailure(id, now) {
      const rows = await sql.all<{ failing_since: unknown }>(
        "UPDATE webhook_subscriptions SET failing_since = COALESCE(failing_since, ?) WHERE id = ?" +
          " RETURNING failing_since",
        [now, id],
      );
      return numOrNull(rows[0]?.failing_since) ?? undefined;
    },

    async noteSubscriptionSuccess(id) {
      await sql.run(
        "UPDATE webhook_subscriptions SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL",
        [id],
      );
    },

    async disableSubscription(id, reason, now) {
      await sql.run(
        "UPDATE webhook_subscriptions SET status = 'disabled', disabled_reason = ? WHERE id = ?",
        [reason, id],
      );
      await sql.run(
        "UPDATE webhook_deliveries SET status = 'failed', last_error = ?, last_attempt_at = COALESCE(last_attempt_at, ?)," +
          " claimed_until = NULL WHERE subscription_id = ? AND status = 'pending'",
        [`not sent: the subscription was disabled (${reason})`, now, id],
      );
    },
  };
}
