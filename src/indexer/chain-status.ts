/** What one step of a chain's loop did, and the loop's status (chain-indexer.ts). */
import type { IndexerChainState } from "../store/indexer-repository.js";

export type StepOutcome = "progressed" | "idle" | "reorg" | "raced";

export interface ChainIndexerStatus {
  chainId: number;
  name: string;
  state: IndexerChainState;
  cursorBlock: number;
  headBlock: number;
  lag: number;
  error: string;
}
