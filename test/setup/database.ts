/**
 * Isolated databases for integration tests, for both backends:
 *   const db = await setupIsolatedDatabase("postgres"); ... createStore({ databaseUrl: db.databaseUrl })
 *   ... await db.cleanup();
 * SQLite: a fresh file in a temporary directory. PostgreSQL: a fresh schema with a random name
 * in the database of DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), selected
 * through the URL's `options=-c search_path=...`, dropped by cleanup(). When PostgreSQL is not
 * reachable, setup rejects with a message saying so: such tests fail, they never skip.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { redactUrl } from "../../src/redact-url.js";

export type DatabaseBackend = "sqlite" | "postgres";

export const DEFAULT_POSTGRES_TEST_URL = "postgres://postgres@127.0.0.1:5432/test";

export function postgresTestUrl(): string {
  const url = process.env.DATABASE_URL;
  return url !== undefined && /^postgres(ql)?:\/\//.test(url) ? url : DEFAULT_POSTGRES_TEST_URL;
}

export interface IsolatedDatabase {
  backend: DatabaseBackend;
  /** Pass to createStore({ databaseUrl }). */
  databaseUrl: string;
  /** Removes the database (file or schema). Close stores on it first. */
  cleanup(): Promise<void>;
}

function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", `-c search_path=${schema}`);
  return parsed.toString();
}

export async function connectAdmin(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `PostgreSQL is required for this test but is not reachable at ${redactUrl(url)}` +
        ` (set DATABASE_URL): ${(error as Error).message}`,
    );
  }
  return client;
}

export async function setupIsolatedDatabase(backend: DatabaseBackend): Promise<IsolatedDatabase> {
  if (backend === "sqlite") {
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-test-"));
    return {
      backend,
      databaseUrl: join(dir, "store.db"),
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const baseUrl = postgresTestUrl();
  const schema = `test_${randomBytes(6).toString("hex")}`;
  const admin = await connectAdmin(baseUrl);
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  return {
    backend,
    databaseUrl: withSearchPath(baseUrl, schema),
    async cleanup() {
      const client = await connectAdmin(baseUrl);
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface OwnPostgresDatabase {
  readonly url: string;
  /** pg_stat_database.xact_commit of the database (as reported so far). */
  committed(): Promise<number>;
  drop(): Promise<void>;
}

/**
 * A PostgreSQL database of its own on the DATABASE_URL server (not a schema in the shared one):
 * its xact_commit counts only what the test's connections do, and NOTIFY, which is per
 * database, carries only their changes. drop() removes it (connections included).
 */
export async function createOwnPostgresDatabase(): Promise<OwnPostgresDatabase> {
  const base = postgresTestUrl();
  const name = `test_own_${randomBytes(5).toString("hex")}`;
  const admin = await connectAdmin(base);
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // Read from the base database: the reading is no transaction of this one.
    async committed() {
      const client = await connectAdmin(base);
      try {
        const { rows } = await client.query<{ n: string }>(
          "SELECT xact_commit AS n FROM pg_stat_database WHERE datname = $1",
          [name],
        );
        return Number(rows[0]?.n ?? 0);
      } finally {
        await client.end();
      }
    },
    async drop() {
      const client = await connectAdmin(base);
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
