/**
 * The real API (buildApp) with API-key auth and rate limits over an in-memory key repository, a
 * fake store and the router route over a fixed snapshot: everything on the request path is real,
 * nothing below it (no chain, no database). Counts the calls into the key repository, the store
 * and the state source so tests can prove none happens per request.
 */
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/api/app.js";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import { registerRateLimit } from "../../src/api/plugins/rate-limit.js";
import type { QuoteEvent, RouterRouteDeps } from "../../src/api/routes/router-quote.js";
import { loadConfig } from "../../src/config/env.js";
import { generateApiKey } from "../../src/keys/api-key.js";
import type { Router } from "../../src/router/create-router.js";
import type { StateSnapshot } from "../../src/router/state.js";
import { createFakeStore } from "../api/fake-store.js";
import {
  type CountingApiKeyRepository,
  createMemoryApiKeyRepository,
} from "../keys/memory-api-key-repository.js";

export interface RouterTestApp {
  app: FastifyInstance;
  key: string;
  keys: CountingApiKeyRepository;
  /** Calls of state.current(). */
  stateReads: () => number;
  /** Calls into the store (any method). */
  storeCalls: () => number;
  events: QuoteEvent[];
  setNow(ms: number): void;
  close(): Promise<void>;
}

export async function buildRouterTestApp(options: {
  router: Router | undefined;
  snapshot: StateSnapshot;
  maxStateAgeMs?: number;
  nowMs?: number;
  keyPerMinute?: number;
}): Promise<RouterTestApp> {
  const keys = createMemoryApiKeyRepository();
  const generated = generateApiKey();
  await keys.createKey({
    name: "router-test",
    prefix: generated.prefix,
    hash: generated.hash,
    createdAt: new Date(),
  });
  let storeCalls = 0;
  const fake = createFakeStore();
  const store = new Proxy(fake, {
    get(target, name, receiver) {
      if (name !== "close") storeCalls++;
      return Reflect.get(target, name, receiver);
    },
  });
  let reads = 0;
  let now = options.nowMs ?? Date.now();
  const events: QuoteEvent[] = [];
  const route: RouterRouteDeps = {
    router: options.router,
    state: {
      current: () => {
        reads++;
        return options.snapshot;
      },
    },
    maxStateAgeMs: options.maxStateAgeMs ?? 15_000,
    onQuote: (event) => events.push(event),
    now: () => now,
  };
  const app = await buildApp({
    config: loadConfig({ LOG_LEVEL: "silent" }),
    store,
    plugins: [
      // A long refresh interval: the cache's background polls would blur the call counts.
      (root) => registerApiKeyAuth(root, { repository: keys, refreshIntervalMs: 60_000 }),
      (root) =>
        registerRateLimit(root, {
          anonymousPerMinute: 100,
          keyPerMinute: options.keyPerMinute ?? 0,
        }),
    ],
    router: route,
  });
  await app.ready();
  storeCalls = 0;
  return {
    app,
    key: generated.key,
    keys,
    stateReads: () => reads,
    storeCalls: () => storeCalls,
    events,
    setNow: (ms) => {
      now = ms;
    },
    close: () => app.close(),
  };
}
