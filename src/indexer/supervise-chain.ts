/**
 * Supervising one chain's loop (chain-indexer.ts gives it the step): runs steps until stopped,
 * waits between idle polls, retries a failed step with backoff and writes what failed into the
 * chain's row, keeps the row's updated_at moving while a step runs (heartbeat) and reports a
 * step that runs too long, and stops the chain for good on a chain-stopping error.
 */
import { backoffDelayMs } from "../backoff.js";
import { ChainRpcError } from "../chain/create-chain-client.js";
import type { IndexerChainConfig } from "../config/indexer-config.js";
import { sleep } from "../sleep.js";
import type { ChainIndexerStatus, StepOutcome } from "./chain-status.js";
import { isChainStop } from "./chain-stop.js";
import type { IndexerLogFields, IndexerLogger } from "./indexer-logger.js";
import type { IndexerStore } from "./indexer-store.js";
import type { ProgressReporter } from "./progress.js";

/**
 * A step can run for a minute without committing (an RPC call retried six times with a 10 s
 * timeout each, or another chain's RPC it needs token metadata from). Meanwhile the row's
 * updated_at moves every 15 s, so status (60 s of silence = not running) does not call a live,
 * retrying indexer dead. Longest silence of a live chain: a 30 s backoff plus 15 s.
 */
export const HEARTBEAT_MS = 15_000;

/**
 * A step that has not finished after this long is reported in the row (so `--status` and
 * /readyz say the chain is not moving) instead of being kept "alive" by the heartbeat for ever:
 * a statement on a PostgreSQL connection that went silent has no query bound in the indexer
 * (docs/store.md, "Timeouts") and waits until the kernel gives up on the socket, or for good
 * behind a proxy that stalls. The slowest healthy step (six RPC attempts of 10 s) takes about a
 * minute.
 */
export const STUCK_STEP_MS = 120_000;

/**
 * A failed step is retried after 0.5 s, doubling to at most 30 s. No jitter: the delay is in the
 * log line ("retrying in N ms"), and each chain has its own RPC.
 */
const CHAIN_LOOP_BACKOFF = { baseMs: 500, maxMs: 30_000, jitter: "none" } as const;

export interface SuperviseChainDeps {
  chain: IndexerChainConfig;
  store: IndexerStore;
  /** The step heartbeat's transactions: beside `store`'s, not queued behind them. */
  heartbeatTransaction: IndexerStore["transaction"];
  logger: IndexerLogger;
  /** The loop's status, updated here on failures and stops. */
  status: ChainIndexerStatus;
  stamp(): string;
  step(): Promise<StepOutcome>;
  pollIntervalMs: number;
  progress?: ProgressReporter | undefined;
  heartbeatMs?: number | undefined;
  stuckStepMs?: number | undefined;
}

/** Steps until `signal` aborts (finishing the current step) or a chain-stopping error. */
export function superviseChain(deps: SuperviseChainDeps, signal: AbortSignal): Promise<void> {
  const { chain, store, logger, status, stamp, step } = deps;
  const fields: IndexerLogFields = { chain: chain.name, chainId: chain.chainId };

  /**
   * A failed step, in the chain's row (the next committed batch or idle poll clears it): status
   * and /readyz then say why a chain is not moving (an RPC that never answered, or another
   * chain's RPC its sends need token metadata from) instead of showing a frozen, healthy row.
   * Best effort: the database may be what failed.
   */
  async function recordFailure(
    message: string,
    transaction: IndexerStore["transaction"] = (work) => store.transaction(work),
  ): Promise<void> {
    const error = message.length > 500 ? `${message.slice(0, 497)}...` : message;
    status.error = error;
    await transaction(async (tx) => {
      const row = await tx.indexer.getChain(chain.chainId);
      if (row === undefined || row.state === "stopped") return;
      await tx.indexer.updateProgress(chain.chainId, {
        headBlock: row.headBlock,
        targetBlock: row.targetBlock,
        state: row.state,
        error,
        updatedAt: stamp(),
      });
    }).catch(() => undefined);
  }

  async function stepWithHeartbeat(): Promise<StepOutcome> {
    const started = Date.now();
    const stuckMs = deps.stuckStepMs ?? STUCK_STEP_MS;
    let warned = false;
    const heartbeat = setInterval(() => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (Date.now() - started >= stuckMs) {
        const message =
          `a step has been running for ${seconds} s without finishing (a slow batch, or an RPC ` +
          "or database connection that went silent); the indexer log has the details";
        if (!warned) logger.warn(`chain ${chain.name}: ${message}`, fields);
        warned = true;
        void recordFailure(message, deps.heartbeatTransaction);
        return;
      }
      void deps
        .heartbeatTransaction((tx) => tx.indexer.touchChain(chain.chainId, stamp()))
        .catch(() => undefined); // best effort: the database may be what is slow
    }, deps.heartbeatMs ?? HEARTBEAT_MS);
    try {
      return await step();
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const outcome = await stepWithHeartbeat();
        failures = 0;
        if (outcome === "idle") await sleep(deps.pollIntervalMs, signal);
        else if (outcome === "raced") await sleep(Math.min(deps.pollIntervalMs, 200), signal);
      } catch (error) {
        if (isChainStop(error)) {
          status.state = "stopped";
          status.error = error.message;
          logger.error(error.message, fields);
          await store
            .transaction(async (tx) => {
              // Stopped before this run read a head (the chain id check): the row keeps the
              // last head it knew, so status and metrics do not show the head dropping to 0.
              const row =
                status.headBlock > 0 ? undefined : await tx.indexer.getChain(chain.chainId);
              const head = row?.headBlock ?? status.headBlock;
              await tx.indexer.updateProgress(chain.chainId, {
                headBlock: head,
                targetBlock: row?.targetBlock ?? Math.max(0, head - chain.confirmations),
                state: "stopped",
                error: error.message,
                updatedAt: stamp(),
              });
            })
            .catch(() => undefined);
          throw error;
        }
        failures++;
        const delay = backoffDelayMs(failures, CHAIN_LOOP_BACKOFF);
        const message = (error as Error).message ?? String(error);
        // Logged once here, where it is handled; RPC errors are already credential-free.
        logger.warn(`chain ${chain.name}: ${message}; retrying in ${delay} ms`, {
          ...fields,
          retryInMs: delay,
        });
        // The row (shown by /readyz to anyone) gets what failed, not the node's or the
        // database's own text, which may quote hosts, paths or whatever an upstream echoes.
        await recordFailure(
          error instanceof ChainRpcError
            ? error.summary
            : "a step failed (the database or an internal error); the indexer log has the details",
        );
        await sleep(delay, signal);
      }
    }
    deps.progress?.done(chain.name);
  }

  return run(signal);
}
