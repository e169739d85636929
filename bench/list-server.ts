/**
 * A server process for the list benchmark, run by bench/list.ts in its own process so that the
 * server and the load generator (autocannon) each get a core:
 *
 *   node --import tsx bench/list-server.ts app DATABASE [no-cache]
 *     the real API (buildApp) on a SQLite database file, or with DATABASE `-` on the database of
 *     the DATABASE_URL environment variable (PostgreSQL: with serve's connection bounds), with
 *     its response cache (the default) or, with `no-cache`, without it (LIST_CACHE_MB=0: every
 *     request queries the database); `no-stream-limit` lifts the per-client limit of concurrent
 *     streams (STREAM_MAX_PER_CLIENT=0), for bench/push.ts's 1,000 streams from one address;
 *   node --import tsx bench/list-server.ts baseline CANNED_JSON
 *     a bare Fastify server: GET /api/oracle/bridge-transactions answers a canned envelope of
 *     the same size as the real one (chosen by pageSize and whether the query is a hash) with
 *     the API's own response schema, and GET /hello answers {"hello":"world"}.
 *
 * Prints one line `{"port":N}` on stdout when listening on 127.0.0.1; stops on SIGTERM/SIGINT.
 */
import { readFile } from "node:fs/promises";
import Fastify, { type FastifyInstance } from "fastify";
import { buildApp } from "../src/api/app.js";
import { listTransfersRouteSchema } from "../src/api/schemas/list-transfers.js";
import { registerSharedSchemas } from "../src/api/schemas/shared.js";
import { loadConfig } from "../src/config/env.js";
import { API_POSTGRES_TIMEOUTS, createStore } from "../src/store/index.js";
import type { Store } from "../src/store/types.js";

/** Canned bodies by request kind; written by bench/list.ts from real responses. */
export interface CannedBodies {
  page10: unknown;
  page50: unknown;
  hash: unknown;
}

async function startApp(
  databaseUrl: string,
  flags: readonly string[],
): Promise<{ app: FastifyInstance; store: Store }> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "warn",
    ...(flags.includes("no-cache") ? { LIST_CACHE_MB: "0" } : {}),
    ...(flags.includes("no-stream-limit") ? { STREAM_MAX_PER_CLIENT: "0" } : {}),
  });
  // As serve opens it (src/cli/serve.ts): on PostgreSQL, the API's connect and query bounds.
  const store = await createStore({ databaseUrl, timeouts: API_POSTGRES_TIMEOUTS });
  return { app: await buildApp({ config, store }), store };
}

async function startBaseline(cannedPath: string): Promise<FastifyInstance> {
  const canned = JSON.parse(await readFile(cannedPath, "utf8")) as CannedBodies;
  const app = Fastify({ logger: false });
  registerSharedSchemas(app);
  app.get("/api/oracle/bridge-transactions", {
    schema: { response: { 200: listTransfersRouteSchema.response[200] } },
    handler: async (request) => {
      const query = request.query as Record<string, string | undefined>;
      if ((query.addressOrTxHash ?? "").length === 66) return canned.hash;
      return query.pageSize === "50" ? canned.page50 : canned.page10;
    },
  });
  app.get("/hello", async () => ({ hello: "world" }));
  return app;
}

async function main(): Promise<void> {
  const [mode, path, ...flags] = process.argv.slice(2);
  if ((mode !== "app" && mode !== "baseline") || path === undefined) {
    process.stderr.write(
      "usage: list-server.ts app DATABASE|- [no-cache] [no-stream-limit] | baseline CANNED_JSON\n",
    );
    process.exit(2);
  }
  let store: Store | undefined;
  let app: FastifyInstance;
  if (mode === "app") {
    const databaseUrl = path === "-" ? (process.env.DATABASE_URL ?? "") : path;
    ({ app, store } = await startApp(databaseUrl, flags));
  } else {
    app = await startBaseline(path);
  }
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ port })}\n`);
  const stop = async (): Promise<void> => {
    await app.close();
    await store?.close();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

await main();
