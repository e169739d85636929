/**
 * Webhook health (migration 0010): what /metrics reports about delivery, kept in the database
 * because the delivery processes serve no HTTP of their own. Written by the delivery processes
 * (src/webhooks/delivery-health.ts: heartbeats, and running totals added in the transaction
 * that records attempts), read by the API on each scrape (src/api/plugins/webhook-metrics.ts).
 */
import type { SqlExecutor } from "./backend.js";

/** A delivery process's row in webhook_delivery_processes. */
export interface DeliveryProcessRow {
  /** host:pid:random, unique per run. */
  readonly process: string;
  readonly host: string;
  readonly pid: number;
  /** Epoch ms. */
  readonly startedAt: number;
}

export interface WebhookHealth {
  /** Deliveries not yet delivered or failed (due now, or waiting for a retry). */
  readonly pending: number;
  /** Of those, due now: waiting for a delivery process, not for their retry time. */
  readonly due: number;
  /**
   * Changes committed after the fan-out cursor, not yet made into deliveries (0 while no
   * subscription is active: nothing is waiting for them).
   */
  readonly fanOutBacklog: number;
  /**
   * When the oldest work still waiting began (epoch ms): the oldest pending delivery was made,
   * or the oldest change not yet fanned out was committed; undefined with neither.
   */
  readonly oldestPendingAt: number | undefined;
  /** Delivery processes whose heartbeat is fresher than `liveSince`. */
  readonly liveProcesses: number;
  readonly activeSubscriptions: number;
  readonly disabledSubscriptions: number;
  /** Active subscriptions whose attempts have all failed since `failingSince` (epoch ms). */
  readonly failing: readonly { readonly subscriptionId: number; readonly failingSince: number }[];
  /** The running totals of webhook_delivery_counts by name. */
  readonly counts: ReadonlyMap<string, number>;
}

export interface WebhookHealthRepository {
  /** Writes `row`'s heartbeat at `now`; deletes the rows of processes silent since `forgetBefore`. */
  heartbeat(row: DeliveryProcessRow, now: number, forgetBefore: number): Promise<void>;
  /** A clean stop: the process's row goes. */
  removeProcess(process: string): Promise<void>;
  /** Adds each value to its running total (inside the caller's transaction). */
  addCounts(counts: ReadonlyMap<string, number>): Promise<void>;
  /** Everything /metrics reports; heartbeats at or after `liveSince` (epoch ms) count as live. */
  read(now: number, liveSince: number): Promise<WebhookHealth>;
}

const num = (value: unknown): number => Number(value ?? 0);

/**
 * 'YYYY-MM-DD HH:MM:SS[.mmm]' UTC (webhook_deliveries.created_at, transfer_changes.changed_at)
 * as epoch ms.
 */
function parseWebhookTime(text: string): number {
  return Date.parse(`${text.replace(" ", "T")}Z`);
}

export function createWebhookHealthRepository(sql: SqlExecutor): WebhookHealthRepository {
  return {
    async heartbeat(row, now, forgetBefore) {
      await sql.run(
        "INSERT INTO webhook_delivery_processes (process, host, pid, started_at, heartbeat_at)" +
          " VALUES (?, ?, ?, ?, ?)" +
          " ON CONFLICT (process) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
        [row.process, row.host, row.pid, row.startedAt, now],
      );
      await sql.run("DELETE FROM webhook_delivery_processes WHERE heartbeat_at < ?", [
        forgetBefore,
      ]);
    },

    async removeProcess(process) {
      await sql.run("DELETE FROM webhook_delivery_processes WHERE process = ?", [process]);
    },

    async addCounts(counts) {
      // In name order: concurrent delivery processes lock the rows in one order (no deadlock).
      for (const name of [...counts.keys()].sort()) {
        await sql.run(
          "INSERT INTO webhook_delivery_counts (name, value) VALUES (?, ?)" +
            " ON CONFLICT (name) DO UPDATE SET value = webhook_delivery_counts.value + excluded.value",
          [name, counts.get(name)],
        );
      }
    },

    async read(now, liveSince) {
      const [deliveries] = await sql.all<Record<string, unknown>>(
        "SELECT count(*) AS pending," +
          " coalesce(sum(CASE WHEN next_attempt_at <= ? THEN 1 ELSE 0 END), 0) AS due," +
          " min(created_at) AS oldest" +
          " FROM webhook_deliveries WHERE status = 'pending'",
        [now],
      );
      const [processes] = await sql.all<Record<string, unknown>>(
        "SELECT count(*) AS live FROM webhook_delivery_processes WHERE heartbeat_at >= ?",
        [liveSince],
      );
      const byStatus = await sql.all<Record<string, unknown>>(
        "SELECT status, count(*) AS n FROM webhook_subscriptions GROUP BY status",
      );
      const failing = await sql.all<Record<string, unknown>>(
        "SELECT id, failing_since FROM webhook_subscriptions" +
          " WHERE status = 'active' AND failing_since IS NOT NULL ORDER BY id",
      );
      const counts = await sql.all<Record<string, unknown>>(
        "SELECT name, value FROM webhook_delivery_counts",
      );
      const subscriptions = (status: string) =>
        num(byStatus.find((row) => row.status === status)?.n);
      const fanOut =
        subscriptions("active") === 0
          ? undefined
          : (
              await sql.all<Record<string, unknown>>(
                "SELECT (SELECT max(seq) FROM transfer_changes) - c.seq AS backlog," +
                  " (SELECT changed_at FROM transfer_changes WHERE seq > c.seq ORDER BY seq LIMIT 1)" +
                  " AS oldest FROM webhook_fanout_cursor c WHERE c.id = 1",
              )
            )[0];
      const oldest = [deliveries?.oldest, fanOut?.oldest]
        .filter((text) => text !== null && text !== undefined)
        .map((text) => parseWebhookTime(String(text)))
        .reduce<number | undefined>(
          (min, at) => (min === undefined || at < min ? at : min),
          undefined,
        );
      return {
        pending: num(deliveries?.pending),
        due: num(deliveries?.due),
        fanOutBacklog: Math.max(0, num(fanOut?.backlog)),
        oldestPendingAt: oldest,
        liveProcesses: num(processes?.live),
        activeSubscriptions: subscriptions("active"),
        disabledSubscriptions: subscriptions("disabled"),
        failing: failing.map((row) => ({
          subscriptionId: num(row.id),
          failingSince: num(row.failing_since),
        })),
        counts: new Map(counts.map((row) => [String(row.name), num(row.value)])),
      };
    },
  };
}
