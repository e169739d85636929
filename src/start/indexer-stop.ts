/**
 * What `start` says when its indexer stops loudly. Inside `start` that means the database and
 * the devnet's chains disagree beyond what the indexer rolls back (its cursor block is gone from
 * the chain): every later start would stop the same way, and the indexer's own advice (raise
 * finalityDepth, re-index) names a setting `start` does not have. The way out is a fresh devnet:
 * without DEVNET_DIR the next start deploys new chains and deletes the data indexed from the old
 * ones (devnet-data.ts); API keys stay.
 */
import { errorMessage } from "../errors.js";
import { isChainStop } from "../indexer/chain-indexer.js";
import { ReorgTooDeepError } from "../indexer/find-common-ancestor.js";
import { shellQuote } from "./shell-quote.js";

export interface IndexerStopReport {
  /** Why the indexer stopped, one line. */
  reason: string;
  /** The last line `start` prints: what the next start will do and what to do about it. */
  advice: string;
}

export function indexerStopReport(error: unknown, devnetDir: string): IndexerStopReport {
  const reason = error instanceof ReorgTooDeepError ? error.headline : errorMessage(error);
  if (!isChainStop(error)) {
    return { reason, advice: "stopped after the indexer failed (see above)" };
  }
  return {
    reason,
    advice:
      "stopped; the database holds blocks the devnet's chains do not have, so the next start " +
      "would stop the same way. To start over on a fresh devnet (the next start deploys new " +
      "chains and deletes the data indexed from the old ones; API keys stay), remove the " +
      `devnet directory: rm -rf ${shellQuote(devnetDir)}`,
  };
}
