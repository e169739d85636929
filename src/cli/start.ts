/**
 * `bridge-oracle start` (what `npm start` runs): the whole thing in one process for a first
 * look: a persistent devnet with traffic, the indexer on its manifest and the API (the same
 * pieces as `serve`) on SQLite, plus a demo API key kept across restarts. docs/start.md
 * describes it.
 *
 * One process, not children: the pieces are libraries already (runDevnet, createIndexer,
 * startApiService), so one signal handler can stop them in the right order. The anvil nodes are
 * the only child processes; they run in their own process group, so the terminal's Ctrl-C
 * reaches this process alone, which stops them last (they write their state on SIGTERM).
 *
 * It owns DEVNET_DIR while it runs (DEVNET_DIR/devnet.lock, src/devnet/devnet-lock.ts): a second
 * start or devnet there is refused, and the chains a killed one left running are stopped first.
 *
 * Shutdown order on SIGINT/SIGTERM/SIGHUP (a closed terminal): the API stops accepting and finishes in-flight requests;
 * the indexer commits its current batch and stops; traffic and relayer stop; the anvil nodes
 * dump their state and exit. A second signal exits at once (the nodes are killed on exit).
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../config/env.js";
import { loadIndexerConfig } from "../config/indexer-config.js";
import { loadWebhookConfig, type WebhookConfig } from "../config/webhook-config.js";
import { acquireDevnetLock, DevnetDirInUseError, type DevnetLock } from "../devnet/devnet-lock.js";
import { createStderrLogger, type DevnetLogger, silentLogger } from "../devnet/logger.js";
import {
  DEVNET_DEFAULTS,
  type RunningDevnet,
  runDevnet,
  validateRunDevnetOptions,
} from "../devnet/run-devnet.js";
import { devnetDir } from "../devnet/write-manifest.js";
import { errorMessage } from "../errors.js";
import { createIndexer } from "../indexer/create-indexer.js";
import { redactUrl } from "../redact-url.js";
import { formatBanner } from "../start/banner.js";
import { DEMO_KEY_FILE, demoKey as keepDemoKey } from "../start/demo-key.js";
import { DevnetDataError, reconcileDevnetData } from "../start/devnet-data.js";
import { indexerStopReport } from "../start/indexer-stop.js";
import {
  API_POSTGRES_TIMEOUTS,
  BACKGROUND_POSTGRES_TIMEOUTS,
  type Database,
  openDatabase,
} from "../store/index.js";
import { DeliveryLockedError } from "../webhooks/delivery-lock.js";
import { startDeliveryService } from "../webhooks/delivery-service.js";
import { loadConfigOrReport } from "./command-input.js";
import { portInUse, rpcPortsProblem } from "./port-in-use.js";
import { type ApiService, ApiStartError, listenForSignals, startApiService } from "./serve.js";

export const DEFAULT_TRAFFIC_PER_MINUTE = 30;

const USAGE = `usage: bridge-oracle start [--traffic N] [--rpc-port N] [--new-demo-key] [--quiet]

Runs a local devnet (with N random transfers per minute), the indexer and the API in one
process, prints the explorer URL and a demo API key; Ctrl-C stops everything. The devnet's
chain state and the demo key are kept in $DEVNET_DIR/state (default .devnet/state) and the
data in DATABASE_URL (default ./data/bridge-oracle.db), so the next start resumes where this
one stopped, with the same key. Delete both to start over.

options:
  --traffic N    transfers per minute (default ${DEFAULT_TRAFFIC_PER_MINUTE}; 0 = none, up to 6000)
  --rpc-port N   alpha's RPC port; beta and gamma take N+1 and N+2, so a wallet's network
                 settings survive restarts (default: free ports, new at every start)
  --new-demo-key revoke the demo key and print a new one (default: the same key as last time)
  --quiet        no devnet / indexer log lines on stderr (start-up and shutdown lines stay)

Settings come from the environment as for \`serve\` (PORT, HOST, DATABASE_URL, LOG_LEVEL
(default warn here), ...); the router always uses the devnet's manifest.
`;

export interface StartDeps {
  env?: Readonly<Record<string, string | undefined>>;
}

interface StartOptions {
  traffic: number;
  rpcPort: number | undefined;
  newDemoKey: boolean;
  quiet: boolean;
}

function parseStartArgs(args: string[]): StartOptions | { help: true } | { error: string } {
  let values: {
    traffic?: string;
    "rpc-port"?: string;
    "new-demo-key"?: boolean;
    quiet?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        traffic: { type: "string" },
        "rpc-port": { type: "string" },
        "new-demo-key": { type: "boolean" },
        quiet: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    // `npm start --traffic 60` hands npm the option and start only the 60.
    const positional = (error as { code?: string }).code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL";
    const number = args.find((a) => /^[0-9]+$/.test(a)) ?? "N";
    return {
      error: positional
        ? `${errorMessage(error)} (through npm, options go after --: npm start -- --traffic ${number})`
        : errorMessage(error),
    };
  }
  if (values.help) return { help: true };
  const text = values.traffic ?? String(DEFAULT_TRAFFIC_PER_MINUTE);
  const traffic = Number(text);
  const invalid = /^[0-9]+(\.[0-9]+)?$/.test(text)
    ? validateRunDevnetOptions({ traffic })
    : `traffic must be a number, got '${text}'`;
  if (invalid !== null) return { error: `--traffic: ${invalid}` };
  const portText = values["rpc-port"];
  const rpcPort = portText === undefined ? undefined : Number(portText);
  if (portText !== undefined) {
    const invalidPort = /^[0-9]+$/.test(portText)
      ? validateRunDevnetOptions({ rpcPort })
      : `rpc port must be an integer, got '${portText}'`;
    if (invalidPort !== null) return { error: `--rpc-port: ${invalidPort}` };
  }
  return {
    traffic,
    rpcPort,
    newDemoKey: values["new-demo-key"] ?? false,
    quiet: values.quiet ?? false,
  };
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1"]);

export async function run(args: string[], deps: StartDeps = {}): Promise<number> {
  const parsed = parseStartArgs(args);
  if ("help" in parsed) {
    process.stdout.write(USAGE);
    return 0;
  }
  if ("error" in parsed) {
    process.stderr.write(`${parsed.error}\n\n${USAGE}`);
    return 1;
  }
  const baseEnv = deps.env ?? process.env;
  // Request logs at info would bury the banner; LOG_LEVEL=info brings them back. Webhooks may
  // reach receivers on this machine (the devnet's whole world) while the API answers only this
  // machine: unset HOST or a loopback one. Set either variable to decide otherwise.
  const env = {
    ...baseEnv,
    LOG_LEVEL: nonEmpty(baseEnv.LOG_LEVEL) ?? "warn",
    WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
      nonEmpty(baseEnv.WEBHOOK_ALLOW_PRIVATE_ADDRESSES) ??
      String(LOOPBACK_HOSTS.has(nonEmpty(baseEnv.HOST) ?? "127.0.0.1")),
  };
  const loaded = loadConfigOrReport(() => ({
    config: loadConfig(env),
    webhookConfig: loadWebhookConfig(env),
  }));
  if (loaded === undefined) return 1;
  const { config, webhookConfig } = loaded;
  // Refused before anything starts: a taken port or an unusable database.
  const portProblem = await portInUse(config.host, config.port);
  if (portProblem !== null) {
    process.stderr.write(
      `cannot listen on ${config.host}:${config.port} (HOST, PORT): ${portProblem}\n`,
    );
    return 1;
  }
  // One running devnet per DEVNET_DIR: a second one would resume the same chains and its nodes
  // would overwrite this one's state files (devnet-lock.ts). A dead owner's nodes are stopped.
  // Taken before the database is opened, so a refused start creates no database file.
  const dir = devnetDir(env as NodeJS.ProcessEnv);
  let lock: DevnetLock;
  try {
    lock = await acquireDevnetLock({ dir, command: "start", log: say });
  } catch (error) {
    process.stderr.write(
      error instanceof DevnetDirInUseError
        ? `${error.message}\n`
        : `cannot take the devnet directory ${dir} (DEVNET_DIR): ${errorMessage(error)}\n`,
    );
    return 1;
  }
  const portsProblem =
    parsed.rpcPort === undefined
      ? null
      : await rpcPortsProblem(parsed.rpcPort, DEVNET_DEFAULTS.chains);
  if (portsProblem !== null) {
    lock.release();
    process.stderr.write(`${portsProblem}\n`);
    return 1;
  }
  // One database object for everything start runs: the API's reads with the API's bounds, the
  // indexer's batches with the background ones (docs/store.md, "Timeouts").
  let database: Database;
  try {
    database = await openDatabase(config.databaseUrl, {
      readDatabaseUrl: config.readDatabaseUrl,
      timeouts: API_POSTGRES_TIMEOUTS,
      backgroundTimeouts: BACKGROUND_POSTGRES_TIMEOUTS,
      busyTimeoutMs: 10_000,
    });
  } catch (error) {
    lock.release();
    process.stderr.write(
      `cannot open the database ${redactUrl(config.databaseUrl)} (DATABASE_URL): ${errorMessage(error)}\n`,
    );
    return 1;
  }

  const signals = listenForSignals();
  let signalled: string | undefined;
  void signals.first.then((name) => {
    signalled = name;
    // Any second signal exits at once (listenForSignals); Ctrl-C is what a terminal user has.
    say(
      `${name}: stopping (${name === "SIGINT" ? "Ctrl-C again" : "send a second signal"} to exit at once)`,
    );
  });
  const logger: DevnetLogger = parsed.quiet ? silentLogger : createStderrLogger("devnet");
  // Run in reverse: the database closes last, after everything that uses it.
  const closers: (() => Promise<void>)[] = [() => database.close()];
  const stopAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch((error: unknown) => say(`while stopping: ${errorMessage(error)}`));
    }
  };

  // The chains' dumps and the demo key: what the next start resumes with.
  const stateDir = join(dir, "state");
  try {
    say(`starting the devnet in ${dir} ...`);
    const starting = runDevnet({
      traffic: parsed.traffic,
      ...(parsed.rpcPort !== undefined ? { rpcPort: parsed.rpcPort } : {}),
      dir,
      stateDir,
      callerHandlesSignals: true,
      onNodeStarted: (node) => lock.addNode(node),
      progress: say,
      logger,
    });
    const first = await Promise.race([starting, signals.first]);
    if (typeof first === "string") {
      await starting.then((devnet) => devnet.stop()).catch(() => {});
      return 0;
    }
    const devnet: RunningDevnet = first;
    closers.push(async () => {
      say("devnet: stopping traffic, relayer and chains (the chains save their state)");
      await devnet.stop();
    });

    await reconcileDevnetData({
      database,
      databaseUrl: config.databaseUrl,
      manifest: devnet.manifest,
      restored: devnet.restored,
      log: say,
      blockHash,
    });
    const demo = await keepDemoKey({
      repository: database.apiKeys,
      stateDir,
      renew: parsed.newDemoKey,
    });
    if (signalled !== undefined) return 0;

    const indexerConfig = await loadIndexerConfig(devnet.manifestPath);
    // A chain's loud stop is the indexer's one error line; start reports it itself, below, with
    // advice that fits start (the indexer's own names settings start does not have).
    const indexerLog = parsed.quiet
      ? silentLogger
      : { ...createStderrLogger("index"), error: () => {} };
    const indexer = createIndexer({
      config: indexerConfig,
      store: database,
      logger: indexerLog,
    });
    const indexerStop = new AbortController();
    const indexing = indexer.run(indexerStop.signal);
    closers.push(async () => {
      say("indexer: committing the current batch");
      indexerStop.abort();
      await indexing.catch(() => {});
    });
    const indexerFailed = indexing.then(
      () => undefined,
      (error: unknown) => ({ error }),
    );

    const api: ApiService = await startApiService(
      { ...config, routerConfig: devnet.manifestPath },
      env,
      { database },
    );
    closers.push(async () => {
      say("API: finishing in-flight requests");
      await api.close();
    });
    await startWebhookDelivery(database, webhookConfig, closers);

    process.stdout.write(
      `${formatBanner({
        url: api.url,
        manifest: devnet.manifest,
        demoKey: demo.key,
        demoKeyKept: demo.kept,
        demoKeyFile: join(stateDir, DEMO_KEY_FILE),
        restored: devnet.restored,
        freshReason: devnet.freshReason,
        trafficPerMinute: parsed.traffic,
        databaseUrl: redactUrl(config.databaseUrl),
        devnetDir: dir,
      })}\n`,
    );

    const outcome = await Promise.race([
      signals.first.then(() => ({ failure: undefined })),
      indexerFailed.then((failure) => ({ failure })),
    ]);
    if (outcome.failure === undefined) {
      await stopAll();
      say("stopped; the next start resumes from here");
      return 0;
    }
    const report = indexerStopReport(outcome.failure.error, dir);
    process.stderr.write(`the indexer stopped: ${report.reason}\nstopping everything\n`);
    await stopAll();
    say(report.advice);
    return 1;
  } catch (error) {
    const message =
      error instanceof ApiStartError || error instanceof DevnetDataError
        ? error.message
        : `start failed: ${errorMessage(error)}`;
    process.stderr.write(`${message}\n`);
    await stopAll();
    return 1;
  } finally {
    await stopAll();
    // Only now: the chains have exited. (A forced exit skips this and leaves the lock; the next
    // owner stops whatever of the chains still runs.)
    lock.release();
    signals.remove();
  }
}

/**
 * Webhook delivery in this process (docs/webhooks.md), stopped first of all on shutdown (it is
 * pushed last). When a `bridge-oracle deliver` already runs on this SQLite database, that one
 * delivers and start says so instead of failing.
 */
async function startWebhookDelivery(
  database: Database,
  config: WebhookConfig,
  closers: (() => Promise<void>)[],
): Promise<void> {
  try {
    const delivery = await startDeliveryService({ database, config });
    closers.push(async () => {
      say("webhooks: finishing the deliveries in flight");
      await delivery.stop();
    });
  } catch (error) {
    say(
      error instanceof DeliveryLockedError
        ? `webhooks: not delivering here: ${error.message}`
        : `webhooks: delivery not started: ${errorMessage(error)}`,
    );
  }
}

async function blockHash(rpcUrl: string, blockNumber: number): Promise<string | undefined> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getBlockByNumber",
      params: [`0x${blockNumber.toString(16)}`, false],
    }),
    signal: AbortSignal.timeout(5000),
  });
  const body = (await response.json()) as { result?: { hash?: string } | null };
  return body.result?.hash ?? undefined;
}

function say(message: string): void {
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} start: ${message}\n`);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
