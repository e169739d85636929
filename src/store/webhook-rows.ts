/**
 * The webhook tables' row shapes and their mapping (migration 0009-webhooks), shared by the
 * repositories of each table: webhook-subscriptions.ts, webhook-deliveries.ts,
 * webhook-fanout-cursor.ts, webhook-delivery-lock.ts (composed in webhook-repository.ts).
 */
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

export const SUBSCRIPTION_COLUMNS =
  "id, owner_key_id, url, filter, status, disabled_reason, failing_since, start_seq, created_at";
export const DELIVERY_COLUMNS =
  "id, subscription_id, change_seq, event_id, event_type, message_id, status, attempts," +
  " next_attempt_at, last_status, last_error, delivered_at, created_at";

export type Row = Record<string, unknown>;

export const num = (value: unknown): number => Number(value);
export const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
export const strOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

export function toSubscription(row: Row): WebhookSubscription {
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

export function toDelivery(row: Row): WebhookDelivery {
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
export function ownerClause(ownerKeyId: number | undefined, column = "owner_key_id") {
  return ownerKeyId === undefined
    ? { sql: "", params: [] as unknown[] }
    : { sql: ` AND ${column} = ?`, params: [ownerKeyId] as unknown[] };
}
