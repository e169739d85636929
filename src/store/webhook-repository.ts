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
import { DUE_WITHIN_SLOTS_SQL, type SlotLimits } from "./webhook-slots.js";

export type WebhookStatus = "active" | "disabled";
export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface WebhookFilterValues {
  readonly addresses: readonly string[];
  readonly txHashes: readonly string[];
}

export interface WebhookSubscription {
  readonly id: number;
  readonly ownerKeyId: number;
  /** As given, credentials included: redact before showing (redactWebhookUrl, src/redact-url.ts). */
  readonly url: string;
  readonly filter: WebhookFilterValues;
  readonly status: WebhookStatus;
  readonly disabledReason: string | null;
  /** Epoch ms of the first failed attempt since the last success; null while healthy. */
  readonly failingSince: number | null;
  readonly startSeq: number;
  readonly createdAt: string;
}

export interface NewWebhookSubscription {
  readonly ownerKeyId: number;
  readonly url: string;
  readonly filter: WebhookFilterValues;
  readonly secret: string;
  readonly createdAt: string;
}

export interface WebhookDelivery {
  readonly id: number;
  readonly subscriptionId: number;
  readonly changeSeq: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly messageId: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  /** Epoch ms; for a pending delivery, when it is next due. */
  readonly nextAttemptAt: number;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: number | null;
  readonly createdAt: string;
}

export interface WebhookAttempt {
  readonly deliveryId: number;
  readonly attemptedAt: string;
  readonly responseStatus: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  readonly responseBody: string;
}

/** A delivery claimed for one attempt, with what sending it needs. */
export interface ClaimedDelivery {
  readonly id: number;
  readonly subscriptionId: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly body: string;
  readonly attempts: number;
  readonly firstAttemptAt: number | null;
  readonly url: string;
  readonly secret: string;
}

export interface NewDelivery {
  readonly subscriptionId: number;
  readonly changeSeq: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly messageId: string;
  readonly body: string;
}

export interface DeliveryLockHolder {
  readonly holder: string;
  readonly host: string;
  readonly pid: number;
  readonly heartbeatAt: number;
}

export type Dialect = "sqlite" | "postgres";

/** UTC "YYYY-MM-DD HH:MM:SS" (docs/http-api.md, "2. Times and unknown values"). */
export function formatWebhookTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

const SUBSCRIPTION_COLUMNS =
  "id, owner_key_id, url, filter, status, disabled_reason, failing_since, start_seq, created_at";
const DELIVERY_COLUMNS =
  "id, subscription_id, change_seq, event_id, event_type, message_id, status, attempts," +
  " next_attempt_at, last_status, last_error, delivered_at, created_at";

type Row = Record<string, unknown>;

const num = (value: unknown): number => Number(value);
const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
const strOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

function toSubscription(row: Row): WebhookSubscription {
  const filter = JSON.parse(String(row.filter)) as WebhookFilterValues;
  return {
    id: num(row.id),
    ownerKeyId: num(row.owner_key_id),
    url: String(row.url),
    filter: { addresses: filter.addresses ?? [], txHashes: filter.txHashes ?? [] },
    status: String(row.status) as WebhookStatus,
    disabledReason: strOrNull(row.disabled_reason),
    failingSince: numOrNull(row.failing_since),
    startSeq: num(row.start_seq),
    createdAt: String(row.created_at),
  };
}

function toDelivery(row: Row): WebhookDelivery {
  return {
    id: num(row.id),
    subscriptionId: num(row.subscription_id),
    changeSeq: num(row.change_seq),
    eventId: String(row.event_id),
    eventType: String(row.event_type),
    messageId: String(row.message_id),
    status: String(row.status) as DeliveryStatus,
    attempts: num(row.attempts),
    nextAttemptAt: num(row.next_attempt_at),
    lastStatus: numOrNull(row.last_status),
    lastError: strOrNull(row.last_error),
    deliveredAt: numOrNull(row.delivered_at),
    createdAt: String(row.created_at),
  };
}

/** `AND owner_key_id = ?` when scoped to a key, with its parameter. */
function ownerClause(ownerKeyId: number | undefined, column = "owner_key_id") {
  return ownerKeyId === undefined
    ? { sql: "", params: [] as unknown[] }
    : { sql: ` AND ${column} = ?`, params: [ownerKeyId] as unknown[] };
}

export interface WebhookRepository {
  /**
   * The executor these statements run on: inside a transaction, the transaction's connection,
   * on which the fan-out reads the change log (fan-out.ts) in the same transaction.
   */
  readonly sql: SqlExecutor;
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

  /** The fan-out cursor, locked for the transaction on PostgreSQL (undefined: another has it). */
  lockFanOutCursor(): Promise<number | undefined>;
  setFanOutCursor(seq: number): Promise<void>;
  activeSubscriptions(): Promise<WebhookSubscription[]>;
  /** Inserts deliveries due at `now`; a (subscription, change) pair already there is skipped. */
  insertDeliveries(deliveries: readonly NewDelivery[], now: number): Promise<number>;

  /**
   * Claims up to `limit` due deliveries of active subscriptions for one attempt each, leased
   * until `leaseUntil`, within each subscription's and key's delivery slots (webhook-slots.ts);
   * concurrent claimers (PostgreSQL) never get the same row.
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
  /** Failure bookkeeping of the subscription; returns its failing_since (epoch ms). */
  noteSubscriptionFailure(id: number, now: number): Promise<number | undefined>;
  noteSubscriptionSuccess(id: number): Promise<void>;
  /** Disables it and fails its pending deliveries with the reason. */
  disableSubscription(id: number, reason: string, now: number): Promise<void>;

  readDeliveryLock(): Promise<DeliveryLockHolder | undefined>;
  writeDeliveryLock(holder: DeliveryLockHolder): Promise<void>;
  /** Refreshes the heartbeat; false when someone else holds the lock now. */
  heartbeatDeliveryLock(holder: string, now: number): Promise<boolean>;
  releaseDeliveryLock(holder: string): Promise<void>;
}

export function createWebhookRepository(sql: SqlExecutor, dialect: Dialect): WebhookRepository {
  const forUpdate = dialect === "postgres" ? " FOR UPDATE" : "";
  const inList =
    dialect === "postgres" ? "= ANY(?::bigint[])" : "IN (SELECT value FROM json_each(?))";
  const listParam = (ids: readonly number[]) =>
    dialect === "postgres" ? [ids] : [JSON.stringify(ids)];

  return {
    sql,
    async createSubscription(s) {
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

    async lockFanOutCursor() {
      const rows = await sql.all<{ seq: unknown }>(
        `SELECT seq FROM webhook_fanout_cursor WHERE id = 1${
          dialect === "postgres" ? " FOR UPDATE SKIP LOCKED" : ""
        }`,
      );
      return rows[0] === undefined ? undefined : num(rows[0].seq);
    },

    async setFanOutCursor(seq) {
      await sql.run("UPDATE webhook_fanout_cursor SET seq = ? WHERE id = 1", [seq]);
    },

    async activeSubscriptions() {
      const rows = await sql.all<Row>(
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE status = 'active' ORDER BY id`,
      );
      return rows.map(toSubscription);
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

    async readDeliveryLock() {
      const rows = await sql.all<Row>(
        `SELECT holder, host, pid, heartbeat_at FROM webhook_delivery_lock WHERE id = 1${forUpdate}`,
      );
      const row = rows[0];
      return row === undefined
        ? undefined
        : {
            holder: String(row.holder),
            host: String(row.host),
            pid: num(row.pid),
            heartbeatAt: num(row.heartbeat_at),
          };
    },

    async writeDeliveryLock(h) {
      await sql.run(
        "INSERT INTO webhook_delivery_lock (id, holder, host, pid, heartbeat_at) VALUES (1, ?, ?, ?, ?)" +
          " ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, host = excluded.host," +
          " pid = excluded.pid, heartbeat_at = excluded.heartbeat_at",
        [h.holder, h.host, h.pid, h.heartbeatAt],
      );
    },

    async heartbeatDeliveryLock(holder, now) {
      return (
        (await sql.run(
          "UPDATE webhook_delivery_lock SET heartbeat_at = ? WHERE id = 1 AND holder = ?",
          [now, holder],
        )) > 0
      );
    },

    async releaseDeliveryLock(holder) {
      await sql.run("DELETE FROM webhook_delivery_lock WHERE id = 1 AND holder = ?", [holder]);
    },
  };
}
