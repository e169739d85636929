/**
 * The Ponder baseline's one route besides Ponder's own (/ready, /health, /status, /metrics):
 * GET /records?after=<message id>&limit=N, the `transfer` rows in message-id order, for the
 * benchmark's digest.
 */

import { db } from "ponder:api";
import schema from "ponder:schema";
import { Hono } from "hono";
import { asc, gt } from "ponder";

const app = new Hono();

app.get("/records", async (c) => {
  const after = c.req.query("after") ?? "";
  const limit = Math.min(Number(c.req.query("limit") ?? "1000"), 10_000);
  const rows = await db
    .select()
    .from(schema.transfer)
    .where(gt(schema.transfer.message_id, after))
    .orderBy(asc(schema.transfer.message_id))
    .limit(limit);
  return c.json(rows);
});

export default app;
