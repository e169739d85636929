/**
 * What the standby's fencing check (src/store/indexer-leader-lock.ts) costs a write transaction
 * of `index` on PostgreSQL: the same minimal transaction (the write lock, one UPDATE, COMMIT)
 * with and without STILL_LEADING_SQL, alternating in rounds of 200, medians of 40 rounds, in a
 * schema of its own that is dropped afterwards.
 *
 *   node --import tsx bench/leader-fencing.ts [--database-url URL]
 */
import { parseArgs } from "node:util";
import pg from "pg";
import {
  INDEXER_LEADER_KEY,
  STILL_LEADING_SQL,
  stillLeadingParams,
} from "../src/store/indexer-leader-lock.js";
import { INDEXER_LOCK_KEY } from "../src/store/indexer-repository.js";

const SCHEMA = "bench_leader_fencing";
const PER_ROUND = 200;
const ROUNDS = 40;

const { values } = parseArgs({ options: { "database-url": { type: "string" } } });
const baseUrl =
  values["database-url"] ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const url = `${baseUrl}${baseUrl.includes("?") ? "&" : "?"}options=-c%20search_path%3D${SCHEMA}`;

const admin = new pg.Client({ connectionString: baseUrl });
await admin.connect();
await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE; CREATE SCHEMA ${SCHEMA}`);
await admin.query(
  `CREATE TABLE ${SCHEMA}.t (id int PRIMARY KEY, v bigint); INSERT INTO ${SCHEMA}.t VALUES (1, 0)`,
);
const lock = new pg.Client({ connectionString: url });
const writer = new pg.Client({ connectionString: url });
try {
  await lock.connect();
  await writer.connect();
  const { rows } = await lock.query(
    "SELECT pg_try_advisory_lock($1, hashtext(current_schema())) AS ok, a.pid," +
      " a.backend_start::text AS started FROM pg_stat_get_activity(pg_backend_pid()) a",
    [INDEXER_LEADER_KEY],
  );
  const session = { pid: Number(rows[0].pid), backendStart: String(rows[0].started) };
  let n = 0;
  const fence = STILL_LEADING_SQL.replace(/\?/g, () => `$${++n}`);

  async function transaction(fenced: boolean) {
    await writer.query("BEGIN");
    await writer.query("SELECT pg_advisory_xact_lock($1, hashtext(current_schema()))", [
      INDEXER_LOCK_KEY,
    ]);
    if (fenced) {
      const check = await writer.query(fence, stillLeadingParams(session));
      if (check.rows[0].leading !== true)
        throw new Error("the check says this session does not lead");
    }
    await writer.query("UPDATE t SET v = v + 1 WHERE id = 1");
    await writer.query("COMMIT");
  }
  /** Microseconds per call, over PER_ROUND calls. */
  async function perCall(fn: () => Promise<unknown>) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) await fn();
    return Number(process.hrtime.bigint() - started) / 1e3 / PER_ROUND;
  }
  const plain: number[] = [];
  const fenced: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    plain.push(await perCall(() => transaction(false)));
    fenced.push(await perCall(() => transaction(true)));
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
  const paired = plain.map((p, i) => fenced[i]! - p);
  console.log(
    `write transaction, medians of ${ROUNDS} rounds of ${PER_ROUND}: ${median(plain).toFixed(0)} us plain, ${median(fenced).toFixed(0)} us with the fencing check (paired difference ${median(paired).toFixed(0)} us)`,
  );
} finally {
  await writer.end();
  await lock.end();
  await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await admin.end();
}
