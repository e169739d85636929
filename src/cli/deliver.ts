/**
 * `bridge-oracle deliver`: the webhook delivery process (docs/webhooks.md). Fans new changes of
 * the change log out into deliveries and sends them until SIGINT / SIGTERM, then finishes the
 * attempts in flight (each at most WEBHOOK_TIMEOUT_MS) and exits 0. A second signal exits at
 * once; whatever was in flight is sent again by the next delivery process.
 *
 * On PostgreSQL any number may run side by side and share the work; on SQLite a second one is
 * refused (exit 1, with the reason).
 */
import { loadDatabaseUrl, loadLogLevel } from "../config/env.js";
import { loadWebhookConfig } from "../config/webhook-config.js";
import { errorMessage } from "../errors.js";
import { createJsonLogger } from "../json-logger.js";
import { redactUrl } from "../redact-url.js";
import { STOP_SIGNALS } from "../stop-signals.js";
import { type Database, openDatabase } from "../store/index.js";
import { DeliveryLockedError } from "../webhooks/delivery-lock.js";
import { type DeliveryService, startDeliveryService } from "../webhooks/delivery-service.js";
import { loadConfigOrReport, noArgumentsExitCode } from "./command-input.js";

const USAGE = `usage: bridge-oracle deliver

Delivers webhooks: every change of a transfer to each subscription that matches it, signed,
retried for 24 hours (docs/webhooks.md). Settings from the environment: DATABASE_URL, LOG_LEVEL,
WEBHOOK_TIMEOUT_MS (10000), WEBHOOK_RETRY_BASE_MS (5000), WEBHOOK_ALLOW_PRIVATE_ADDRESSES (false).
On PostgreSQL several may run and share the work; on SQLite only one.
`;

export interface DeliverDeps {
  env?: Readonly<Record<string, string | undefined>>;
  stopSignal?: Promise<string>;
}

export async function run(args: string[], deps: DeliverDeps = {}): Promise<number> {
  const argsExit = noArgumentsExitCode("deliver", args, USAGE);
  if (argsExit !== undefined) return argsExit;
  const env = deps.env ?? process.env;
  const loaded = loadConfigOrReport(() => ({
    databaseUrl: loadDatabaseUrl(env),
    logger: createJsonLogger(loadLogLevel(env)),
    config: loadWebhookConfig(env),
  }));
  if (loaded === undefined) return 1;
  const { databaseUrl, logger, config } = loaded;
  // The one database of this process (docs/store.md): the loop's statements and, on PostgreSQL,
  // the change subscription that wakes it.
  let database: Database;
  try {
    database = await openDatabase(databaseUrl, { logger });
  } catch (error) {
    process.stderr.write(
      `cannot open the database ${redactUrl(databaseUrl)}: ${errorMessage(error)}\n`,
    );
    return 1;
  }
  let service: DeliveryService;
  try {
    service = await startDeliveryService({ database, config, logger });
  } catch (error) {
    await database.close();
    process.stderr.write(
      error instanceof DeliveryLockedError
        ? `deliver refused: ${error.message}\n`
        : `cannot start webhook delivery on ${redactUrl(databaseUrl)}: ${errorMessage(error)}\n`,
    );
    return 1;
  }
  logger.info(
    { database: redactUrl(databaseUrl), store: service.store.kind },
    "webhook delivery running",
  );
  const signals = deps.stopSignal === undefined ? onStopSignals() : undefined;
  const stopSignal = deps.stopSignal ?? (signals as { first: Promise<string> }).first;
  try {
    const outcome = await Promise.race([
      stopSignal.then((signal) => ({ signal })),
      service.done.then(() => ({ signal: undefined })),
    ]);
    if (outcome.signal !== undefined) {
      logger.info({ signal: outcome.signal }, "stopping: finishing the attempts in flight");
    }
    await service.stop();
    logger.info({}, "stopped");
    return outcome.signal === undefined ? 1 : 0;
  } finally {
    signals?.remove();
    await service.stop();
    await database.close();
  }
}

/**
 * The stop signals (src/stop-signals.ts): the first resolves `first`, a second exits at once. Not serve's helper:
 * importing serve.ts would load the whole HTTP API into the delivery process.
 */
function onStopSignals(): { first: Promise<string>; remove(): void } {
  let seen = false;
  let resolveFirst: (signal: string) => void = () => {};
  const first = new Promise<string>((resolve) => {
    resolveFirst = resolve;
  });
  const handler = (signal: NodeJS.Signals) => {
    if (seen) process.exit(130);
    seen = true;
    resolveFirst(signal);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, handler);
  return {
    first,
    remove: () => {
      for (const signal of STOP_SIGNALS) process.off(signal, handler);
    },
  };
}
