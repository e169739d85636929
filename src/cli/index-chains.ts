/**
 * `bridge-oracle index [--config FILE] [--database URL]`: runs the indexer alone until SIGINT /
 * SIGTERM (the current batch of each chain finishes first). The config defaults to the devnet
 * manifest ($DEVNET_DIR/manifest.json, DEVNET_DIR default .devnet); the database to
 * DATABASE_URL (default ./data/bridge-oracle.db), shared with `serve`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ConfigError, loadDatabaseUrl, redactUrl } from "../config/env.js";
import { loadIndexerConfig } from "../config/indexer-config.js";
import { devnetDir } from "../devnet/write-manifest.js";
import { isChainStop } from "../indexer/chain-indexer.js";
import { createIndexer } from "../indexer/create-indexer.js";
import { createProgressReporter } from "../indexer/progress.js";
import { databaseKind, sqlitePath } from "../store/database-url.js";
import { summariseIndexerStatus } from "../store/indexer-status.js";
import { openIndexerStore } from "../store/indexer-store.js";
import { watchDatabaseFile } from "../store/sqlite/database-file.js";

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
`;

function log(level: string, message: string): void {
  process.stderr.write(`${new Date().toISOString()} index ${level}: ${message}\n`);
}

/**
 * How long a stop (SIGINT / SIGTERM) waits for the batches in flight. A batch on a database
 * connection that went silent finishes only when the silence check drops the connection (30 s
 * or more: docs/store.md, "Timeouts"), or never when that check gets no verdict, and the process
 * would say "finishing the current batch" for that long; past this it exits 1 instead. Safe: a batch is one transaction, and an uncommitted one is redone at the
 * next start (as after kill -9).
 */
export const STOP_GRACE_MS = 30_000;

export interface IndexRunOptions {
  /** See STOP_GRACE_MS (tests shorten it). */
  stopGraceMs?: number;
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
    process.stderr.write(`configuration error: ${error.message}\n`);
    return 1;
  }
  const openStore = async () => {
    try {
      return await openIndexerStore({ databaseUrl });
    } catch (error) {
      const message = (error as Error).message;
      const where = redactUrl(databaseUrl);
      log(
        "error",
        message.includes(where) ? message : `cannot open the database ${where}: ${message}`,
      );
      return undefined;
    }
  };
  if (values.status) {
    // A status query only reads: a mistyped path must not leave a new, empty database behind.
    const file = databaseKind(databaseUrl) === "sqlite" ? sqlitePath(databaseUrl) : undefined;
    if (file !== undefined && !existsSync(file)) {
      log(
        "error",
        `no database at ${file} (DATABASE_URL or --database): nothing was indexed there`,
      );
      return 1;
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
  const configPath = values.config ?? join(devnetDir(env), "manifest.json");

  let config: Awaited<ReturnType<typeof loadIndexerConfig>>;
  try {
    config = await loadIndexerConfig(configPath);
  } catch (error) {
    log("error", (error as Error).message);
    return 1;
  }
  const store = await openStore();
  if (store === undefined) return 1;
  const logger = {
    info: (m: string) => log("info", m),
    warn: (m: string) => log("warn", m),
    error: (m: string) => log("error", m),
  };
  const indexer = createIndexer({ config, store, logger, progress: createProgressReporter() });
  const controller = new AbortController();
  const graceMs = options.stopGraceMs ?? STOP_GRACE_MS;
  let grace: NodeJS.Timeout | undefined;
  const stop = (signal: string) => {
    if (controller.signal.aborted) return;
    log("info", `${signal}: finishing the current batch, then stopping`);
    controller.abort();
    grace = setTimeout(() => {
      log(
        "error",
        `${signal}: a batch has not finished ${graceMs / 1000} s after the stop (a database or ` +
          "RPC connection may have gone silent); exiting without it (it was not committed, " +
          "the next run redoes it)",
      );
      process.exit(1);
    }, graceMs);
    grace.unref();
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
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
      log("error", databaseGone.message);
      stop("the database file is gone");
    }
  }, DATABASE_FILE_CHECK_MS);
  fileWatch.unref();
  log("info", `indexing ${config.chains.map((c) => c.name).join(", ")} from ${configPath}`);
  try {
    await indexer.run(controller.signal);
    log("info", "stopped");
    return databaseGone === undefined ? 0 : 1;
  } catch (error) {
    // A chain that stopped loudly has logged why already; say only that everything stopped.
    if (isChainStop(error)) log("info", "stopped: a chain stopped loudly (its error is above)");
    else log("error", (error as Error).message);
    return 1;
  } finally {
    clearInterval(fileWatch);
    await store.close();
    clearTimeout(grace);
  }
}
