/** Table webhook_fanout_cursor: how far the fan-out has turned the change log into deliveries. */
import type { SqlExecutor } from "./backend.js";
import { type Dialect, num } from "./webhook-rows.js";

export interface WebhookFanOutCursor {
  /** The fan-out cursor, locked for the transaction on PostgreSQL (undefined: another has it). */
  lockFanOutCursor(): Promise<number | undefined>;
  setFanOutCursor(seq: number): Promise<void>;
}

export function createWebhookFanOutCursor(sql: SqlExecutor, dialect: Dialect): WebhookFanOutCursor {
  return {
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
  };
}
