/**
 * After a reorg is detected (a stored hash differs from the canonical one), finds the highest
 * stored block that is still canonical. Blocks are stored for every block the indexer followed
 * near the head (and for backfill batch ends and event blocks), so walking the stored blocks
 * down from the cursor finds the fork point exactly within the finality window. A fork below
 * the window is not guessed at: ReorgTooDeepError.
 */
import type { ChainClient } from "../chain/create-chain-client.js";
import type { IndexerRepository } from "../store/indexer-repository.js";

export class ReorgTooDeepError extends Error {
  /** What happened, without the advice for an operator of `index` (start gives its own). */
  readonly headline: string;

  constructor(
    readonly chainName: string,
    readonly cursorBlock: number,
    readonly finalityDepth: number,
    detail: string,
    /** "reset": the node has none of the stored blocks; the headline says so, not "reorg". */
    readonly kind: "reorg" | "reset" = "reorg",
  ) {
    const headline =
      kind === "reset"
        ? `chain ${chainName}: the node does not have the indexed chain up to block ` +
          `${cursorBlock} (${detail}); this chain's indexer stops instead of guessing.`
        : `chain ${chainName}: reorg deeper than finalityDepth ${finalityDepth} below indexed ` +
          `block ${cursorBlock} (${detail}); this chain's indexer stops instead of guessing.`;
    super(
      kind === "reset"
        ? headline
        : `${headline} Check the node, raise finalityDepth if the chain really reorgs this ` +
            "deep, and re-index it.",
    );
    this.name = "ReorgTooDeepError";
    this.headline = headline;
  }
}

export interface CommonAncestor {
  /** Highest block number both the stored and the canonical chain contain. */
  number: number;
  /** Its hash; "" when the ancestor is the block before the start block. */
  hash: string;
}

export async function findCommonAncestor(parameters: {
  client: ChainClient;
  repository: IndexerRepository;
  chainId: number;
  chainName: string;
  cursorBlock: number;
  startBlock: number;
  finalityDepth: number;
}): Promise<CommonAncestor> {
  const { cursorBlock, finalityDepth, startBlock } = parameters;
  const floor = cursorBlock - finalityDepth;
  const stored = await parameters.repository.blocksDescending(
    parameters.chainId,
    cursorBlock,
    finalityDepth + 1,
  );
  let compared = 0;
  let missing = 0;
  for (const block of stored) {
    if (block.number < floor) break;
    const canonical = await parameters.client.getBlockHeader(block.number);
    if (canonical?.hash === block.hash) return { number: block.number, hash: block.hash };
    compared++;
    if (canonical === undefined) missing++;
  }
  // Nothing stored before the start block: if the window reaches below it, start over.
  if (startBlock - 1 >= floor) return { number: startBlock - 1, hash: "" };
  const lowest = stored.at(-1);
  const range = lowest === undefined ? "" : `${Math.max(floor, lowest.number)} to ${cursorBlock}`;
  // A node that has none of the compared blocks is far shorter than what was indexed: it was
  // reset or replaced (typically a restarted devnet against the previous run's database).
  const reset = compared > 0 && missing === compared;
  if (reset) {
    throw new ReorgTooDeepError(
      parameters.chainName,
      cursorBlock,
      finalityDepth,
      `the node has none of the stored blocks ${range}: it was reset or is another chain, ` +
        "e.g. a restarted devnet indexed into the previous run's database; use a fresh database",
      "reset",
    );
  }
  throw new ReorgTooDeepError(
    parameters.chainName,
    cursorBlock,
    finalityDepth,
    lowest === undefined
      ? "no stored block to compare"
      : `no stored block from ${range} is canonical; if the node was reset or replaced ` +
          "(e.g. a restarted devnet), index into a fresh database instead",
  );
}
