/** Table webhook_delivery_lock: the one delivery process of a SQLite file (webhooks/delivery-lock.ts). */
import type { SqlExecutor } from "./backend.js";
import { type DeliveryLockHolder, type Dialect, num, type Row } from "./webhook-rows.js";

export interface WebhookDeliveryLockRepository {
  readDeliveryLock(): Promise<DeliveryLockHolder | undefined>;
  writeDeliveryLock(holder: DeliveryLockHolder): Promise<void>;
  /** Refreshes the heartbeat; false when someone else holds the lock now. */
  heartbeatDeliveryLock(holder: string, now: number): Promise<boolean>;
  releaseDeliveryLock(holder: string): Promise<void>;
}

export function createWebhookDeliveryLock(
  sql: SqlExecutor,
  dialect: Dialect,
): WebhookDeliveryLockRepository {
  const forUpdate = dialect === "postgres" ? " FOR UPDATE" : "";
  return {
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
