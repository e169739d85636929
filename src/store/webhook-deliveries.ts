/** Tables webhook_deliveries and webhook_attempts: the delivery queue (made by the fan-out, claimed with leases, retried) and every attempt. */
import type { SqlExecutor } from "./backend.js";
import {
  type ClaimedDelivery,
  DELIVERY_COLUMNS,
  type DeliveryStatus,
  type Dialect,
  formatWebhookTime,
  type NewDelivery,
  num,
  numOrNull,
  ownerClause,
  type Row,
  strOrNull,
  toDelivery,
  type WebhookAttempt,
  type WebhookDelivery,
} from "./webhook-rows.js";
import { DUE_WITHIN_SLOTS_SQL, type SlotLimits } from "./webhook-slots.js";

export interface WebhookDeliveryQueue {
  /** Newest first. */
  listDeliveries(
    subscriptionId: number,
    options: { limit: number; status?: DeliveryStatus },
  ): Promise<WebhookDelivery[]>;
  /** The delivery, when its subscription belongs to the owner (when one is given). */
  getDelivery(id: number, ownerKeyId?: number): Promise<WebhookDelivery | undefined>;
  /** Every attempt of the deliveries, oldest first. */
  listAttempts(deliveryIds: readonly number[]): Promise<WebhookAttempt[]>;
  /** Makes a delivery pending and due now, with a fresh 24-hour window; same id and body. */
  redeliver(id: number, now: number): Promise<boolean>;
  /** Inserts deliveries due at `now`; a (subscription, change) pair already there is skipped. */
  insertDeliveries(deliveries: readonly NewDelivery[], now: number): Promise<number>;
  /**
   * Claims up to `limit` due deliveries of active subscriptions for one attempt each, leased
   * until `leaseUntil`; concurrent claimers (PostgreSQL) never get the same row.
   */
  claimDue(
    now: number,
    leaseUntil: number,
    limit: number,
    slots: SlotLimits,
  ): Promise<ClaimedDelivery[]>;
  /** Ends every lease at once: for the only delivery process of a SQLite file, at its start. */
  releaseAllClaims(): Promise<number>;
  /** Earliest next_attempt_at of a pending delivery, if any. */
  nextDueAt(): Promise<number | undefined>;
  recordAttempt(attempt: WebhookAttempt): Promise<void>;
  markDelivered(id: number, now: number, status: number): Promise<void>;
  /** Pending again at `nextAttemptAt`, or failed when it is undefined. */
  markFailedAttempt(
    id: number,
    now: number,
    failure: { status: number | null; error: string; nextAttemptAt: number | undefined },
  ): Promise<void>;
}

export function createWebhookDeliveryQueue(
  sql: SqlExecutor,
  dialect: Dialect,
): WebhookDeliveryQueue {
  const inList =
    dialect === "postgres" ? "= ANY(?::bigint[])" : "IN (SELECT value FROM json_each(?))";
  const listParam = (ids: readonly number[]) =>
    dialect === "postgres" ? [ids] : [JSON.stringify(ids)];
  return {
    async listDeliveries(subscriptionId, options) {
      const status = options.status === undefined ? "" : " AND status = ?";
      const rows = await sql.all<Row>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE subscription_id = ?${status}` +
          " ORDER BY id DESC LIMIT ?",
        [subscriptionId, ...(options.status === undefined ? [] : [options.status]), options.limit],
      );
      return rows.map(toDelivery);
    },

    async getDelivery(id, ownerKeyId) {
      const owner = ownerClause(ownerKeyId, "s.owner_key_id");
      const rows = await sql.all<Row>(
        `SELECT ${DELIVERY_COLUMNS.split(", ")
          .map((c) => `d.${c}`)
          .join(", ")} FROM webhook_deliveries d` +
          ` JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE d.id = ?${owner.sql}`,
        [id, ...owner.params],
      );
      return rows[0] === undefined ? undefined : toDelivery(rows[0]);
    },

    async listAttempts(deliveryIds) {
      if (deliveryIds.length === 0) return [];
      const rows = await sql.all<Row>(
        "SELECT delivery_id, attempted_at, response_status, error, duration_ms, response_body" +
          ` FROM webhook_attempts WHERE delivery_id ${inList} ORDER BY id`,
        listParam(deliveryIds),
      );
      return rows.map((row) => ({
        deliveryId: num(row.delivery_id),
        attemptedAt: String(row.attempted_at),
        responseStatus: numOrNull(row.response_status),
        error: strOrNull(row.error),
        durationMs: num(row.duration_ms),
        responseBody: String(row.response_body),
      }));
    },

    async redeliver(id, now) {
      const changed = await sql.run(
        "UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?," +
          " first_attempt_at = NULL, claimed_until = NULL WHERE id = ?",
        [now, id],
      );
      return changed > 0;
    },

    async insertDeliveries(deliveries, now) {
      let inserted = 0;
      const createdAt = formatWebhookTime(now);
      for (const d of deliveries) {
        inserted += await sql.run(
          "INSERT INTO webhook_deliveries (subscription_id, change_seq, event_id, event_type," +
            " message_id, body, next_attempt_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)" +
            " ON CONFLICT (subscription_id, change_seq) DO NOTHING",
          [
            d.subscriptionId,
            d.changeSeq,
            d.eventId,
            d.eventType,
            d.messageId,
            d.body,
            now,
            createdAt,
          ],
        );
      }
      return inserted;
    },

    async claimDue(now, leaseUntil, limit, slots) {
      // The rows chosen within the slots, locked (PostgreSQL: skipping rows another claimer
      // holds, and checking again that each is still unclaimed once locked).
      const due =
        "SELECT id FROM webhook_deliveries WHERE status = 'pending'" +
        " AND (claimed_until IS NULL OR claimed_until <= ?)" +
        ` AND id IN (${DUE_WITHIN_SLOTS_SQL})` +
        ` ORDER BY next_attempt_at, id LIMIT ?${dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : ""}`;
      const claimed = await sql.all<Row>(
        `UPDATE webhook_deliveries SET claimed_until = ? WHERE id IN (${due})` +
          " RETURNING id, subscription_id, event_id, event_type, body, attempts, first_attempt_at",
        [leaseUntil, now, now, now, now, slots.perSubscription, slots.perKey, limit],
      );
      if (claimed.length === 0) return [];
      const subscriptionIds = [...new Set(claimed.map((row) => num(row.subscription_id)))];
      const subscriptions = new Map(
        (
          await sql.all<Row>(
            `SELECT id, url, secret FROM webhook_subscriptions WHERE id ${inList}`,
            listParam(subscriptionIds),
          )
        ).map((row) => [num(row.id), { url: String(row.url), secret: String(row.secret) }]),
      );
      const out: ClaimedDelivery[] = [];
      for (const row of claimed) {
        const subscription = subscriptions.get(num(row.subscription_id));
        if (subscription === undefined) continue; // deleted meanwhile
        out.push({
          id: num(row.id),
          subscriptionId: num(row.subscription_id),
          eventId: String(row.event_id),
          eventType: String(row.event_type),
          body: String(row.body),
          attempts: num(row.attempts),
          firstAttemptAt: numOrNull(row.first_attempt_at),
          url: subscription.url,
          secret: subscription.secret,
        });
      }
      return out;
    },

    async releaseAllClaims() {
      return sql.run(
        "UPDATE webhook_deliveries SET claimed_until = NULL WHERE claimed_until IS NOT NULL",
      );
    },

    async nextDueAt() {
      const rows = await sql.all<{ at: unknown }>(
        "SELECT min(next_attempt_at) AS at FROM webhook_deliveries WHERE status = 'pending'",
      );
      return numOrNull(rows[0]?.at) ?? undefined;
    },

    async recordAttempt(a) {
      await sql.run(
        "INSERT INTO webhook_attempts (delivery_id, attempted_at, response_status, error," +
          " duration_ms, response_body) VALUES (?, ?, ?, ?, ?, ?)",
        [a.deliveryId, a.attemptedAt, a.responseStatus, a.error, a.durationMs, a.responseBody],
      );
    },

    async markDelivered(id, now, status) {
      await sql.run(
        "UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1," +
          " delivered_at = ?, last_attempt_at = ?, first_attempt_at = COALESCE(first_attempt_at, ?)," +
          " last_status = ?, last_error = NULL, claimed_until = NULL WHERE id = ?",
        [now, now, now, status, id],
      );
    },

    async markFailedAttempt(id, now, failure) {
      const failed = failure.nextAttemptAt === undefined;
      await sql.run(
        `UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, next_attempt_at = ?,` +
          " last_attempt_at = ?, first_attempt_at = COALESCE(first_attempt_at, ?)," +
          " last_status = ?, last_error = ?, claimed_until = NULL WHERE id = ? AND status = 'pending'",
        [
          failed ? "failed" : "pending",
          failure.nextAttemptAt ?? now,
          now,
          now,
          failure.status,
          failure.error,
          id,
        ],
      );
    },
  };
}
