/**
 * Retention of the change log (docs/push.md): every API process (`serve`, `start`) deletes the
 * changes older than CHANGE_LOG_RETENTION_HOURS, a minute after it starts and then every ten
 * minutes, in small batches (transfer-change-repository.ts prune). Pruning is idempotent, so
 * several API processes on one database only repeat each other's cheap check. The API process
 * rather than the indexer: it is the log's reader, and runs wherever streams are served.
 */
import type { TransferChangeRepository } from "../../store/index.js";

export interface ChangeLogPrunerOptions {
  changes: TransferChangeRepository;
  retentionMs: number;
  /** Default 60 s. */
  firstDelayMs?: number;
  /** Default 10 minutes. */
  intervalMs?: number;
  logger?: {
    info(fields: object, message: string): void;
    warn(fields: object, message: string): void;
  };
  now?: () => number;
}

export interface ChangeLogPruner {
  /** One pass now (tests); resolves with the number of changes deleted. */
  pruneNow(): Promise<number>;
  stop(): Promise<void>;
}

export function startChangeLogPruner(options: ChangeLogPrunerOptions): ChangeLogPruner {
  const { changes, retentionMs, logger } = options;
  const now = options.now ?? Date.now;
  let running: Promise<number> | undefined;
  let stopped = false;

  function pruneNow(): Promise<number> {
    running ??= changes
      .prune(new Date(now() - retentionMs))
      .then((deleted) => {
        if (deleted > 0) logger?.info({ deleted, retentionMs }, "change log: pruned old changes");
        return deleted;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  function scheduled(): void {
    if (stopped) return;
    pruneNow().catch((error: unknown) =>
      logger?.warn({ err: (error as Error).message }, "change log: pruning failed; retrying later"),
    );
  }

  const first = setTimeout(scheduled, options.firstDelayMs ?? 60_000);
  first.unref();
  const every = setInterval(scheduled, options.intervalMs ?? 600_000);
  every.unref();
  return {
    pruneNow,
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running?.catch(() => undefined);
    },
  };
}
