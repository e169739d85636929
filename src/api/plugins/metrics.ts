/**
 * Prometheus metrics at `GET /metrics` (prom-client), one Registry per app: two apps in one
 * process (tests, an embedded start) never share or collide on metrics, and nothing touches
 * prom-client's global default registry.
 *
 * What is exposed (names in METRIC_NAMES):
 * - every HTTP request by route pattern (never the raw URL, so the label set stays bounded;
 *   unmatched paths count as "unmatched"), method and status code: a counter and a latency
 *   histogram;
 * - the indexer's progress per chain (indexed block, head, lag, stopped, when it last wrote),
 *   read on each scrape from a callback the caller supplies, so the API never imports the
 *   indexer;
 * - quotes served by bridge kind, counted by the router route through `app.metrics.recordQuote`;
 * - how old the router's state of each chain is (a callback buildApp derives from its router);
 * - the webhook delivery slots in use and the deliveries waiting for one (webhook-slot-metrics.ts);
 * - webhook health (backlog, delivery processes, attempts, latency), read from the database on
 *   each scrape (webhook-metrics.ts);
 * - prom-client's process and Node.js runtime metrics (process_*, nodejs_*).
 *
 * /metrics is exempt from rate limits and ignores the Authorization header (a scraper's
 * credentials for a proxy in front are not API keys), and it is logged only at warn and above.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";
import type { IndexerChainStatus } from "../../store/indexer-repository.js";
import type { SlotUsage } from "../../store/webhook-slots.js";
import type {} from "./auth.js"; // FastifyContextConfig.apiKeyIgnored
import { createRequestStats } from "./request-stats.js";
import type {} from "./route-config.js"; // FastifyContextConfig.rateLimitExempt
import { registerWebhookMetrics, type WebhookMetricsOptions } from "./webhook-metrics.js";
import { registerWebhookSlotMetrics, WEBHOOK_SLOT_METRIC_NAMES } from "./webhook-slot-metrics.js";
import { withTimeout } from "./with-timeout.js";

export const METRICS_PATH = "/metrics";

export const METRIC_NAMES = {
  httpRequests: "bridge_oracle_http_requests_total",
  httpDuration: "bridge_oracle_http_request_duration_seconds",
  indexerIndexedBlock: "bridge_oracle_indexer_indexed_block",
  indexerHeadBlock: "bridge_oracle_indexer_head_block",
  indexerLag: "bridge_oracle_indexer_lag_blocks",
  indexerStopped: "bridge_oracle_indexer_stopped",
  indexerRetrying: "bridge_oracle_indexer_retrying",
  indexerLastUpdate: "bridge_oracle_indexer_last_update_timestamp_seconds",
  indexerStatusUp: "bridge_oracle_indexer_status_up",
  indexerLeader: "bridge_oracle_indexer_leader",
  quotes: "bridge_oracle_quotes_total",
  routerStateAge: "bridge_oracle_router_state_age_seconds",
  /** Registered by the rate-limit plugin when its counts can be shared (REDIS_URL). */
  rateLimitShared: "bridge_oracle_rate_limit_shared",
  ...WEBHOOK_SLOT_METRIC_NAMES,
} as const;

/** The route label of requests that matched no route (404 / 405): one value, not the URL. */
export const UNMATCHED_ROUTE = "unmatched";

/** One chain's indexing progress, as the scrape reports it. */
export interface IndexerChainProgress {
  /** Chain name (label `chain`). */
  readonly chain: string;
  /** EVM chain id (label `chain_id`). */
  readonly chainId: number;
  /** Last block whose events are fully stored. */
  readonly indexedBlock: number;
  /** Latest head the indexer saw. */
  readonly head: number;
  /** Blocks between indexedBlock and the confirmed head, head - confirmations (0 when caught up). */
  readonly lag: number;
  /** The chain's indexer stopped (a reorganisation deeper than finality) and needs a person. */
  readonly stopped: boolean;
  /**
   * The chain's last step failed (an RPC or database error) and is being retried; head and lag
   * then show the last good step. Cleared by the next good one.
   */
  readonly retrying: boolean;
  /**
   * When the indexer last wrote the chain's row, Unix seconds. Head and lag freeze when the
   * indexer dies; this is what shows it (`time() - x > 60`).
   */
  readonly updatedAt: number;
  /** host:pid of the leading `index` process ("" or absent: none, or SQLite). */
  readonly leader?: string;
}

/** One chain's router state age, as the scrape reports it. */
export interface RouterChainStateAge {
  /** Chain name (label `chain`). */
  readonly chain: string;
  /** EVM chain id (label `chain_id`). */
  readonly chainId: number;
  /** Seconds since the chain's state was read. */
  readonly ageSeconds: number;
}

/**
 * `collectIndexerStatus` over the indexer repository's getIndexerStatus (the indexer_chains
 * table, written by whichever process indexes this database).
 */
export function indexerProgressFrom(repository: {
  getIndexerStatus(): Promise<IndexerChainStatus[]>;
}): () => Promise<IndexerChainProgress[]> {
  return async () =>
    (await repository.getIndexerStatus()).map((row) => ({
      chain: row.name,
      chainId: row.chainId,
      indexedBlock: row.cursorBlock,
      head: row.headBlock,
      lag: row.lag,
      stopped: row.state === "stopped",
      retrying: row.state !== "stopped" && row.error !== "",
      updatedAt: Date.parse(`${row.updatedAt.replace(" ", "T")}Z`) / 1000,
      leader: row.leader,
    }));
}

export interface MetricsOptions {
  /**
   * Reads every chain's indexing progress; called on each scrape. When it rejects or takes
   * longer than `indexerStatusTimeoutMs`, the scrape still answers, with
   * bridge_oracle_indexer_status_up 0 and no per-chain series. Leave undefined when no indexer
   * shares the database: the indexer series are then absent.
   */
  readonly collectIndexerStatus?: () => Promise<readonly IndexerChainProgress[]>;
  /** Default 2000 ms. */
  readonly indexerStatusTimeoutMs?: number;
  /**
   * How long ago the router read each chain's state, read on each scrape (buildApp derives it
   * from its router). A chain older than ROUTER_MAX_STATE_AGE_MS answers quotes with 503; this
   * shows it coming. A chain never read has no series (/readyz names it).
   */
  readonly collectRouterStateAges?: () => readonly RouterChainStateAge[];
  /**
   * Reads the webhook health on each scrape (webhook-metrics.ts); the webhook series are absent
   * without it.
   */
  readonly webhooks?: WebhookMetricsOptions;
  /** prom-client's process_* / nodejs_* metrics; default true. */
  readonly defaultMetrics?: boolean;
  /**
   * The webhook delivery slots in use (webhook-slot-metrics.ts), read on each scrape; absent:
   * no webhook slot series.
   */
  readonly collectWebhookSlots?: () => Promise<SlotUsage>;
}

/** What routes may record; decorated on the app as `app.metrics`. */
export interface ApiMetrics {
  /**
   * Counts one quote served (a 200 answer of the router) for `bridgeType` (0 lock-and-mint,
   * 1 liquidity pool, 2 messaging), as bridge_oracle_quotes_total{bridge_type="<n>"}.
   */
  recordQuote(bridgeType: number | string): void;
  /** The exposition text and its content type, as served at /metrics. */
  render(): Promise<{ contentType: string; body: string }>;
  /** This app's registry (tests, or a caller adding its own metrics). */
  readonly registry: Registry;
}

declare module "fastify" {
  interface FastifyInstance {
    /** This app's Prometheus metrics (metrics.ts). */
    metrics: ApiMetrics;
  }
}

/**
 * Latency buckets in seconds. Most answers take well under a millisecond (a cached list page,
 * a hash lookup), so the buckets start at 0.25 ms: a p50 below 1 ms still has a resolution.
 */
const DURATION_BUCKETS = [
  0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
];

export function createApiMetrics(
  options: MetricsOptions = {},
  log?: { warn(fields: object, msg: string): void },
): ApiMetrics & {
  observeRequest(route: string, method: string, statusCode: number, seconds: number): void;
} {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

  // Per-request series live in plain arrays (request-stats.ts); prom-client reads them on scrape.
  const requestStats = createRequestStats({
    counterName: METRIC_NAMES.httpRequests,
    counterHelp: "HTTP requests answered, by route pattern, method and status code",
    histogramName: METRIC_NAMES.httpDuration,
    histogramHelp: "Time from receiving a request to the end of its response, in seconds",
    buckets: DURATION_BUCKETS,
  });
  for (const metric of requestStats.metrics()) {
    registry.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0]);
  }
  // Quotes by bridge kind: counted in a Map, copied into the counter when scraped.
  const quoteCounts = new Map<string, number>();
  new Counter({
    name: METRIC_NAMES.quotes,
    help: "Route quotes served, by bridge kind (0 lock-and-mint, 1 liquidity pool, 2 messaging)",
    labelNames: ["bridge_type"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [bridgeType, count] of quoteCounts) this.inc({ bridge_type: bridgeType }, count);
    },
  });

  if (options.collectWebhookSlots !== undefined) {
    registerWebhookSlotMetrics(registry, options.collectWebhookSlots, log);
  }

  const routerAges = options.collectRouterStateAges;
  if (routerAges !== undefined) {
    new Gauge({
      name: METRIC_NAMES.routerStateAge,
      help: "Seconds since the router read the chain's state (quotes answer 503 past ROUTER_MAX_STATE_AGE_MS), per chain",
      labelNames: ["chain", "chain_id"],
      registers: [registry],
      collect() {
        this.reset();
        for (const c of routerAges()) {
          this.set({ chain: c.chain, chain_id: String(c.chainId) }, c.ageSeconds);
        }
      },
    });
  }

  const collect = options.collectIndexerStatus;
  const timeoutMs = options.indexerStatusTimeoutMs ?? 2000;
  let refreshIndexer = async () => {};
  if (collect !== undefined) {
    const chainLabels = ["chain", "chain_id"] as const;
    const indexed = new Gauge({
      name: METRIC_NAMES.indexerIndexedBlock,
      help: "Last block whose bridge events the indexer has fully stored, per chain",
      labelNames: chainLabels,
      registers: [registry],
    });
    const head = new Gauge({
      name: METRIC_NAMES.indexerHeadBlock,
      help: "Latest chain head the indexer has seen, per chain",
      labelNames: chainLabels,
      registers: [registry],
    });
    const lag = new Gauge({
      name: METRIC_NAMES.indexerLag,
      help: "Blocks between the indexed block and the confirmed head (head - confirmations), per chain (0 when caught up)",
      labelNames: chainLabels,
      registers: [registry],
    });
    const stopped = new Gauge({
      name: METRIC_NAMES.indexerStopped,
      help: "1 when the chain's indexer stopped (reorganisation deeper than finality), else 0",
      labelNames: chainLabels,
      registers: [registry],
    });
    const retrying = new Gauge({
      name: METRIC_NAMES.indexerRetrying,
      help: "1 when the chain's last step failed (RPC or database error) and is being retried, else 0",
      labelNames: chainLabels,
      registers: [registry],
    });
    const lastUpdate = new Gauge({
      name: METRIC_NAMES.indexerLastUpdate,
      help: "When the indexer last wrote the chain's status, Unix seconds (frozen when it died)",
      labelNames: chainLabels,
      registers: [registry],
    });
    const leader = new Gauge({
      name: METRIC_NAMES.indexerLeader,
      help: "1 for the process (label `process`, host:pid) leading the indexer (PostgreSQL: the holder of the indexer lock; absent when none leads, and on SQLite)",
      labelNames: ["process"] as const,
      registers: [registry],
    });
    const up = new Gauge({
      name: METRIC_NAMES.indexerStatusUp,
      help: "1 when this scrape could read the indexer's status, 0 when it could not",
      registers: [registry],
    });
    refreshIndexer = async () => {
      // Chains that vanished (or a failed read) must not keep reporting their last values.
      for (const gauge of [indexed, head, lag, stopped, retrying, lastUpdate, leader])
        gauge.reset();
      try {
        const chains = await withTimeout(collect(), timeoutMs);
        for (const c of chains) {
          const labels = { chain: c.chain, chain_id: String(c.chainId) };
          indexed.set(labels, c.indexedBlock);
          head.set(labels, c.head);
          lag.set(labels, c.lag);
          stopped.set(labels, c.stopped ? 1 : 0);
          retrying.set(labels, c.retrying ? 1 : 0);
          if (Number.isFinite(c.updatedAt)) lastUpdate.set(labels, c.updatedAt);
          if (c.leader !== undefined && c.leader !== "") leader.set({ process: c.leader }, 1);
        }
        up.set(1);
      } catch (error) {
        up.set(0);
        log?.warn({ err: error }, "metrics: cannot read the indexer status");
      }
    };
  }

  const refreshWebhooks =
    options.webhooks === undefined
      ? async () => {}
      : registerWebhookMetrics(registry, options.webhooks, log);

  return {
    registry,
    recordQuote(bridgeType) {
      const label = String(bridgeType);
      quoteCounts.set(label, (quoteCounts.get(label) ?? 0) + 1);
    },
    observeRequest: requestStats.observe,
    async render() {
      await Promise.all([refreshIndexer(), refreshWebhooks()]);
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

export const metricsRouteSchema = {
  summary: "Prometheus metrics",
  operationId: "metrics",
  description:
    "Prometheus text exposition: HTTP requests and latency by route, method and status code; " +
    "indexer progress and lag per chain; quotes by bridge kind; the router's chain-state age " +
    "per chain; webhook delivery health (backlog, delivery processes, attempts, latency); " +
    "process and Node.js runtime " +
    "metrics. No API key; not rate limited.",
  tags: ["operations"],
  response: {
    200: {
      description: "Metrics in the Prometheus text format (version 0.0.4)",
      content: { "text/plain": { schema: { type: "string" } } },
    },
  },
} as const;

/**
 * Creates this app's metrics, decorates them as `app.metrics`, times every request and serves
 * /metrics. Call on the root instance before any route is registered.
 */
export async function registerMetrics(
  app: FastifyInstance,
  options: MetricsOptions = {},
): Promise<void> {
  const metrics = createApiMetrics(options, app.log);
  app.decorate("metrics", {
    registry: metrics.registry,
    recordQuote: metrics.recordQuote,
    render: metrics.render,
  } satisfies ApiMetrics);

  // onResponse runs for every answer, including those a hook gave (404, 429, shutting down).
  app.addHook("onResponse", (request, reply, done) => {
    metrics.observeRequest(
      routeLabel(request),
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  app.get(METRICS_PATH, {
    schema: metricsRouteSchema,
    logLevel: "warn",
    // A scraper's stray Authorization header is never judged (auth.ts honours apiKeyIgnored).
    config: { rateLimitExempt: true, apiKeyIgnored: true },
    handler: async (_request: FastifyRequest, reply: FastifyReply) => {
      const { contentType, body } = await metrics.render();
      return reply.type(contentType).send(body);
    },
  });
}

function routeLabel(request: FastifyRequest): string {
  // Unmatched requests run through the not-found handler, which has no route url.
  return request.is404 ? UNMATCHED_ROUTE : (request.routeOptions.url ?? UNMATCHED_ROUTE);
}
