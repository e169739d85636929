/**
 * Delivery slots per subscription and per API key (docs/webhooks.md, "Delivery slots"). A slot
 * is a claimed delivery whose lease still runs: an attempt in flight in some delivery process.
 * A slow or dead receiver holds its slots for up to the attempt's time limit, so each
 * subscription and each key may hold only a few at once; the rest of the delivery processes'
 * slots stay free for everyone else's receivers. The claim query (DUE_WITHIN_SLOTS_SQL) counts
 * the slots held in the database, so the bound holds across processes; on PostgreSQL, processes
 * claiming in the same instant do not see each other's claims yet and may each take the free
 * slots they see (briefly up to the bound per process).
 */
import type { SqlExecutor } from "./backend.js";

export interface SlotLimits {
  /** Deliveries of one subscription in flight at once. */
  readonly perSubscription: number;
  /** Deliveries of all the subscriptions of one API key in flight at once. */
  readonly perKey: number;
}

/** What the slots look like now, for /metrics. */
export interface SlotUsage {
  /** Deliveries in flight (claimed, lease running), all processes. */
  readonly busy: number;
  /** The most slots one subscription holds. */
  readonly maxPerSubscription: number;
  /** The most slots one API key's subscriptions hold together. */
  readonly maxPerKey: number;
  /** Due deliveries that wait because their subscription or key holds all its slots. */
  readonly heldBack: number;
}

const PENDING_DUE =
  "d.status = 'pending' AND d.next_attempt_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until <= ?)" +
  " AND s.status = 'active'";

/**
 * The ids of the due deliveries that fit in their subscription's and key's free slots (the
 * slots already held counted against the bound). Not limited here: the claim takes the earliest
 * of them it can lock (on PostgreSQL, skipping those another process is claiming), and the
 * slots bound this set to a few per key. Parameters, in order: now (busy), now, now (due),
 * perSubscription, perKey.
 */
export const DUE_WITHIN_SLOTS_SQL =
  "WITH busy AS (" +
  "SELECT d.subscription_id, s.owner_key_id, count(*) AS n FROM webhook_deliveries d" +
  " JOIN webhook_subscriptions s ON s.id = d.subscription_id" +
  " WHERE d.status = 'pending' AND d.claimed_until > ? GROUP BY d.subscription_id, s.owner_key_id)," +
  " busy_key AS (SELECT owner_key_id, sum(n) AS n FROM busy GROUP BY owner_key_id)," +
  " due AS (SELECT d.id, d.next_attempt_at, s.owner_key_id," +
  " ROW_NUMBER() OVER (PARTITION BY d.subscription_id ORDER BY d.next_attempt_at, d.id)" +
  " + COALESCE(b.n, 0) AS subscription_slot" +
  " FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id" +
  ` LEFT JOIN busy b ON b.subscription_id = d.subscription_id WHERE ${PENDING_DUE}),` +
  " fits AS (SELECT due.id, due.next_attempt_at," +
  " ROW_NUMBER() OVER (PARTITION BY due.owner_key_id ORDER BY due.next_attempt_at, due.id)" +
  " + COALESCE(k.n, 0) AS key_slot" +
  " FROM due LEFT JOIN busy_key k ON k.owner_key_id = due.owner_key_id" +
  " WHERE due.subscription_slot <= ?)" +
  " SELECT id FROM fits WHERE key_slot <= ?";

const num = (value: unknown) => Number(value ?? 0);

/** The slots in use now and the due deliveries waiting behind their own bound. */
export async function readSlotUsage(
  sql: SqlExecutor,
  now: number,
  limits: SlotLimits,
): Promise<SlotUsage> {
  const busyRows = await sql.all<{ subscription_id: unknown; owner_key_id: unknown; n: unknown }>(
    "SELECT d.subscription_id, s.owner_key_id, count(*) AS n FROM webhook_deliveries d" +
      " JOIN webhook_subscriptions s ON s.id = d.subscription_id" +
      " WHERE d.status = 'pending' AND d.claimed_until > ? GROUP BY d.subscription_id, s.owner_key_id",
    [now],
  );
  const bySubscription = new Map<number, number>();
  const byKey = new Map<number, number>();
  for (const row of busyRows) {
    bySubscription.set(num(row.subscription_id), num(row.n));
    const key = num(row.owner_key_id);
    byKey.set(key, (byKey.get(key) ?? 0) + num(row.n));
  }
  const dueRows = await sql.all<{ subscription_id: unknown; owner_key_id: unknown; n: unknown }>(
    "SELECT d.subscription_id, s.owner_key_id, count(*) AS n FROM webhook_deliveries d" +
      ` JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE ${PENDING_DUE}` +
      " GROUP BY d.subscription_id, s.owner_key_id",
    [now, now],
  );
  let heldBack = 0;
  for (const row of dueRows) {
    const full =
      (bySubscription.get(num(row.subscription_id)) ?? 0) >= limits.perSubscription ||
      (byKey.get(num(row.owner_key_id)) ?? 0) >= limits.perKey;
    if (full) heldBack += num(row.n);
  }
  return {
    busy: [...bySubscription.values()].reduce((a, b) => a + b, 0),
    maxPerSubscription: Math.max(0, ...bySubscription.values()),
    maxPerKey: Math.max(0, ...byKey.values()),
    heldBack,
  };
}
