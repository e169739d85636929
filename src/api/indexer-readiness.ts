/**
 * The indexer's state as another process (`serve`) sees it, judged for readiness: the rows the
 * store reads from indexer_chains (store/indexer-status.ts) -> a summary, and the /readyz check
 * that turns "not ready" into a 503. Pure apart from the reader, so the API wraps it without
 * importing the indexer (the API's /metrics exports the same rows as gauges: plugins/metrics.ts).
 */
import { ApiError } from "../errors.js";
import type { IndexerChainStatus } from "../store/indexer-repository.js";

export interface IndexerReadinessOptions {
  /** A chain further behind its confirmed head than this is not ready. Default 50 blocks. */
  maxLagBlocks?: number;
  /** A chain whose row was not updated for this long (indexer down) is not ready. Default 60 s. */
  maxSilenceSeconds?: number;
  now?: () => Date;
}

export interface IndexerChainSummary {
  chain: string;
  chainId: number;
  state: string;
  indexedBlock: number;
  head: number;
  lag: number;
  updatedAt: string;
  error: string;
  /** `host:pid` of the leading `index` process (PostgreSQL); "" when none, and on SQLite. */
  leader: string;
}

export interface IndexerSummary {
  ready: boolean;
  /** Why not ready, naming the chain; "" when ready. */
  reason: string;
  chains: IndexerChainSummary[];
}

export function summariseIndexerStatus(
  rows: readonly IndexerChainStatus[],
  options: IndexerReadinessOptions = {},
): IndexerSummary {
  const maxLag = options.maxLagBlocks ?? 50;
  const maxSilence = options.maxSilenceSeconds ?? 60;
  const now = (options.now ?? (() => new Date()))().getTime();
  const chains = rows.map((r) => ({
    chain: r.name,
    chainId: r.chainId,
    state: r.state,
    indexedBlock: r.cursorBlock,
    head: r.headBlock,
    lag: r.lag,
    updatedAt: r.updatedAt,
    error: r.error,
    leader: r.leader,
  }));
  const problems: string[] = [];
  if (rows.length === 0) problems.push("the indexer has not started on any chain");
  for (const c of chains) {
    const silence = (now - Date.parse(`${c.updatedAt.replace(" ", "T")}Z`)) / 1000;
    if (c.state === "stopped") problems.push(`chain ${c.chain} stopped: ${c.error}`);
    else if (!(silence <= maxSilence)) {
      problems.push(`chain ${c.chain} has not been updated for ${Math.round(silence)} s`);
    } else if (c.state === "starting") {
      // Head unknown (lag reads 0): not yet indexing, whatever the lag says.
      const why = c.error === "" ? "it has not read its chain head yet" : c.error;
      problems.push(`chain ${c.chain} is starting: ${why}`);
    } else if (c.error !== "") problems.push(`chain ${c.chain} is retrying: ${c.error}`);
    else if (c.lag > maxLag) {
      problems.push(`chain ${c.chain} is ${c.lag} blocks behind its confirmed head`);
    }
  }
  return { ready: problems.length === 0, reason: problems.join("; "), chains };
}

/**
 * A /readyz check (the shape of the API's ReadinessCheck) named "indexer": reports the summary
 * when the database has indexer chain rows and every chain is ready; rejects with 503 50301
 * naming the chain otherwise. No rows (no indexer ever ran on this database): resolves with
 * undefined, so /readyz shows no indexer key and readiness is the database's alone.
 */
export function indexerReadinessCheck(
  read: () => Promise<readonly IndexerChainStatus[]>,
  options: IndexerReadinessOptions = {},
): { readonly name: string; check(): Promise<IndexerSummary | undefined> } {
  return {
    name: "indexer",
    async check() {
      const rows = await read();
      if (rows.length === 0) return undefined;
      const summary = summariseIndexerStatus(rows, options);
      if (!summary.ready) {
        throw new ApiError("serviceUnavailable", `not ready: indexer: ${summary.reason}`);
      }
      return summary;
    },
  };
}
