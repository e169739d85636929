/**
 * `bridge-oracle index [--config FILE] [--database URL]`: runs the indexer alone until SIGINT, SIGHUP or
 * SIGTERM (the current batch of each chain finishes first). The config defaults to the devnet
 * manifest ($DEVNET_DIR/manifest.json, DEVNET_DIR default .devnet); the database to
 * DATABASE_URL (default ./data/bridge-oracle.db), shared with `serve`.
 *
 * It logs as `serve` does: JSON lines on stdout at LOG_LEVEL (json-logger.ts). As with `serve`,
 * a refusal to start (bad setting, unreadable config, database that does not open) is one plain
 * line on stderr and exit 1, and `--status` prints its JSON on stdout and its errors on stderr.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { summariseIndexerStatus } from "../api/indexer-readiness.js";
import { ConfigError, type LogLevel, loadDatabaseUrl, loadLogLevel } from "../config/env.js";
import { loadIndexerConfig } from "../config/indexer-config.js";
import { devnetDir } from "../devnet/write-manifest.js";
import { type IndexerLogger, isChainStop } from "../indexer/chain-indexer.js";
import { createIndexer } from "../indexer/create-indexer.js";
import { createProgressReporter, type ProgressReporter } from "../indexer/progress.js";
import { createJsonLogger, type LogDestination, stdoutDestination } from "../json-logger.js";
import { redactUrl } from "../redact-url.js";
import { sleep } from "../sleep.js";
import { STOP_SIGNALS } from "../stop-signals.js";
import { databaseKind, missingSqliteFile, sqlitePath } from "../store/database-url.js";
import { openDatabase } from "../store/index.js";
import {
  createPostgresLeaderLock,
  createSqliteLeaderLock,
  type LeaderLock,
  RETRY_AFTER_LOSS_MS,
} from "../store/indexer-leader-lock.js";
import { INDEXER_POSTGRES_TIMEOUTS } from "../store/postgres/connections.js";
import { watchDatabaseFile } from "../store/sqlite/database-file.js";
import type { StoreLogger } from "../store/types.js";

/** How often `index` checks that its SQLite file is still the one it opened. */
const DATABASE_FILE_CHECK_MS = 2000;

const USAGE = `usage: bridge-oracle index [--config FILE] [--database URL]
       bridge-oracle index --status [--database URL]

  --config FILE     chains and bridge contracts (JSON); default $DEVNET_DIR/manifest.json
                    (DEVNET_DIR defaults to .devnet), the devnet manifest
  --database URL    postgres://... or a SQLite file; default $DATABASE_URL or
                    ./data/bridge-oracle.db
  --status          print each chain's indexed block, head, lag and state as JSON (from the
                    database, so it works while another process indexes); exit 0 when ready

Logs JSON lines on stdout at LOG_LEVEL (default info), as serve does; a refusal to start is
one line on stderr. On a terminal, a backfill progress line on stderr.
`;

/** A refusal before the indexer runs (or a --status failure): one plain line on stderr. */
function refuse(message: string): 1 {
  process.stderr.write(`${message}\n`);
  return 1;
}

/** Writes through the progress line (on a terminal), so log lines never start inside it. */
function aboveProgress(destination: LogDestination, progress: ProgressReporter): LogDestination {
  return { write: (line) => progress.printAbove(() => destination.write(line)) };
}

/**
 * How long a stop (SIGINT / SIGTERM) waits for the batches in flight. A batch on a database
 * connection that went silent finishes only when the silence check drops the connection (30 s
 * or more: docs/store.md, "Timeouts"), or never when that check gets no verdict, and the process
 * would say "finishing the current batch" for that long; past this it exits 1 instead. Safe: a
 * batch is one transaction, and an uncommitted one is redone at the next start (as after
 * kill -9).
 */
export const STOP_GRACE_MS = 30_000;

export interface IndexRunOptions {
  /** See STOP_GRACE_MS (tests shorten it). */
  stopGraceMs?: number;
  /** Where the JSON log lines go; default stdout (tests collect them here). */
  logDestination?: LogDestination;
  /** Resolves with a signal name to stop as on that signal; default: SIGINT and SIGTERM. */
  stopSignal?: Promise<string>;
}

export async function run(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  options: IndexRunOptions = {},
): Promise<number> {
  let values: { config?: string; database?: string; help?: boolean; status?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        config: { type: "string" },
        database: { type: "string" },
        help: { type: "boolean", short: "h" },
        status: { type: "boolean" },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  // --database, else DATABASE_URL validated as `serve` validates it (an empty one is unset).
  let databaseUrl: string;
  try {
    databaseUrl = values.database?.trim() || loadDatabaseUrl(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return refuse(`configuration error: ${error.message}`);
  }
  const openStore = async (logger?: StoreLogger) => {
    try {
      const file = databaseKind(databaseUrl) === "sqlite" ? sqlitePath(databaseUrl) : undefined;
      if (file === ":memory:" || file === "") {
        throw new Error("the indexer needs a database file (or PostgreSQL), not :memory:");
      }
      // Migrations and batches may run for minutes: the background bounds (no query bound),
      // and the server ends a transaction left silent (INDEXER_POSTGRES_TIMEOUTS).
      // SQLite: a batch waits up to 10 s for another process's write lock (`import`, `serve`).
      return await openDatabase(databaseUrl, {
        logger,
        busyTimeoutMs: 10_000,
        timeouts: INDEXER_POSTGRES_TIMEOUTS,
        // --status only reads: it changes no schema, even of an older database.
        migrate: !values.status,
      });
    } catch (error) {
      const message = (error as Error).message;
      const where = redactUrl(databaseUrl);
      refuse(message.includes(where) ? message : `cannot open the database ${where}: ${message}`);
      return undefined;
    }
  };
  if (values.status) {
    // A status query only reads: a mistyped path must not leave a new, empty database behind.
    const file = missingSqliteFile(databaseUrl);
    if (file !== undefined) {
      return refuse(
        `no database at ${file} (DATABASE_URL or --database): nothing was indexed there`,
      );
    }
    const store = await openStore();
    if (store === undefined) return 1;
    try {
      const summary = summariseIndexerStatus(await store.indexer.getIndexerStatus());
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return summary.ready ? 0 : 1;
    } finally {
      await store.close();
    }
  }
  // LOG_LEVEL only here: --status logs nothing, so it does not refuse over it.
  let logLevel: LogLevel;
  try {
    logLevel = loadLogLevel(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return refuse(`configuration error: ${error.message}`);
  }
  const configPath = values.config ?? join(devnetDir(env), "manifest.json");

  let config: Awaited<ReturnType<typeof loadIndexerConfig>>;
  try {
    config = await loadIndexerConfig(configPath);
  } catch (error) {
    return refuse((error as Error).message);
  }
  // The progress line (stderr, a terminal only) stays out of the log: lines go above it.
  const progress = createProgressReporter();
  const json = createJsonLogger(
    logLevel,
    aboveProgress(options.logDestination ?? stdoutDestination, progress),
  );
  const store = await openStore(json);
  if (store === undefined) return 1;
  const logger: IndexerLogger = {
    info: (message, fields) => json.info(fields ?? {}, message),
    warn: (message, fields) => json.warn(fields ?? {}, message),
    error: (message, fields) => json.error(fields ?? {}, message),
  };
  const controller = new AbortController();
  const graceMs = options.stopGraceMs ?? STOP_GRACE_MS;
  let grace: NodeJS.Timeout | undefined;
  let finished = false;
  const stop = (signal: string) => {
    if (finished || controller.signal.aborted) return;
    json.info(`${signal}: finishing the current batch, then stopping`);
    controller.abort();
    grace = setTimeout(() => {
      json.error(
        `${signal}: a batch has not finished ${graceMs / 1000} s after the stop (a database or ` +
          "RPC connection may have gone silent); exiting without it (it was not committed, " +
          "the next run redoes it)",
      );
      process.exit(1);
    }, graceMs);
    grace.unref();
  };
  const onSignal = (signal: NodeJS.Signals) => stop(signal);
  if (options.stopSignal !== undefined) void options.stopSignal.then(stop);
  else {
    // once: a second signal of the same kind ends the process at once (the default action).
    for (const name of STOP_SIGNALS) process.once(name, onSignal);
  }
  // SQLite: a database file deleted or replaced under the indexer is a stop, not a silent loss.
  let databaseGone: Error | undefined;
  const databaseFile =
    store.kind === "sqlite" ? watchDatabaseFile(sqlitePath(databaseUrl)) : undefined;
  const fileWatch = setInterval(() => {
    try {
      databaseFile?.check();
    } catch (error) {
      if (databaseGone !== undefined) return;
      databaseGone = error as Error;
      json.error({ database: redactUrl(databaseUrl) }, databaseGone.message);
      stop("the database file is gone");
    }
  }, DATABASE_FILE_CHECK_MS);
  fileWatch.unref();
  const announce = () =>
    json.info(
      {
        chains: config.chains.map((c) => ({ chain: c.name, chainId: c.chainId })),
        config: configPath,
        database: redactUrl(databaseUrl),
        store: store.kind,
      },
      `indexing ${config.chains.map((c) => c.name).join(", ")} from ${configPath}`,
    );
  // One indexer per database: on PostgreSQL the others wait as standbys, on SQLite they are
  // refused (src/store/indexer-leader-lock.ts).
  const newLock = (): LeaderLock =>
    store.kind === "postgres"
      ? createPostgresLeaderLock(databaseUrl)
      : createSqliteLeaderLock(sqlitePath(databaseUrl));
  let lock = newLock();
  try {
    while (!controller.signal.aborted) {
      let leading: boolean;
      try {
        leading = await lock.acquire(controller.signal, (leader) =>
          json.info(
            { leader: leader ?? null },
            `standby: ${leader?.process ?? "another process"} leads the indexer of this database; ` +
              "waiting to take over",
          ),
        );
      } catch (error) {
        return refuse((error as Error).message);
      }
      if (!leading) break;
      announce();
      // A term as leader: until a stop, or until the lock's connection is lost (then the
      // chains finish their batches, and this process waits to lead again).
      const term = new AbortController();
      const endTerm = () => term.abort();
      controller.signal.addEventListener("abort", endTerm, { once: true });
      lock.lost.addEventListener("abort", endTerm, { once: true });
      try {
        // Each write checks that this term's lock session still holds the lock (fencing).
        const leader = lock.session;
        await createIndexer({ config, store, logger, progress, leader }).run(term.signal);
      } finally {
        controller.signal.removeEventListener("abort", endTerm);
      }
      if (controller.signal.aborted || !lock.lost.aborted) break;
      json.warn(
        "lost the indexer lock's database connection: stopped indexing; waiting to lead again",
      );
      await lock.release();
      lock = newLock();
      await sleep(RETRY_AFTER_LOSS_MS, controller.signal);
    }
    json.info("stopped");
    return databaseGone === undefined ? 0 : 1;
  } catch (error) {
    // A chain that stopped loudly has logged why already; say only that everything stopped.
    if (isChainStop(error)) json.info("stopped: a chain stopped loudly (its error is above)");
    else json.error((error as Error).message);
    return 1;
  } finally {
    await lock.release();
    // A later signal is not this run's (run() is called more than once in tests).
    finished = true;
    for (const name of STOP_SIGNALS) process.off(name, onSignal);
    clearInterval(fileWatch);
    await store.close();
    clearTimeout(grace);
  }
}
