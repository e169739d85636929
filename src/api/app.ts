/**
 * Builds the HTTP API (Fastify) without listening; server.ts listens. Order matters and is fixed
 * here: request ids, error handling and body parsing, shared schemas, then `plugins` (rate
 * limiting, auth), then OpenAPI (/openapi.json, /docs) and metrics (/metrics), which must see
 * every route, then the routes. The per-request checks of all of them run in one onRequest hook,
 * the request gate (request-gate.ts).
 */
import cors from "@fastify/cors";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import type { Config, TrustProxy } from "../config/env.js";
import { ApiError } from "../errors.js";
import { LOG_HOOKS, stdoutDestination } from "../json-logger.js";
import { redactRequestUrl } from "../redact-url.js";
import type { Store } from "../store/types.js";
import { createClientErrorHandler } from "./client-error.js";
import { createConnectionOrder } from "./connection-order.js";
import { lazyChildLogger } from "./lazy-logger.js";
import { registerCompression } from "./plugins/compression.js";
import { registerErrorHandling, sendApiError, setEnvelopeErrorHandler } from "./plugins/errors.js";
import { type MetricsOptions, registerMetrics } from "./plugins/metrics.js";
import { registerOpenApi } from "./plugins/openapi.js";
import { requestGate } from "./request-gate.js";
import { generateRequestId, REQUEST_ID_HEADER } from "./request-id.js";
import { createResponseCache } from "./response-cache.js";
import { type DiscoveryRouteDeps, registerDiscoveryRoutes } from "./routes/discovery.js";
import { type ExplorerRoutesOptions, registerExplorerRoutes } from "./routes/explorer.js";
import { type ReadinessCheck, registerHealthRoutes } from "./routes/health.js";
import { registerListTransfersRoute } from "./routes/list-transfers.js";
import { type RouterRouteDeps, registerRouterQuoteRoute } from "./routes/router-quote.js";
import { registerTransferActivityRoutes } from "./routes/transfer-activity.js";
import { registerTransferStreamRoute } from "./routes/transfer-stream.js";
import { registerWebhookRoutes, type WebhookRoutesDeps } from "./routes/webhooks.js";
import { registerSharedSchemas } from "./schemas/shared.js";
import { applySecurityHeaders, registerSecurityHeaders } from "./security-headers.js";
import { createChangeFeed } from "./stream/change-feed.js";
import { startChangeLogPruner } from "./stream/change-log-pruner.js";
import { createStreamRegistry } from "./stream/stream-registry.js";
import { answerUnusualRequests } from "./unusual-requests.js";

/** docs/http-api.md, API rule 5: request bodies over 16 KiB are refused (413). */
export const BODY_LIMIT_BYTES = 16 * 1024;

/**
 * Runs on the root instance (not encapsulated) after error handling and shared schemas, before
 * any route, so its hooks and `onRoute` listeners apply to every route. This is where rate
 * limiting and API-key auth attach. A route added by a plugin here is registered before the
 * OpenAPI generator and is therefore not documented: add routes after buildApp's own.
 */
export type AppPlugin = (app: FastifyInstance) => void | Promise<void>;

export interface BuildAppOptions {
  config: Config;
  store: Store;
  /**
   * Where the logger (at config.logLevel) writes its JSON lines. Default: process.stdout itself
   * (stdoutDestination, src/json-logger.ts), so a reader that goes away stops the process.
   */
  logDestination?: { write(line: string): void };
  plugins?: readonly AppPlugin[];
  /** Extra /readyz checks (the indexer's chain lag, ...), after the database ping. */
  readinessChecks?: readonly ReadinessCheck[];
  readinessTimeoutMs?: number;
  /** /metrics: the indexer status callback, ... (plugins/metrics.ts). A Registry per app. */
  metrics?: MetricsOptions;
  /**
   * `POST /api/oracle/router` (routes/router-quote.ts) when given; `router: undefined` inside
   * registers it answering 503 50301 (no registry configured).
   */
  router?: RouterRouteDeps;
  /**
   * The indexer's progress per chain for `GET /api/oracle/chains` (routes/discovery.ts); absent:
   * every chain's `indexer` is null.
   */
  indexerStatus?: DiscoveryRouteDeps["indexerStatus"];
  /** The explorer page at `/` (routes/explorer.ts): where its built assets are. */
  explorer?: ExplorerRoutesOptions;
  /**
   * A request whose headers and body have not all arrived after this long is answered 408
   * 40801 and its connection closed (slow or stalled clients must not hold connections open).
   * Default REQUEST_TIMEOUT_MS.
   */
  requestTimeoutMs?: number;
  /** `/api/oracle/webhooks` (routes/webhooks.ts) when given; it needs API-key auth installed. */
  webhooks?: WebhookRoutesDeps;
  /** The transfer stream's timings (tests shorten them); limits come from `config`. */
  stream?: StreamTimings;
}

export interface StreamTimings {
  /** Default config.streamHeartbeatSeconds. */
  heartbeatMs?: number;
  /** Bytes a client may leave unread before its stream is ended. Default 1 MiB. */
  maxBufferedBytes?: number;
  /** First retry of the change feed after a failed read. Default 500 ms. */
  feedRetryMs?: number;
  /** The change log pruner's first run after start. Default 60 s. */
  pruneFirstDelayMs?: number;
}

/** How long a client may take to send a whole request (headers and body, at most 16 KB). */
export const REQUEST_TIMEOUT_MS = 10_000;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, store } = options;
  const requestTimeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  let appLog: FastifyInstance["log"] | undefined;
  // Answers written straight to a socket wait for the responses owed ahead of them.
  const connections = createConnectionOrder();
  const app: FastifyInstance = Fastify({
    logger: {
      level: config.logLevel,
      stream: options.logDestination ?? stdoutDestination,
      hooks: LOG_HOOKS,
      // Fastify's request fields, the URL with its secret query values masked (`?apiKey=***`).
      serializers: { req: requestLogFields },
    },
    // A request's logger is made when it first logs (lazy-logger.ts), not for every request.
    childLoggerFactory: lazyChildLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    // Values are validated as sent: Fastify's default Ajv turns ["https://..."] into a string
    // and 123 into "123", so a wrong type would mean something else than the client sent. Every
    // query and path value is a string in the schemas; a repeated query parameter (an array)
    // fails the string type and is refused as given more than once (plugins/errors.ts).
    ajv: { customOptions: { coerceTypes: false } },
    // `/api/oracle/bridge-transactions/` is the same resource; integrators add slashes freely.
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: trustProxyOption(config.trustProxy),
    requestIdHeader: false, // generateRequestId reads and vets the header itself
    genReqId: generateRequestId,
    // While closing, requests still in flight finish; new ones are answered by the request
    // gate's first step below with our envelope instead of Fastify's bare 503.
    return503OnClosing: false,
    // Requests the HTTP parser refuses get the envelope as well (client-error.ts). Node's own
    // bare 400 for an HTTP/1.1 request without Host is turned off: the request gate answers it.
    clientErrorHandler: createClientErrorHandler(() => appLog, connections),
    // Node checks the timeouts every connectionsCheckingInterval, so a stalled request is
    // answered between the timeout and the timeout plus one check (Fastify's default is none).
    requestTimeout: requestTimeoutMs,
    http: {
      requireHostHeader: false,
      headersTimeout: requestTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, requestTimeoutMs),
    },
    frameworkErrors: (error, request, reply) => {
      applySecurityHeaders(reply.raw); // before any hook: the request was never routed
      reply.header(REQUEST_ID_HEADER, request.id);
      const apiError =
        error.code === "FST_ERR_BAD_URL"
          ? new ApiError("invalidParameter", "the request URL is malformed (bad percent-encoding)")
          : new ApiError("invalidParameter", "the request could not be routed");
      sendApiError(request, reply, apiError);
    },
  }) as unknown as FastifyInstance;
  appLog = app.log;
  connections.attach(app.server);
  answerUnusualRequests(app.server, connections, () => appLog);
  // Before any plugin adds a route (@fastify/cors adds OPTIONS *): routes keep the error
  // handler they were added under.
  setEnvelopeErrorHandler(app, { bodyLimit: BODY_LIMIT_BYTES });

  // First, so every answer (a 401, 429 or 503 from the request gate included) carries the
  // security headers (security-headers.ts) and the CORS headers, and a browser can read its
  // envelope.
  registerSecurityHeaders(app);
  if (config.corsOrigins !== undefined) await registerCors(app, config.corsOrigins);

  let closing = false;
  // The first step of the request gate: every answer carries the request id, and while closing,
  // new requests are answered with our envelope instead of Fastify's bare 503.
  requestGate(app).add("prepare", (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    if (request.raw.httpVersion === "1.1" && request.headers.host === undefined) {
      reply.header("connection", "close");
      return new ApiError("malformedRequest", "an HTTP/1.1 request needs a Host header");
    }
    if (!closing) return undefined;
    reply.header("connection", "close");
    return new ApiError("serviceUnavailable", "the server is shutting down; retry shortly");
  });
  app.addHook("preClose", async () => {
    closing = true;
  });
  // A CORS preflight is answered only now, after the request gate (request id, shutdown, rate
  // limit) let it through: @fastify/cors would answer it in its own hook, before the gate.
  if (config.corsOrigins !== undefined) answerPreflightsAfterTheGate(app);

  // Before every route (it learns routes from onRoute), so every answer can be compressed.
  await registerCompression(app);
  registerErrorHandling(app);
  registerSharedSchemas(app);
  for (const plugin of options.plugins ?? []) await plugin(app);
  // Before every route: the generator and the request timer learn routes from onRoute hooks.
  await registerOpenApi(app);
  await registerMetrics(app, withRouterStateAges(options.metrics, options.router));

  registerHealthRoutes(app, {
    store,
    ...(options.readinessChecks !== undefined ? { readinessChecks: options.readinessChecks } : {}),
    ...(options.readinessTimeoutMs !== undefined
      ? { readinessTimeoutMs: options.readinessTimeoutMs }
      : {}),
  });
  registerListTransfersRoute(app, {
    store,
    ...(config.listCacheMb > 0
      ? { cache: createResponseCache({ maxChars: config.listCacheMb * 1024 * 1024 }) }
      : {}),
  });
  registerTransferActivityRoutes(app, { store });
  registerDiscoveryRoutes(app, {
    registry: options.router?.router?.registry,
    state: options.router?.state ?? { current: () => ({ chains: new Map() }) },
    slippageBps: options.router?.router?.slippageBps ?? 0,
    ...(options.indexerStatus !== undefined ? { indexerStatus: options.indexerStatus } : {}),
  });
  registerTransferStream(app, config, store, options.stream ?? {});
  registerExplorerRoutes(app, { ...options.explorer });
  if (options.router !== undefined) registerRouterQuoteRoute(app, options.router);
  if (options.webhooks !== undefined) registerWebhookRoutes(app, options.webhooks);
  return app;
}

/**
 * The stream route, its process-wide change feed and registry of open streams, and the change
 * log's retention (docs/push.md). Streams end first when the app closes (preClose), so that
 * their connections go idle and the server's close does not wait for them.
 */
function registerTransferStream(
  app: FastifyInstance,
  config: Config,
  store: Store,
  timings: StreamTimings,
): void {
  const feed = createChangeFeed({
    changes: store.transferChanges,
    subscribeChanges: store.subscribeChanges,
    logger: app.log,
    ...(timings.feedRetryMs !== undefined ? { retryMs: timings.feedRetryMs } : {}),
  });
  const registry = createStreamRegistry({
    maxPerClient: config.streamMaxPerClient,
    maxPerKey: config.streamMaxPerKey,
    heartbeatMs: timings.heartbeatMs ?? config.streamHeartbeatSeconds * 1000,
  });
  const pruner = startChangeLogPruner({
    changes: store.transferChanges,
    retentionMs: config.changeLogRetentionHours * 3_600_000,
    logger: app.log,
    ...(timings.pruneFirstDelayMs !== undefined ? { firstDelayMs: timings.pruneFirstDelayMs } : {}),
  });
  app.addHook("preClose", async () => {
    registry.close();
    feed.close();
  });
  app.addHook("onClose", async () => pruner.stop());
  registerTransferStreamRoute(app, {
    store,
    feed,
    registry,
    maxBufferedBytes: timings.maxBufferedBytes ?? 1024 * 1024,
  });
}

/**
 * Fastify's trustProxy from TRUST_PROXY: N proxies in front trust the N right-most
 * X-Forwarded-For hops (what a proxy appends), addresses and ranges trust those proxies; the
 * client's own entries on the left are never taken.
 */
function trustProxyOption(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false) return false;
  if (typeof trust === "number") return (_address, hop) => hop < trust;
  return [...trust];
}

/**
 * CORS for browser dApps and wallets (CORS_ORIGINS): the listed origins (or any, `*`) may call
 * the API with an Authorization header and read the envelope and the request-id and
 * rate-limit headers; preflights are cached for 10 minutes. No cookies are involved, so no
 * credentials mode.
 */
async function registerCors(app: FastifyInstance, origins: "*" | readonly string[]) {
  await app.register(cors, {
    origin: origins === "*" ? "*" : [...origins],
    methods: ["GET", "HEAD", "POST", "DELETE"],
    allowedHeaders: ["authorization", "content-type", REQUEST_ID_HEADER],
    exposedHeaders: [
      REQUEST_ID_HEADER,
      "retry-after",
      "x-ratelimit-limit",
      "x-ratelimit-remaining",
      "x-ratelimit-reset",
    ],
    maxAge: 600,
    strictPreflight: false,
    // The preflight goes on to the request gate; answerPreflightsAfterTheGate answers it.
    preflightContinue: true,
  });
}

/**
 * Answers a preflight that @fastify/cors accepted (and gave its headers) with an empty 204, in
 * an onRequest hook added after the request gate's, so the gate has given it a request id and
 * counted it against the client address's rate limit (or refused it with the envelope).
 */
function answerPreflightsAfterTheGate(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    if ((request as { corsPreflightEnabled?: boolean }).corsPreflightEnabled !== true) {
      done();
      return;
    }
    // Safari waits for a body on a 204 without an explicit Content-Length: 0.
    reply.code(204).header("content-length", "0").send();
  });
}

/** The metrics options plus the router's per-chain state age, when there is a router. */
function withRouterStateAges(
  metrics: MetricsOptions | undefined,
  router: RouterRouteDeps | undefined,
): MetricsOptions | undefined {
  const registry = router?.router?.registry;
  if (router === undefined || registry === undefined || metrics?.collectRouterStateAges) {
    return metrics;
  }
  const names = new Map(registry.chains.map((chain) => [chain.chainId, chain.name]));
  const now = router.now ?? Date.now;
  return {
    ...metrics,
    collectRouterStateAges: () =>
      [...router.state.current().chains.values()].map((state) => ({
        chain: names.get(state.chainId) ?? String(state.chainId),
        chainId: state.chainId,
        ageSeconds: Math.max(0, (now() - state.readAtMs) / 1000),
      })),
  };
}

/**
 * The `req` of Fastify's request log lines: its default fields, with the URL as sent but secret
 * query values and our own keys masked (a key sent as `?apiKey=` must not reach the log).
 */
function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactRequestUrl(request.url),
    version: request.headers?.["accept-version"],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
