/**
 * `bridge-oracle serve`: the HTTP API. Reads the configuration from the environment (README,
 * "Configuration"), opens the store (running migrations), listens, and on SIGINT / SIGTERM / SIGHUP shuts
 * down gracefully: stops accepting, finishes in-flight requests, closes the store, exits 0.
 * A second signal during shutdown exits at once.
 */
import type { AppPlugin } from "../api/app.js";
import { indexerReadinessCheck } from "../api/indexer-readiness.js";
import { registerApiKeyAuth } from "../api/plugins/auth.js";
import { indexerProgressFrom } from "../api/plugins/metrics.js";
import { registerRateLimit } from "../api/plugins/rate-limit.js";
import { type RunningServer, startServer } from "../api/server.js";
import { type Config, loadConfig } from "../config/env.js";
import { loadWebhookConfig, type WebhookConfig } from "../config/webhook-config.js";
import { errorMessage } from "../errors.js";
import { createJsonLogger } from "../json-logger.js";
import { redactUrl } from "../redact-url.js";
import { STOP_SIGNALS } from "../stop-signals.js";
import {
  API_POSTGRES_TIMEOUTS,
  type Database,
  openDatabase,
  type PostgresTimeouts,
} from "../store/index.js";
import { readSlotUsage } from "../store/webhook-slots.js";
import { webhookStoreOf } from "../store/webhook-store.js";
import { DEFAULT_SLOT_LIMITS } from "../webhooks/delivery-worker.js";
import { loadConfigOrReport, noArgumentsExitCode } from "./command-input.js";
import { portInUse } from "./port-in-use.js";
import { loadRouterRegistry, type RouterService, startRouterService } from "./router-service.js";

const USAGE = `usage: bridge-oracle serve

Runs the HTTP API. Settings come from the environment:
  PORT (8080), HOST (127.0.0.1), DATABASE_URL (./data/bridge-oracle.db or postgres://...),
  DATABASE_READ_URL (optional replica), LOG_LEVEL (info), REDIS_URL (optional),
  TRUST_PROXY (false; behind proxies: their number, e.g. 1, or their addresses/CIDRs),
  RATE_LIMIT_ANONYMOUS_PER_MINUTE (120), RATE_LIMIT_KEY_PER_MINUTE (1200),
  ROUTER_CONFIG (registry JSON or devnet manifest; default $DEVNET_DIR/manifest.json if present),
  ROUTER_SLIPPAGE_BPS (50), ROUTER_MAX_STATE_AGE_MS (15000), QUOTE_TTL_SECONDS (30),
  LIST_CACHE_MB (64; 0 turns the list endpoint's response cache off),
  CORS_ORIGINS (unset: no CORS headers; * or https://app.example,... for browser dApps),
  CHANGE_LOG_RETENTION_HOURS (168; how long streams can resume and a stopped deliver catch up),
  STREAM_HEARTBEAT_SECONDS (15), STREAM_MAX_PER_CLIENT (10), STREAM_MAX_PER_KEY (100; 0 = no limit),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES (false; webhook URLs may reach private addresses)
Probes: GET /healthz, GET /readyz, and GET /readyz/router for quote traffic (503 without a
router registry). Webhooks are sent by \`bridge-oracle deliver\`, not by serve.
`;

export interface ServeDeps {
  env?: Readonly<Record<string, string | undefined>>;
  /** Resolves when the server should stop; default: the first SIGINT or SIGTERM. */
  stopSignal?: Promise<string>;
  /** PostgreSQL connection bounds; default API_POSTGRES_TIMEOUTS (tests pass short ones). */
  databaseTimeouts?: PostgresTimeouts;
}

export async function run(args: string[], deps: ServeDeps = {}): Promise<number> {
  const argsExit = noArgumentsExitCode("serve", args, USAGE);
  if (argsExit !== undefined) return argsExit;
  const config = loadConfigOrReport(() => {
    const loaded = loadConfig(deps.env ?? process.env);
    loadWebhookConfig(deps.env ?? process.env); // refused here, before anything opens
    return loaded;
  });
  if (config === undefined) return 1;

  // Asked first, so a taken port creates no database file and opens no connection.
  const portProblem = await portInUse(config.host, config.port);
  if (portProblem !== null) {
    process.stderr.write(
      `cannot listen on ${config.host}:${config.port} (HOST, PORT): ${portProblem}\n`,
    );
    return 1;
  }
  // Caught from the start: a signal while the API starts (its "listening" line included) stops
  // it once started, instead of ending the process by the signal's default action.
  const signals = deps.stopSignal === undefined ? listenForSignals() : undefined;
  let api: ApiService;
  try {
    api = await startApiService(config, deps.env ?? process.env, {
      ...(deps.databaseTimeouts !== undefined ? { databaseTimeouts: deps.databaseTimeouts } : {}),
    });
  } catch (error) {
    signals?.remove();
    if (error instanceof ApiStartError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const stopSignal = deps.stopSignal ?? (signals as { first: Promise<string> }).first;
  try {
    const signal = await stopSignal;
    api.app.log.info({ signal }, "shutting down: finishing in-flight requests");
    await api.close();
    api.app.log.info("stopped");
    return 0;
  } finally {
    signals?.remove();
    await api.close();
  }
}

/** A start-up failure of the API; the message is meant for the operator as it is. */
export class ApiStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ApiStartError";
  }
}

export interface ApiService {
  readonly app: RunningServer["app"];
  /** http://host:port actually bound. */
  readonly url: string;
  readonly store: Database;
  /**
   * Stops accepting, finishes in-flight requests, then stops the router's chain state provider
   * and closes the database (unless the caller passed its own); safe to call more than once.
   */
  close(): Promise<void>;
}

/**
 * Everything `serve` runs, listening, for other commands too (`start`): the database (migrated),
 * the router service, /metrics' indexer status, API keys and rate limits. Throws ApiStartError
 * (with everything it opened closed again) when a piece cannot start. `start` passes the
 * database it opened (then the caller closes it).
 */
export async function startApiService(
  config: Config,
  env: Readonly<Record<string, string | undefined>>,
  options: {
    databaseTimeouts?: PostgresTimeouts;
    database?: Database;
    /** The rate limits' window (default one minute); tests shorten it to see a 429 pass. */
    rateLimitWindowMs?: number;
  } = {},
): Promise<ApiService> {
  // The database and the router start before the app and its pino logger exist; their lines go
  // through the same pino setup (json-logger.ts), so start-up reads as one stream.
  const startupLog = createJsonLogger(config.logLevel);
  let webhookConfig: WebhookConfig;
  try {
    webhookConfig = loadWebhookConfig(env);
  } catch (error) {
    throw new ApiStartError(`configuration error: ${errorMessage(error)}`);
  }
  // The registry is checked before the database opens: a bad ROUTER_CONFIG is refused before
  // any JSON line, and creates or migrates nothing.
  let registry: Awaited<ReturnType<typeof loadRouterRegistry>>;
  try {
    registry = await loadRouterRegistry(config, env);
  } catch (error) {
    throw new ApiStartError(`router configuration error: ${errorMessage(error)}`);
  }
  const store = options.database ?? (await openApiDatabase(config, startupLog, options));
  const closeStore = options.database === undefined ? () => store.close() : async () => {};

  let routerService: RouterService;
  try {
    routerService = await startRouterService({
      config,
      logger: startupLog,
      settlements: store.transfers,
      loaded: registry,
    });
  } catch (error) {
    await closeStore();
    throw new ApiStartError(`router configuration error: ${errorMessage(error)}`);
  }

  const closeRest = async (): Promise<void> => {
    await routerService.stop();
    await closeStore();
  };

  let server: RunningServer;
  try {
    server = await startServer({
      config,
      store,
      plugins: apiPlugins(config, store, options.rateLimitWindowMs),
      router: routerService.route,
      // /api/oracle/webhooks: subscriptions in the same database (webhook-store.ts).
      webhooks: {
        store: webhookStoreOf(store),
        allowPrivateAddresses: webhookConfig.allowPrivateAddresses,
        secretBox: webhookConfig.secretBox,
      },
      // /chains and /metrics report the indexer's progress per chain from the same database.
      indexerStatus: () => store.indexerStatus.getIndexerStatus(),
      metrics: {
        collectIndexerStatus: indexerProgressFrom(store.indexerStatus),
        // The delivery processes' slots, as their claims stand in the same database.
        collectWebhookSlots: () =>
          readSlotUsage(webhookStoreOf(store).sql, Date.now(), DEFAULT_SLOT_LIMITS),
        // Webhook health from the same database, written by the delivery processes.
        webhooks: { collect: (now, liveSince) => store.webhookHealth.read(now, liveSince) },
      },
      readinessChecks: [
        ...(routerService.readiness !== undefined ? [routerService.readiness] : []),
        // The chains' indexing status once an indexer has written to this database.
        indexerReadinessCheck(() => store.indexerStatus.getIndexerStatus()),
      ],
    });
  } catch (error) {
    await closeRest();
    throw new ApiStartError(
      `cannot listen on ${config.host}:${config.port} (HOST, PORT): ${errorMessage(error)}`,
    );
  }
  server.app.log.info(
    { url: server.url, database: redactUrl(config.databaseUrl), store: store.kind },
    `bridge-oracle API listening on ${server.url}`,
  );
  let closed: Promise<void> | undefined;
  return {
    app: server.app,
    url: server.url,
    store,
    close() {
      closed ??= (async () => {
        try {
          await server.close();
        } finally {
          await closeRest();
        }
      })();
      return closed;
    },
  };
}

async function openApiDatabase(
  config: Config,
  logger: ReturnType<typeof createJsonLogger>,
  options: { databaseTimeouts?: PostgresTimeouts },
): Promise<Database> {
  try {
    return await openDatabase(config.databaseUrl, {
      logger,
      readDatabaseUrl: config.readDatabaseUrl,
      // Every PostgreSQL connection of the API fails within seconds rather than waiting for
      // ever (docs/store.md, "Timeouts"): a list read becomes a 503, shutdown is never held up.
      timeouts: options.databaseTimeouts ?? API_POSTGRES_TIMEOUTS,
    });
  } catch (error) {
    throw new ApiStartError(
      `cannot open the database ${redactUrl(config.databaseUrl)}: ${errorMessage(error)}`,
    );
  }
}

/**
 * API keys, then rate limits (the limiter needs to know the caller's key). Keys are read from
 * the same database; limits are counted in memory, or in Redis when REDIS_URL is set.
 */
function apiPlugins(
  config: Config,
  database: Database,
  rateLimitWindowMs: number | undefined,
): AppPlugin[] {
  return [
    (app) =>
      registerApiKeyAuth(app, {
        repository: database.apiKeys,
        subscribe: database.changes.subscribeApiKeys,
      }),
    (app) =>
      registerRateLimit(app, {
        anonymousPerMinute: config.rateLimitAnonymousPerMinute,
        keyPerMinute: config.rateLimitKeyPerMinute,
        redisUrl: config.redisUrl,
        ...(rateLimitWindowMs !== undefined ? { windowMs: rateLimitWindowMs } : {}),
      }),
  ];
}

/** The first stop signal (SIGINT, SIGTERM, SIGHUP: stop-signals.ts) resolves `first`; a second one exits the process at once. */
export function listenForSignals(): { first: Promise<string>; remove(): void } {
  let received = false;
  let resolve: (signal: string) => void = () => {};
  const first = new Promise<string>((r) => {
    resolve = r;
  });
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(130);
    }
    received = true;
    resolve(signal);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  return {
    first,
    remove() {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
    },
  };
}
