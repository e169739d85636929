/**
 * Builds the API over a real, isolated store (SQLite temp file or PostgreSQL schema) seeded with
 * `records`, for tests through app.inject(). `logs` collects the app's JSON log lines.
 */
import type { FastifyInstance } from "fastify";
import { type BuildAppOptions, buildApp } from "../../src/api/app.js";
import { loadConfig } from "../../src/config/env.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { type DatabaseBackend, setupIsolatedDatabase } from "../setup/database.js";

export interface ApiHarness {
  app: FastifyInstance;
  store: Store;
  /** The isolated database the store is on. */
  databaseUrl: string;
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

export function createLogCollector() {
  const logs: Record<string, unknown>[] = [];
  return {
    logs,
    destination: { write: (line: string) => void logs.push(JSON.parse(line)) },
  };
}

/** An app over `store` (not closed by close()), logging at `level` into `logs`. */
export async function buildTestApp(
  store: Store,
  options: Partial<BuildAppOptions> & { logLevel?: string } = {},
): Promise<{ app: FastifyInstance; logs: Record<string, unknown>[] }> {
  const collector = createLogCollector();
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: options.logLevel ?? "debug" }),
    store,
    logDestination: collector.destination,
    ...options,
  });
  return { app, logs: collector.logs };
}

export async function setupApi(
  backend: DatabaseBackend,
  records: readonly BridgeTransaction[],
): Promise<ApiHarness> {
  const db = await setupIsolatedDatabase(backend);
  const store = await createStore({ databaseUrl: db.databaseUrl });
  try {
    await store.transfers.upsertTransfers(records);
    const { app, logs } = await buildTestApp(store, { logLevel: "warn" });
    return {
      app,
      store,
      databaseUrl: db.databaseUrl,
      logs,
      async close() {
        await app.close();
        await store.close();
        await db.cleanup();
      },
    };
  } catch (error) {
    await store.close();
    await db.cleanup();
    throw error;
  }
}
