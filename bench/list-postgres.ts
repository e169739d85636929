/**
 * The list benchmark on PostgreSQL (`bench list --store postgres`): the generated data set loaded
 * into the benchmark's own schema of the database at DATABASE_URL, what the report says about the
 * server, and a count of the commits other processes make in that database while it runs.
 *
 * Isolation: everything goes to one schema, selected by the URL's search_path as the tests do
 * (test/setup/database.ts). Its name must start with `bench_`, and the benchmark drops and
 * recreates only a schema that holds its marker table (bench_list_dataset) or nothing at all;
 * any other schema of that name is refused, so no other data can be touched.
 *
 * Reuse: the marker table holds the fingerprint of the loaded data set (records, seed and the
 * JSONL's SHA-256) and the load's timings; it gets its row only after the import committed and
 * VACUUM (ANALYZE) ran. The same fingerprint next time: the schema is used as it is; another one,
 * or no row (an interrupted load): the schema is dropped and loaded again.
 */
import os from "node:os";
import pg from "pg";
import { redactUrl } from "../src/redact-url.js";
import { createStore } from "../src/store/index.js";
import { TRANSFERS_CHANGED_CHANNEL } from "../src/store/migrations/0004-transfer-change-notify.js";
import {
  BACKGROUND_POSTGRES_TIMEOUTS,
  endClient,
  postgresClientConfig,
} from "../src/store/postgres/connections.js";
import {
  type Dataset,
  type DatasetLoad,
  type GeneratedData,
  importForBenchmark,
} from "./list-data.js";

export const DEFAULT_BENCH_SCHEMA = "bench_list";

/** Unquoted identifiers only (they are interpolated into SQL), and always a `bench_` prefix. */
export const BENCH_SCHEMA_NAME = /^bench_[a-z0-9_]{1,56}$/;

const MARKER_TABLE = "bench_list_dataset";

/** The tables the import fills: vacuumed and analyzed after it. */
const LOADED_TABLES = ["transfers", "address_transfers", "address_stats"];

/** Settings that shape the results: caching, planning, parallelism, and the load's writes. */
const REPORTED_SETTINGS = [
  "shared_buffers",
  "effective_cache_size",
  "work_mem",
  "maintenance_work_mem",
  "random_page_cost",
  "effective_io_concurrency",
  "max_parallel_workers_per_gather",
  "jit",
  "synchronous_commit",
  "fsync",
  "max_wal_size",
];

export interface PostgresInfo {
  /** `SHOW server_version`. */
  version: string;
  settings: { name: string; value: string }[];
  /** Where the server is, as the report says it. */
  location: string;
  sameMachine: boolean;
  database: string;
  schema: string;
  /** The schema's tables with their indexes and TOAST. */
  sizeBytes: number;
}

export interface PostgresDataset extends Dataset {
  postgres: PostgresInfo;
}

/** What a loaded schema must match to be reused. */
export function datasetFingerprint(generated: GeneratedData): string {
  return `records=${generated.records} seed=${generated.seed} jsonl-sha256=${generated.sha256}`;
}

/**
 * `url` with its search_path set to `schema`, appended to any `options` it has (PostgreSQL
 * applies start-up options in order, so this one wins).
 */
export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  const options = parsed.searchParams.get("options");
  const own = `-c search_path=${schema}`;
  parsed.searchParams.set("options", options ? `${options} ${own}` : own);
  return parsed.toString();
}

export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client(postgresClientConfig(url, BACKGROUND_POSTGRES_TIMEOUTS));
  try {
    await client.connect();
  } catch (error) {
    client.on("error", () => {});
    throw new Error(
      `PostgreSQL is not reachable at ${redactUrl(url)} (set DATABASE_URL or` +
        ` --database-url): ${(error as Error).message}`,
    );
  }
  client.on("error", () => {}); // a failure also rejects the query in progress
  return client;
}

interface Marker {
  fingerprint: string;
  load_seconds: number;
  records_per_second: number;
  vacuum_seconds: number;
  /** JSON of DatasetLoad.perMillion; null in a marker written before it was kept. */
  per_million: string | null;
}

type SchemaState =
  | { kind: "absent" | "empty" | "foreign" }
  | { kind: "benchmark"; marker: Marker | undefined };

async function schemaState(client: pg.Client, schema: string): Promise<SchemaState> {
  const { rows } = await client.query<{ relations: string; marker: boolean }>(
    `SELECT (SELECT count(*) FROM pg_class c WHERE c.relnamespace = n.oid) AS relations,
            to_regclass(format('%I.%I', n.nspname, $2::text)) IS NOT NULL AS marker
       FROM pg_namespace n WHERE n.nspname = $1`,
    [schema, MARKER_TABLE],
  );
  const row = rows[0];
  if (row === undefined) return { kind: "absent" };
  if (!row.marker) return { kind: Number(row.relations) === 0 ? "empty" : "foreign" };
  const markers = await client.query<Marker>(
    `SELECT fingerprint, load_seconds, records_per_second, vacuum_seconds,
            to_jsonb(m) ->> 'per_million' AS per_million FROM ${schema}.${MARKER_TABLE} m`,
  );
  return { kind: "benchmark", marker: markers.rows[0] };
}

export interface EnsurePostgresDatasetOptions {
  /** The database (postgres://...); the benchmark works in `schema` only. */
  databaseUrl: string;
  schema: string;
  generated: GeneratedData;
  log: (line: string) => void;
}

/** The data set in `schema` of the database at `databaseUrl`: reused, or loaded and timed. */
export async function ensurePostgresDataset(
  options: EnsurePostgresDatasetOptions,
): Promise<PostgresDataset> {
  const { schema, generated, log } = options;
  if (!BENCH_SCHEMA_NAME.test(schema)) {
    throw new Error(`--schema must match ${BENCH_SCHEMA_NAME} (the benchmark's own schema)`);
  }
  const fingerprint = datasetFingerprint(generated);
  const schemaUrl = withSearchPath(options.databaseUrl, schema);
  const where = `schema ${schema} of ${redactUrl(options.databaseUrl)}`;
  const admin = await connect(options.databaseUrl);
  try {
    // Runs on one schema take turns (released when the connection ends): a second run waits
    // for the first one's load, then reuses it.
    await admin.query("SELECT pg_advisory_lock(hashtext($1))", [`bridge-oracle bench ${schema}`]);
    const state = await schemaState(admin, schema);
    let load: DatasetLoad;
    if (state.kind === "benchmark" && state.marker?.fingerprint === fingerprint) {
      const m = state.marker;
      log(`reusing the data set in ${where}`);
      load = {
        reused: true,
        seconds: Number(m.load_seconds),
        recordsPerSecond: Number(m.records_per_second),
        vacuumSeconds: Number(m.vacuum_seconds),
        ...(m.per_million === null ? {} : { perMillion: JSON.parse(m.per_million) }),
      };
    } else {
      if (state.kind === "foreign") {
        throw new Error(
          `${where} holds tables the benchmark did not create (no ${MARKER_TABLE} table):` +
            " left alone; pass another --schema",
        );
      }
      if (state.kind === "benchmark") {
        log(
          state.marker === undefined
            ? `${where} holds an interrupted load: dropping it`
            : `${where} holds another data set (${state.marker.fingerprint}): dropping it`,
        );
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
      }
      if (state.kind !== "empty") await admin.query(`CREATE SCHEMA ${schema}`);
      // Created before the load: the proof that the schema is the benchmark's to drop.
      await admin.query(
        `CREATE TABLE ${schema}.${MARKER_TABLE} (fingerprint TEXT NOT NULL,` +
          " load_seconds DOUBLE PRECISION NOT NULL, records_per_second DOUBLE PRECISION NOT NULL," +
          " vacuum_seconds DOUBLE PRECISION NOT NULL, per_million TEXT," +
          " loaded_at TIMESTAMPTZ NOT NULL DEFAULT now())",
      );
      log(`importing into ${where} (one transaction) ...`);
      const store = await createStore({ databaseUrl: schemaUrl });
      try {
        load = await importForBenchmark(store, generated.jsonlPath, log);
      } finally {
        await store.close();
      }
      // Statistics for the planner and a set visibility map from the first request on, as
      // autovacuum would leave them some time after an import.
      log("VACUUM (ANALYZE) of the loaded tables ...");
      const started = performance.now();
      await admin.query(
        `VACUUM (ANALYZE) ${LOADED_TABLES.map((t) => `${schema}.${t}`).join(", ")}`,
      );
      load.vacuumSeconds = (performance.now() - started) / 1000;
      await admin.query(
        `INSERT INTO ${schema}.${MARKER_TABLE} (fingerprint, load_seconds, records_per_second,` +
          " vacuum_seconds, per_million) VALUES ($1, $2, $3, $4, $5)",
        [
          fingerprint,
          load.seconds,
          load.recordsPerSecond,
          load.vacuumSeconds,
          JSON.stringify(load.perMillion ?? []),
        ],
      );
    }
    const postgres = await describePostgres(admin, schema);
    return { ...generated, databaseUrl: schemaUrl, load, postgres };
  } finally {
    await endClient(admin);
  }
}

export async function describePostgres(client: pg.Client, schema: string): Promise<PostgresInfo> {
  const version = await client.query<{ server_version: string }>("SHOW server_version");
  const settings = await client.query<{ name: string; value: string }>(
    "SELECT name, current_setting(name) AS value FROM unnest($1::text[]) WITH ORDINALITY AS s(name, o) ORDER BY o",
    [REPORTED_SETTINGS],
  );
  const server = await client.query<{ address: string | null; database: string; bytes: string }>(
    `SELECT host(inet_server_addr()) AS address, current_database() AS database,
            (SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c
               JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = $1 AND c.relkind = 'r') AS bytes`,
    [schema],
  );
  const row = server.rows[0]!;
  return {
    version: version.rows[0]!.server_version,
    settings: settings.rows,
    ...serverLocation(row.address),
    database: row.database,
    schema,
    sizeBytes: Number(row.bytes),
  };
}

/** The server's address as it sees the connection: a socket, loopback, or one of ours. */
export function serverLocation(address: string | null): { location: string; sameMachine: boolean } {
  if (address === null) return { location: "a Unix socket", sameMachine: true };
  const ipv4 = address.replace(/^::ffff:/, "");
  if (ipv4.startsWith("127.") || address === "::1") {
    return { location: `TCP over loopback, ${address}`, sameMachine: true };
  }
  const ours = Object.values(os.networkInterfaces()).flatMap((list) =>
    (list ?? []).map((i) => i.address),
  );
  return ours.includes(address) || ours.includes(ipv4)
    ? { location: `TCP to ${address}, an address of this machine`, sameMachine: true }
    : { location: `TCP to ${address}`, sameMachine: false };
}

export interface CommitWatch {
  /** Notifications on the transfers channel since the watch started. */
  count(): number;
  stop(): Promise<void>;
}

/**
 * Counts the notifications that commits to `transfers` send (migration 4). The channel is the
 * database's, not the schema's: any process writing transfers anywhere in that database empties
 * the API's response cache, and the report says how often that happened during the run.
 */
export async function watchTransferCommits(databaseUrl: string): Promise<CommitWatch> {
  const client = await connect(databaseUrl);
  let count = 0;
  client.on("notification", (message) => {
    if (message.channel === TRANSFERS_CHANGED_CHANNEL) count++;
  });
  await client.query(`LISTEN ${TRANSFERS_CHANGED_CHANNEL}`);
  return { count: () => count, stop: () => endClient(client) };
}
