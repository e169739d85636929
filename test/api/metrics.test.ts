/**
 * Operations: Prometheus metrics at /metrics (request counts and latency by route pattern,
 * method and status; indexer progress per chain from a callback; quotes by bridge kind; runtime
 * metrics; a Registry per app; exempt from rate limits and API keys), JSON logs with the request
 * id on every line and in a 500's msg, and a clean shutdown with /metrics in the app.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import type { BuildAppOptions } from "../../src/api/app.js";
import { registerApiKeyAuth } from "../../src/api/plugins/auth.js";
import {
  type IndexerChainProgress,
  indexerProgressFrom,
  METRIC_NAMES,
} from "../../src/api/plugins/metrics.js";
import { registerRateLimit } from "../../src/api/plugins/rate-limit.js";
import { startServer } from "../../src/api/server.js";
import { run as serve } from "../../src/cli/serve.js";
import { loadConfig } from "../../src/config/env.js";
import { createMemoryRateLimitCounter } from "../../src/keys/rate-limit-counter.js";
import { createRouter } from "../../src/router/create-router.js";
import { createRouterFixture } from "../../src/router/fixtures.js";
import { openDatabase } from "../../src/store/index.js";
import { createMemoryApiKeyRepository } from "../keys/memory-api-key-repository.js";
import { eventually } from "../setup/eventually.js";
import { freePort } from "../setup/free-port.js";
import { createFakeStore } from "./fake-store.js";
import { buildTestApp, createLogCollector } from "./setup.js";

const LIST = "/api/oracle/bridge-transactions";
const GOOD_QUERY = `${LIST}?addressOrTxHash=0x52908400098527886E0F7030069857D2E4169EE7&pageNo=1&pageSize=5`;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text format into samples (enough of it for these metrics). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    assert.ok(match !== null, `unparsable line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] ?? ""] = pair[2] ?? "";
    }
    samples.push({ name: match[1] ?? "", labels, value: Number(match[3]) });
  }
  return samples;
}

function find(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
}

function sampleValue(samples: Sample[], name: string, labels: Record<string, string>): number {
  const found = find(samples, name, labels);
  assert.equal(found.length, 1, `${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return (found[0] as Sample).value;
}

async function scrape(app: FastifyInstance, headers: Record<string, string> = {}) {
  const response = await app.inject({ url: "/metrics", headers });
  assert.equal(response.statusCode, 200, response.body);
  assert.match(String(response.headers["content-type"]), /^text\/plain; version=0\.0\.4/);
  return parseExposition(response.body);
}

async function withApp<T>(
  options: Partial<BuildAppOptions> & { logLevel?: string },
  fn: (app: FastifyInstance, logs: Record<string, unknown>[]) => Promise<T>,
): Promise<T> {
  const { app, logs } = await buildTestApp(options.store ?? createFakeStore(), {
    logLevel: "warn",
    ...options,
  });
  try {
    await app.ready();
    return await fn(app, logs);
  } finally {
    await app.close();
  }
}

/** One chain's progress as the callback reports it; tests override what they look at. */
const progress: IndexerChainProgress = {
  chain: "alpha",
  chainId: 1,
  indexedBlock: 0,
  head: 0,
  lag: 0,
  stopped: false,
  retrying: false,
  updatedAt: 1_795_000_000,
};

describe("/metrics: HTTP requests", () => {
  it("default: counts and times requests by route pattern, method and status code", async () => {
    await withApp({}, async (app) => {
      for (const url of [GOOD_QUERY, GOOD_QUERY, `${LIST}?pageNo=1`, "/healthz", "/nope/x"]) {
        await app.inject({ url });
      }
      await app.inject({ method: "POST", url: LIST, payload: {} }); // 405
      await app.inject({ method: "HEAD", url: GOOD_QUERY });
      const samples = await scrape(app);

      const requests = METRIC_NAMES.httpRequests;
      const ok = { route: LIST, method: "GET", status_code: "200" };
      assert.equal(sampleValue(samples, requests, ok), 2);
      assert.equal(sampleValue(samples, requests, { ...ok, status_code: "400" }), 1);
      assert.equal(sampleValue(samples, requests, { ...ok, method: "HEAD" }), 1);
      assert.equal(
        sampleValue(samples, requests, { route: "/healthz", method: "GET", status_code: "200" }),
        1,
      );
      // Unmatched paths share one label value: the raw URL never becomes a label.
      assert.equal(
        sampleValue(samples, requests, { route: "unmatched", method: "GET", status_code: "404" }),
        1,
      );
      assert.equal(
        sampleValue(samples, requests, { route: "unmatched", method: "POST", status_code: "405" }),
        1,
      );
      for (const s of find(samples, requests)) {
        assert.deepEqual(Object.keys(s.labels).sort(), ["method", "route", "status_code"]);
        assert.ok(!s.labels.route?.includes("?"), s.labels.route);
        assert.ok(!s.labels.route?.includes("/nope"), s.labels.route);
      }

      const duration = METRIC_NAMES.httpDuration;
      assert.equal(sampleValue(samples, `${duration}_count`, ok), 2);
      assert.ok(
        sampleValue(samples, `${duration}_sum`, ok) > 0,
        "the request duration histogram's _sum is positive",
      );
      const buckets = find(samples, `${duration}_bucket`, ok);
      // Sub-millisecond buckets: most answers take well under a millisecond.
      assert.deepEqual(
        buckets.slice(0, 3).map((b) => b.labels.le),
        ["0.00025", "0.0005", "0.001"],
      );
      assert.equal(buckets.find((b) => b.labels.le === "+Inf")?.value, 2);
    });
  });

  it("behavior: the router's state age per chain, in seconds since it was read", async () => {
    const fixture = createRouterFixture({ readAtMs: 1_000_000 });
    const beta = fixture.chain("beta").chainId;
    let stale = false;
    const router = {
      router: createRouter({ registry: fixture.registry }),
      state: {
        current: () => {
          if (!stale) return fixture.snapshot;
          // beta's reads fail from here on: its last state ages.
          const chains = new Map(
            [...fixture.snapshot.chains].map(([id, state]) => [
              id,
              id === beta ? state : { ...state, readAtMs: 1_030_000 },
            ]),
          );
          return { ...fixture.snapshot, chains };
        },
      },
      maxStateAgeMs: 15_000,
      now: () => (stale ? 1_032_000 : 1_002_500),
    };
    await withApp({ router }, async (app) => {
      const age = METRIC_NAMES.routerStateAge;
      let samples = await scrape(app);
      assert.equal(
        sampleValue(samples, age, {
          chain: "alpha",
          chain_id: String(fixture.chain("alpha").chainId),
        }),
        2.5,
      );
      stale = true;
      samples = await scrape(app);
      assert.equal(
        sampleValue(samples, age, {
          chain: "alpha",
          chain_id: String(fixture.chain("alpha").chainId),
        }),
        2,
      );
      assert.equal(sampleValue(samples, age, { chain: "beta", chain_id: String(beta) }), 32);
    });
    // Without a router registry there is nothing to age: no series.
    await withApp({}, async (app) => {
      assert.equal(find(await scrape(app), METRIC_NAMES.routerStateAge).length, 0);
    });
  });

  it("behavior: with a shared counter (REDIS_URL), whether counts are shared right now", async () => {
    let shared = true;
    const memory = createMemoryRateLimitCounter();
    const counter = {
      hit: memory.hit,
      close: memory.close,
      sharing: () => ({ redis: "redis://127.0.0.1:6379/0", shared }),
    };
    await withApp(
      { plugins: [(a) => registerRateLimit(a, { anonymousPerMinute: 0, counter })] },
      async (app) => {
        assert.equal(sampleValue(await scrape(app), METRIC_NAMES.rateLimitShared, {}), 1);
        shared = false; // Redis failing: each process counts alone
        assert.equal(sampleValue(await scrape(app), METRIC_NAMES.rateLimitShared, {}), 0);
      },
    );
    // Counting per process by design (no REDIS_URL): no series.
    await withApp(
      { plugins: [(a) => registerRateLimit(a, { anonymousPerMinute: 0 })] },
      async (app) => {
        assert.equal(find(await scrape(app), METRIC_NAMES.rateLimitShared).length, 0);
      },
    );
  });

  it("behavior: process and Node.js runtime metrics are exposed", async () => {
    await withApp({}, async (app) => {
      const samples = await scrape(app);
      for (const name of [
        "process_cpu_user_seconds_total",
        "process_resident_memory_bytes",
        "nodejs_heap_size_used_bytes",
        "nodejs_eventloop_lag_seconds",
      ]) {
        assert.equal(find(samples, name).length, 1, name);
      }
    });
  });

  it("behavior: each app has its own registry; two apps never share counts", async () => {
    await withApp({}, async (first) => {
      await withApp({}, async (second) => {
        await first.inject({ url: "/healthz" });
        await first.inject({ url: "/healthz" });
        await second.inject({ url: "/healthz" });
        const label = { route: "/healthz", method: "GET", status_code: "200" };
        assert.equal(sampleValue(await scrape(first), METRIC_NAMES.httpRequests, label), 2);
        assert.equal(sampleValue(await scrape(second), METRIC_NAMES.httpRequests, label), 1);
        assert.notEqual(first.metrics.registry, second.metrics.registry);
      });
    });
  });
});

describe("/metrics: indexer progress", () => {
  const labelsOf = (chain: string, chainId: number) => ({ chain, chain_id: String(chainId) });

  it("default: indexerProgressFrom maps the indexer_chains rows, stopped and update time included", async () => {
    const row = {
      chainId: 71001,
      name: "alpha",
      startBlock: 0,
      cursorBlock: 120,
      cursorHash: `0x${"ab".repeat(32)}`,
      headBlock: 125,
      targetBlock: 124,
      state: "stopped" as const,
      error: "reorg deeper than finality",
      updatedAt: "2026-11-22 01:02:03",
      lag: 5,
      leader: "indexer-1:4242",
    };
    const read = indexerProgressFrom({ getIndexerStatus: async () => [row] });
    assert.deepEqual(await read(), [
      {
        chain: "alpha",
        chainId: 71001,
        indexedBlock: 120,
        head: 125,
        lag: 5,
        stopped: true,
        retrying: false,
        updatedAt: Date.UTC(2026, 10, 22, 1, 2, 3) / 1000,
        leader: "indexer-1:4242",
      },
    ]);
    const following = await indexerProgressFrom({
      getIndexerStatus: async () => [{ ...row, state: "following" as const }],
    })();
    assert.equal(following[0]?.stopped, false);
    // A chain with an error that is not stopped is retrying a failed step.
    assert.equal(following[0]?.retrying, true);
    const healthy = await indexerProgressFrom({
      getIndexerStatus: async () => [{ ...row, state: "following" as const, error: "" }],
    })();
    assert.equal(healthy[0]?.retrying, false);
  });

  it("default: gauges per chain from the callback, read on every scrape", async () => {
    let chains: IndexerChainProgress[] = [
      { ...progress, chain: "alpha", chainId: 31337, indexedBlock: 120, head: 125, lag: 5 },
      { ...progress, chain: "beta", chainId: 31338, indexedBlock: 80, head: 80, stopped: true },
      { ...progress, chain: "gamma", chainId: 31339, retrying: true },
    ];
    let calls = 0;
    const collectIndexerStatus = async () => {
      calls += 1;
      return chains;
    };
    await withApp({ metrics: { collectIndexerStatus } }, async (app) => {
      const first = await scrape(app);
      assert.equal(calls, 1);
      assert.equal(sampleValue(first, METRIC_NAMES.indexerLag, labelsOf("alpha", 31337)), 5);
      assert.equal(sampleValue(first, METRIC_NAMES.indexerLag, labelsOf("beta", 31338)), 0);
      assert.equal(
        sampleValue(first, METRIC_NAMES.indexerIndexedBlock, labelsOf("alpha", 31337)),
        120,
      );
      assert.equal(
        sampleValue(first, METRIC_NAMES.indexerHeadBlock, labelsOf("alpha", 31337)),
        125,
      );
      assert.equal(sampleValue(first, METRIC_NAMES.indexerStatusUp, {}), 1);
      assert.equal(sampleValue(first, METRIC_NAMES.indexerStopped, labelsOf("alpha", 31337)), 0);
      assert.equal(sampleValue(first, METRIC_NAMES.indexerStopped, labelsOf("beta", 31338)), 1);
      assert.equal(sampleValue(first, METRIC_NAMES.indexerRetrying, labelsOf("alpha", 31337)), 0);
      assert.equal(sampleValue(first, METRIC_NAMES.indexerRetrying, labelsOf("gamma", 31339)), 1);
      assert.equal(
        sampleValue(first, METRIC_NAMES.indexerLastUpdate, labelsOf("beta", 31338)),
        progress.updatedAt,
      );

      // A chain that is no longer reported disappears; the others move.
      chains = [
        { ...progress, chain: "alpha", chainId: 31337, indexedBlock: 125, head: 126, lag: 1 },
      ];
      const second = await scrape(app);
      assert.equal(calls, 2);
      assert.equal(sampleValue(second, METRIC_NAMES.indexerLag, labelsOf("alpha", 31337)), 1);
      assert.equal(find(second, METRIC_NAMES.indexerLag, { chain: "beta" }).length, 0);
    });
  });

  it("error: a failing or hanging callback still answers the scrape, with status_up 0", async () => {
    let mode: "fail" | "hang" = "fail";
    const collectIndexerStatus = () =>
      mode === "fail"
        ? Promise.reject(new Error("database is locked"))
        : new Promise<IndexerChainProgress[]>(() => {});
    await withApp(
      { metrics: { collectIndexerStatus, indexerStatusTimeoutMs: 100 } },
      async (app, logs) => {
        const failed = await scrape(app);
        assert.equal(sampleValue(failed, METRIC_NAMES.indexerStatusUp, {}), 0);
        assert.equal(find(failed, METRIC_NAMES.indexerLag).length, 0);
        assert.ok(
          logs.some((l) => String(l.msg).includes("cannot read the indexer status")),
          'logs.some((l) => String(l.msg).includes("cannot read the indexer status"))',
        );

        mode = "hang";
        const started = Date.now();
        const hung = await scrape(app);
        assert.ok(Date.now() - started < 2000, "Date.now() - started < 2000");
        assert.equal(sampleValue(hung, METRIC_NAMES.indexerStatusUp, {}), 0);
      },
    );
  });

  it("behavior: without a callback there are no indexer series", async () => {
    await withApp({}, async (app) => {
      const samples = await scrape(app);
      assert.equal(find(samples, METRIC_NAMES.indexerStatusUp).length, 0);
      assert.equal(find(samples, METRIC_NAMES.indexerLag).length, 0);
    });
  });
});

describe("/metrics: quotes", () => {
  it("default: app.metrics.recordQuote counts quotes by bridge_type", async () => {
    const { app } = await buildTestApp(createFakeStore(), { logLevel: "warn" });
    try {
      // Stands in for the router route, which records the chosen kind of each quote it serves.
      app.post("/test/quote", async (request) => {
        const { bridgeType } = request.body as { bridgeType: number };
        app.metrics.recordQuote(bridgeType);
        return { code: 0, msg: "success", data: { bridgeType } };
      });
      await app.ready();
      for (const bridgeType of [0, 2, 2, 1, 2]) {
        const response = await app.inject({
          method: "POST",
          url: "/test/quote",
          payload: { bridgeType },
        });
        assert.equal(response.statusCode, 200);
      }
      const samples = await scrape(app);
      assert.equal(sampleValue(samples, METRIC_NAMES.quotes, { bridge_type: "0" }), 1);
      assert.equal(sampleValue(samples, METRIC_NAMES.quotes, { bridge_type: "1" }), 1);
      assert.equal(sampleValue(samples, METRIC_NAMES.quotes, { bridge_type: "2" }), 3);
    } finally {
      await app.close();
    }
  });
});

describe("/metrics: rate limits and API keys", () => {
  it("behavior: scrapes are never rate limited and ignore the Authorization header", async () => {
    await withApp(
      {
        plugins: [
          (a) => registerApiKeyAuth(a, { repository: createMemoryApiKeyRepository() }),
          (a) => registerRateLimit(a, { anonymousPerMinute: 1 }),
        ],
      },
      async (app) => {
        // Controls: the limit and the key check are really on.
        assert.equal((await app.inject({ url: GOOD_QUERY })).statusCode, 200);
        assert.equal((await app.inject({ url: GOOD_QUERY })).statusCode, 429);
        const badKey = { authorization: "Bearer bo_unknownkey0000000000000000000000" };
        // The probes are neither rate limited nor judge keys: a stray header must not fail them.
        assert.equal((await app.inject({ url: "/healthz", headers: badKey })).statusCode, 200);
        assert.equal((await app.inject({ url: "/readyz", headers: badKey })).statusCode, 200);

        for (let i = 0; i < 5; i += 1) await scrape(app);
        const samples = await scrape(app, badKey);
        assert.equal(
          sampleValue(samples, METRIC_NAMES.httpRequests, {
            route: LIST,
            method: "GET",
            status_code: "429",
          }),
          1,
        );
      },
    );
  });
});

describe("operations: logs and shutdown", () => {
  it("behavior: every log line of a request carries its id; a 500's msg carries it too", async () => {
    const store = createFakeStore({
      listTransfers: async () => {
        throw new Error("SELECT * FROM transfers: disk I/O error");
      },
    });
    await withApp({ store, logLevel: "debug" }, async (app, logs) => {
      logs.length = 0;
      const response = await app.inject({ url: GOOD_QUERY });
      assert.equal(response.statusCode, 500);
      const id = String(response.headers["x-request-id"]);
      assert.ok(id.length > 0, "id.length > 0");
      const body = response.json() as { code: number; msg: string };
      assert.equal(body.code, 50001);
      assert.ok(body.msg.includes(id), body.msg);
      assert.doesNotMatch(body.msg, /SELECT|disk/);
      // Every line written while the request ran belongs to it: incoming, the error, completed.
      assert.ok(logs.length >= 3, JSON.stringify(logs));
      for (const line of logs) {
        assert.equal(line.reqId, id, JSON.stringify(line));
        assert.equal(typeof line.level, "number");
        assert.equal(typeof line.time, "number");
      }
      assert.ok(
        logs.some((l) => l.level === 50 && JSON.stringify(l.err).includes("disk I/O")),
        'logs.some((l) => l.level === 50 && JSON.stringify(l.err).includes("disk I/O"))',
      );
    });
  });

  it("behavior: close finishes an in-flight scrape and stops", async () => {
    const collector = createLogCollector();
    let release: (() => void) | undefined;
    const collectIndexerStatus = () =>
      new Promise<IndexerChainProgress[]>((resolve) => {
        release = () =>
          resolve([{ ...progress, chain: "alpha", indexedBlock: 9, head: 10, lag: 1 }]);
      });
    const server = await startServer({
      config: loadConfig({ LOG_LEVEL: "warn", HOST: "127.0.0.1" }),
      store: createFakeStore(),
      logDestination: collector.destination,
      metrics: { collectIndexerStatus },
      port: 0,
    });
    const scrapeInFlight = fetch(`${server.url}/metrics`);
    // In flight once the scrape is collecting the indexer status (which waits for release).
    await eventually(5000, () => assert.ok(release !== undefined, "the scrape is collecting"));
    const closed = server.close();
    release?.();
    const response = await scrapeInFlight;
    assert.equal(response.status, 200);
    assert.match(await response.text(), /bridge_oracle_indexer_lag_blocks\{chain="alpha"/);
    await closed;
    await assert.rejects(fetch(`${server.url}/healthz`));
  });
});

describe("bridge-oracle serve: /metrics", () => {
  it("default: reports each indexed chain's progress from the database", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-metrics-"));
    const databaseUrl = join(dir, "db.sqlite");
    try {
      // What an indexer process leaves in the shared database.
      const indexer = await openDatabase(databaseUrl);
      await indexer.indexer.ensureChain({
        chainId: 71001,
        name: "devnet-a",
        startBlock: 1,
        cursorBlock: 40,
        cursorHash: `0x${"11".repeat(32)}`,
        headBlock: 47,
        targetBlock: 46,
        state: "following",
        error: "",
        updatedAt: "2026-11-21 12:00:00",
      });
      await indexer.close();

      const port = await freePort();
      let stop: (signal: string) => void = () => {};
      const exitCode = serve([], {
        env: { PORT: String(port), DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
        stopSignal: new Promise((resolve) => {
          stop = resolve;
        }),
      });
      let text = "";
      const deadline = Date.now() + 15_000;
      while (text === "") {
        const response = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined);
        if (response?.status === 200) text = await response.text();
        else if (Date.now() > deadline) throw new Error("serve did not answer /metrics");
        else await new Promise((r) => setTimeout(r, 50));
      }
      const samples = parseExposition(text);
      const labels = { chain: "devnet-a", chain_id: "71001" };
      // Behind the confirmed head (target 46), not the head (47).
      assert.equal(sampleValue(samples, METRIC_NAMES.indexerLag, labels), 6);
      assert.equal(sampleValue(samples, METRIC_NAMES.indexerIndexedBlock, labels), 40);
      assert.equal(sampleValue(samples, METRIC_NAMES.indexerHeadBlock, labels), 47);
      assert.equal(sampleValue(samples, METRIC_NAMES.indexerStopped, labels), 0);
      assert.equal(
        sampleValue(samples, METRIC_NAMES.indexerLastUpdate, labels),
        Date.UTC(2026, 10, 21, 12) / 1000,
      );
      assert.equal(sampleValue(samples, METRIC_NAMES.indexerStatusUp, {}), 1);
      stop("SIGTERM");
      assert.equal(await exitCode, 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
