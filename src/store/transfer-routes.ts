/**
 * The rows of `transfer_routes` (migration 15) for records about to be written: inserted when
 * new, then read back with their ids. PostgreSQL: two statements per batch whatever its size
 * (a round trip each). SQLite: two prepared statements per distinct route of the batch, the
 * insert only when the lookup found none; the set-based form's JSON unpacking cost 25 us a
 * route (an import of 100,000 list-benchmark records, whose batches hold about a thousand
 * routes each, took 25 % more CPU), a lookup by the unique index costs a few.
 * Nothing is cached across calls: an id read in a transaction that rolls back may not exist
 * after it (SQLite reuses the rowid).
 */
import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import type { TransferBackend } from "./backend.js";
import { dialectOf } from "./derive-dialect.js";
import { isNumberField, ROUTE_FIELDS, routeKey } from "./transfer-row.js";

const value = (field: string) =>
  isNumberField(field) ? `CAST(x.${field} AS INTEGER)` : `x.${field}`;

function statements(kind: "sqlite" | "postgres") {
  const rows = dialectOf(kind).rowsFromJson("?", ROUTE_FIELDS);
  const where = ROUTE_FIELDS.map((f) => `${f} = ?`).join(" AND ");
  return {
    selectOne: `SELECT id FROM transfer_routes WHERE ${where}`,
    insertOne:
      `INSERT INTO transfer_routes (${ROUTE_FIELDS.join(", ")})` +
      ` VALUES (${ROUTE_FIELDS.map(() => "?").join(", ")})`,
    // WHERE true: SQLite's parser needs it before an upsert clause of INSERT … SELECT.
    insert:
      `INSERT INTO transfer_routes (${ROUTE_FIELDS.join(", ")})` +
      ` SELECT DISTINCT ${ROUTE_FIELDS.map(value).join(", ")} FROM (${rows}) x WHERE true` +
      " ON CONFLICT DO NOTHING",
    select:
      `SELECT r.* FROM transfer_routes r JOIN (${rows}) x` +
      ` ON ${ROUTE_FIELDS.map((f) => `r.${f} = ${value(f)}`).join(" AND ")}`,
  };
}

const cache = new Map<string, ReturnType<typeof statements>>();

/** Route key (routeKey) -> transfer_routes.id of every record's route, inserting new ones. */
export async function routeIds(
  backend: TransferBackend,
  records: readonly BridgeTransaction[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (records.length === 0) return ids;
  let sql = cache.get(backend.kind);
  if (sql === undefined) {
    sql = statements(backend.kind);
    cache.set(backend.kind, sql);
  }
  if (backend.kind === "sqlite") {
    for (const record of records) {
      const key = routeKey(record);
      if (ids.has(key)) continue;
      const values = ROUTE_FIELDS.map((f) => record[f]);
      let rows = await backend.sql.all<{ id: unknown }>(sql.selectOne, values);
      if (rows.length === 0) {
        await backend.sql.run(sql.insertOne, values);
        rows = await backend.sql.all<{ id: unknown }>(sql.selectOne, values);
      }
      ids.set(key, Number(rows[0]!.id));
    }
    return ids;
  }
  const routes = new Map<string, Record<string, unknown>>();
  for (const record of records) {
    const key = routeKey(record);
    if (!routes.has(key)) {
      routes.set(key, Object.fromEntries(ROUTE_FIELDS.map((f) => [f, String(record[f])])));
    }
  }
  const json = JSON.stringify([...routes.values()]);
  await backend.sql.run(sql.insert, [json]);
  for (const row of await backend.sql.all<Record<string, unknown>>(sql.select, [json])) {
    ids.set(routeKey(row), Number(row.id));
  }
  return ids;
}
