/**
 * Rolling a chain back after a reorganisation (the chain loop, chain-indexer.ts, decides when):
 * find the last stored block still on the canonical chain, then in one transaction delete the
 * events and blocks above it, move the cursor there and derive the touched records again (a
 * record whose send is gone is removed). Also tells a node that lags behind the cursor from one
 * that follows another chain.
 */
import type { ChainClient } from "../chain/create-chain-client.js";
import type { IndexerChainConfig } from "../config/indexer-config.js";
import type { BridgeRegistry } from "../domain/bridge-registry.js";
import type { IndexerChainRow } from "../store/indexer-repository.js";
import { findCommonAncestor } from "./find-common-ancestor.js";
import type { IndexerLogger } from "./indexer-logger.js";
import type { IndexerStore } from "./indexer-store.js";

export interface RollBackDeps {
  chain: IndexerChainConfig;
  client: ChainClient;
  store: IndexerStore;
  registry: BridgeRegistry;
  logger: IndexerLogger;
  /** The time written to rows and records, UTC `YYYY-MM-DD HH:MM:SS`. */
  stamp(): string;
}

/** Rolls the chain back to the common ancestor with the node's chain; returns that block. */
export async function rollBack(
  deps: RollBackDeps,
  row: IndexerChainRow,
  head: number,
): Promise<number> {
  const { chain, client, store, registry, logger, stamp } = deps;
  const ancestor = await findCommonAncestor({
    client,
    repository: store.indexer,
    chainId: chain.chainId,
    chainName: chain.name,
    cursorBlock: row.cursorBlock,
    startBlock: chain.startBlock,
    finalityDepth: chain.finalityDepth,
  });
  const result = await store.transaction(async (tx) => {
    const ids = await tx.indexer.deleteEventsAbove(chain.chainId, ancestor.number);
    await tx.indexer.deleteBlocksAbove(chain.chainId, ancestor.number);
    const moved = await tx.indexer.moveCursor(chain.chainId, row.cursorBlock, {
      cursorBlock: ancestor.number,
      cursorHash: ancestor.hash,
      headBlock: head,
      targetBlock: Math.max(0, head - chain.confirmations),
      state: row.state,
      updatedAt: stamp(),
    });
    if (!moved) throw new Error(`chain ${chain.name}: cursor moved by another writer`);
    const derived = await tx.transferDerivation.derive(ids, registry.source, stamp());
    return { ids, derived };
  });
  logger.warn(
    `chain ${chain.name}: reorg: rolled back ${row.cursorBlock - ancestor.number} block(s) to ` +
      `${ancestor.number}; ${result.ids.length} message(s) re-derived ` +
      `(${result.derived.upserted} updated, ${result.derived.deleted} removed)`,
    {
      chain: chain.name,
      chainId: chain.chainId,
      ancestorBlock: ancestor.number,
      messages: result.ids.length,
    },
  );
  return ancestor.number;
}

/**
 * The node's head is below the cursor: "lagging" when its head block is the one stored at
 * that height (or the highest stored one below it), "replaced" when it differs (the node
 * follows another chain: roll back), "unverifiable" when no block at or below its head is
 * stored any more (more than finalityDepth behind).
 */
export async function nodeBehindCursor(
  deps: Pick<RollBackDeps, "chain" | "client" | "store">,
  head: number,
): Promise<"lagging" | "replaced" | "unverifiable"> {
  const [stored] = await deps.store.indexer.blocksDescending(deps.chain.chainId, head, 1);
  if (stored === undefined) return "unverifiable";
  const canonical = await deps.client.getBlockHeader(stored.number);
  if (canonical === undefined) return "lagging"; // it shrank further meanwhile: look again
  return canonical.hash === stored.hash ? "lagging" : "replaced";
}
