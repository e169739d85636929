/**
 * A server process for the router benchmark, run by bench/router.ts in its own process:
 *
 *   node --import tsx bench/router-server.ts app EXTRA_TOKENS [no-memo] [spec-only]
 *     the real API (buildApp) with API-key auth (a key created in a temporary SQLite database),
 *     rate limiting (a limit high enough never to refuse, so the counter still runs) and the
 *     router route over the fixture snapshot (a static provider republishing it each second,
 *     as the chain provider does for idle chains): no chain needed. Prints {"port","key"}.
 *     Also POST /bench/app-canned-quote: the same app stack answering one precomputed quote,
 *     to tell the router's own cost from the app's. With `no-memo` the router's per-snapshot
 *     quote memo is off, so every request is validated and priced. Quotes carry the fields
 *     beside the spec's (transactionRequest, approval, stateBlocks, expiresAt and an
 *     estimatedDuration from 20 synthetic settled transfers per bridge and chain pair); with
 *     `spec-only` they carry the spec's four fields only, to measure what the others cost.
 *   node --import tsx bench/router-server.ts baseline CANNED_JSON
 *     a bare Fastify server whose POST /api/oracle/router parses the JSON body and answers a
 *     canned quote envelope of the same size through the route's response schema. Also POST
 *     BARE_TEXT_PATH, the canned text sent as is, and BARE_SPEC_TEXT_PATH, the same without the
 *     fields beside the spec's: what the added bytes alone cost. Prints {"port"}.
 *
 * Stops on SIGTERM/SIGINT. With BENCH_GC_FILE set, writes the garbage collections it saw from
 * listening to stopping (PerformanceObserver "gc" entries: young-generation scavenges apart from
 * the rest) to that file as JSON first.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants, PerformanceObserver } from "node:perf_hooks";
import Fastify, { type FastifyInstance } from "fastify";
import { buildApp } from "../src/api/app.js";
import { registerApiKeyAuth } from "../src/api/plugins/auth.js";
import { registerRateLimit } from "../src/api/plugins/rate-limit.js";
import {
  routerQuoteRouteSchema,
  routerQuoteSpecOnlyRouteSchema,
} from "../src/api/schemas/router-quote.js";
import { loadConfig } from "../src/config/env.js";
import { generateApiKey } from "../src/keys/api-key.js";
import { createRouter } from "../src/router/create-router.js";
import type { RouterFixture } from "../src/router/fixtures.js";
import { createRouterFixture } from "../src/router/fixtures.js";
import { createDurationEstimator } from "../src/router/providers/duration-estimator.js";
import { createStaticStateProvider } from "../src/router/providers/static-state-provider.js";
import { openDatabase } from "../src/store/index.js";
import {
  ADDED_QUOTE_FIELDS,
  APP_CANNED_PATH,
  BARE_SPEC_TEXT_PATH,
  BARE_TEXT_PATH,
  type GcStats,
} from "./router-requests.js";

/** 20 settled transfers of every bridge between every pair of chains, 5 to 100 s each. */
function syntheticSettlements(fixture: RouterFixture) {
  const at = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace("T", " ");
  const now = Date.now();
  return fixture.registry.chains.flatMap((source) =>
    fixture.registry.chains.flatMap((dest) =>
      Object.values(source.bridges).flatMap((bridge) =>
        Array.from({ length: 20 }, (_, i) => ({
          sourceContract: bridge,
          sourceChainName: source.name,
          destChainName: dest.name,
          startTime: at(now - 600_000),
          endTime: at(now - 600_000 + (5 + ((i * 37) % 96)) * 1000),
        })),
      ),
    ),
  );
}

async function startApp(extraTokens: number, memoizeQuotes: boolean, specOnly: boolean) {
  const dir = await mkdtemp(join(tmpdir(), "bench-router-"));
  const databaseUrl = join(dir, "bench.db");
  const store = await openDatabase(databaseUrl);
  const key = generateApiKey();
  await store.apiKeys.createKey({
    name: "bench",
    prefix: key.prefix,
    hash: key.hash,
    createdAt: new Date(),
  });
  // V3 pools in the mix: swaps on USDC/WETH and DAI/USDC price V2 and V3 venues (docs/router.md).
  const fixture = createRouterFixture({ extraTokensPerChain: extraTokens, uniswapV3: true });
  const state = createStaticStateProvider({ snapshot: fixture.snapshot, confirmIntervalMs: 1000 });
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" });
  const settlements = syntheticSettlements(fixture);
  const durations = createDurationEstimator({
    source: { recentSettlements: async () => settlements },
  });
  await durations.refresh();
  const router = createRouter({
    registry: fixture.registry,
    memoizeQuotes,
    extensions: specOnly ? false : { ttlSeconds: 30, estimatedDuration: durations.lookup },
  });
  // The app stack without the router: a quote computed once, answered as is (diagnostic).
  const sample = router.quote(
    {
      sourceChain: "71001",
      sourceToken: fixture.token("alpha", "USDC").address,
      destChain: "71002",
      destToken: fixture.token("beta", "GOV").address,
      amount: "250",
      to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    },
    fixture.snapshot,
  );
  if (!sample.ok) throw new Error(sample.message);
  const cannedEnvelope = { code: 0, msg: "success", data: sample.data };
  const app = await buildApp({
    config,
    store,
    plugins: [
      (root) => registerApiKeyAuth(root, { repository: store.apiKeys }),
      (root) => registerRateLimit(root, { keyPerMinute: 1_000_000_000 }),
      (root) => {
        root.post(APP_CANNED_PATH, {
          schema: {
            response: {
              200: (specOnly ? routerQuoteSpecOnlyRouteSchema : routerQuoteRouteSchema)
                .response[200],
            },
          },
          config: { apiKey: "required" },
          handler: async () => cannedEnvelope,
        });
      },
    ],
    router: {
      router,
      state,
      maxStateAgeMs: config.routerMaxStateAgeMs,
    },
  });
  const close = async () => {
    state.stop();
    await app.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  };
  return { app, key: key.key, close };
}

async function startBaseline(cannedPath: string): Promise<FastifyInstance> {
  const text = await readFile(cannedPath, "utf8");
  const canned = JSON.parse(text) as { data: Record<string, unknown> };
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });
  // The same response schema as the real route, so both serialise the same way.
  app.post("/api/oracle/router", {
    schema: { response: { 200: routerQuoteRouteSchema.response[200] } },
    handler: async () => canned,
  });
  const specData = { ...canned.data };
  for (const field of ADDED_QUOTE_FIELDS) delete specData[field];
  const specText = JSON.stringify({ ...canned, data: specData });
  const JSON_UTF8 = "application/json; charset=utf-8";
  app.post(BARE_TEXT_PATH, async (_request, reply) => reply.type(JSON_UTF8).send(text));
  app.post(BARE_SPEC_TEXT_PATH, async (_request, reply) => reply.type(JSON_UTF8).send(specText));
  return app;
}

/** Counts collections from now on: scavenges (young generation) apart from all others. */
function observeGc(): { stats: GcStats; stop(): void } {
  const stats: GcStats = {
    scavenges: { count: 0, totalMs: 0, maxMs: 0 },
    other: { count: 0, totalMs: 0, maxMs: 0 },
  };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      const bucket = kind === constants.NODE_PERFORMANCE_GC_MINOR ? stats.scavenges : stats.other;
      bucket.count++;
      bucket.totalMs += entry.duration;
      bucket.maxMs = Math.max(bucket.maxMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  return { stats, stop: () => observer.disconnect() };
}

async function main(): Promise<void> {
  const [mode, arg, ...flags] = process.argv.slice(2);
  if ((mode !== "app" && mode !== "baseline") || arg === undefined) {
    process.stderr.write(
      "usage: router-server.ts app EXTRA_TOKENS [no-memo] [spec-only] | baseline CANNED_JSON\n",
    );
    process.exit(2);
  }
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let key: string | undefined;
  if (mode === "app") {
    const started = await startApp(
      Number(arg),
      !flags.includes("no-memo"),
      flags.includes("spec-only"),
    );
    ({ app, key } = started);
    close = started.close;
  } else {
    app = await startBaseline(arg);
    close = () => app.close();
  }
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  const gc = observeGc();
  process.stdout.write(`${JSON.stringify({ port, ...(key === undefined ? {} : { key }) })}\n`);
  const stop = async (): Promise<void> => {
    gc.stop();
    const gcFile = process.env.BENCH_GC_FILE;
    if (gcFile !== undefined && gcFile !== "") await writeFile(gcFile, JSON.stringify(gc.stats));
    await close();
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

await main();
