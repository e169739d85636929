/**
 * The index benchmark on PostgreSQL (`bench index --store postgres|both`): the indexer backfills
 * into the benchmark's own schema of the database at DATABASE_URL (or --database-url), selected
 * by the connection's search_path as the tests and the list benchmark do. The schema is
 * `bench_index`, dropped and created anew by every run (nothing is cached between runs, as on
 * SQLite) and dropped again at the end; nothing else in the database is touched. A schema of
 * that name holding tables without the store's migration table is refused.
 */
import { readdirSync } from "node:fs";
import { endClient } from "../src/store/postgres/connections.js";
import { connect, describePostgres, type PostgresInfo, withSearchPath } from "./list-postgres.js";
import { readProcessCpu } from "./process-cpu.js";

export const INDEX_BENCH_SCHEMA = "bench_index";

export interface IndexSchema {
  /** databaseUrl with its search_path set to the schema. */
  url: string;
  describe(): Promise<PostgresInfo>;
  drop(): Promise<void>;
}

/** A fresh, empty `bench_index` schema in the database at `databaseUrl`. */
export async function freshIndexSchema(databaseUrl: string): Promise<IndexSchema> {
  const schema = INDEX_BENCH_SCHEMA;
  const admin = await connect(databaseUrl);
  try {
    // A schema left by a run that did not finish holds the store's migration table; one that
    // holds relations without it is someone else's.
    const { rows } = await admin.query<{ relations: string; migrated: boolean }>(
      "SELECT (SELECT count(*) FROM pg_class c WHERE c.relnamespace = n.oid) AS relations," +
        " to_regclass(format('%I.schema_migrations', n.nspname)) IS NOT NULL AS migrated" +
        " FROM pg_namespace n WHERE n.nspname = $1",
      [schema],
    );
    const existing = rows[0];
    if (existing !== undefined && Number(existing.relations) > 0 && !existing.migrated) {
      throw new Error(
        `schema ${schema} holds tables that are not this service's; the benchmark drops its ` +
          "schema at every run, so it will not use this one",
      );
    }
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await endClient(admin);
  }
  return {
    url: withSearchPath(databaseUrl, schema),
    async describe() {
      const client = await connect(databaseUrl);
      try {
        return await describePostgres(client, schema);
      } finally {
        await endClient(client);
      }
    },
    async drop() {
      const client = await connect(databaseUrl);
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await endClient(client);
      }
    },
  };
}

/** Rows of raw_events in the schema: the events the backfill stored. */
export async function countStoredEvents(schemaUrl: string): Promise<number> {
  const client = await connect(schemaUrl);
  try {
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM raw_events");
    return Number(rows[0]!.n);
  } finally {
    await endClient(client);
  }
}

/**
 * CPU time (ms) of this machine's PostgreSQL processes so far: each `postgres` process's user
 * and system time plus that of its children already reaped (the postmaster's counts the
 * backends that exited). Two readings' difference is what the server did in between.
 * Undefined where /proc cannot be read or no such process is visible.
 */
export function readPostgresCpuMs(): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let ms = 0;
  let seen = false;
  for (const pid of pids) {
    const cpu = readProcessCpu(pid); // undefined: exited meanwhile
    if (cpu?.name !== "postgres") continue;
    ms += cpu.ms + cpu.childrenMs;
    seen = true;
  }
  return seen ? ms : undefined;
}
