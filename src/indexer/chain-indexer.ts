/**
 * One chain's indexing loop: backfill from the start block in adaptive eth_getLogs spans, then
 * follow the head `confirmations` blocks behind. Each batch (raw events, block hashes, derived
 * records, cursor) is committed in one transaction, so a crash at any moment leaves either the
 * whole batch or none of it, and a replay after restart inserts nothing twice.
 *
 * This file only sequences a step: fetch-span.ts fetches a span into a batch, roll-back.ts rolls
 * back a reorganisation, supervise-chain.ts runs the steps (heartbeat, backoff, stops).
 *
 * Invariants: cursor <= head - confirmations; the stored hash of the cursor block is canonical
 * as long as no reorg happened below it (checked before every batch through the next block's
 * parent hash, and on every idle poll directly).
 */
import type { ChainClient } from "../chain/create-chain-client.js";
import type { IndexerChainConfig } from "../config/indexer-config.js";
import { type BridgeRegistry, DEFAULT_PROTOCOL } from "../domain/bridge-registry.js";
import { formatUtc } from "../domain/utc-time.js";
import type { ProtocolRegistry } from "../protocols/index.js";
import type { IndexerChainRow, IndexerChainState } from "../store/indexer-repository.js";
import type { ChainIndexerStatus, StepOutcome } from "./chain-status.js";
import { WrongChainError } from "./chain-stop.js";
import { batchOf, createSpanFetcher } from "./fetch-span.js";
import type { IndexerLogFields, IndexerLogger } from "./indexer-logger.js";
import type { IndexerStore } from "./indexer-store.js";
import type { ProgressReporter } from "./progress.js";
import { nodeBehindCursor, rollBack } from "./roll-back.js";
import { superviseChain } from "./supervise-chain.js";
import type { TokenMetadataCache } from "./token-metadata.js";
import { derivePending, writeBatch } from "./write-batch.js";

export type { ChainIndexerStatus, StepOutcome } from "./chain-status.js";
export { isChainStop, WrongChainError } from "./chain-stop.js";
export type { IndexerLogFields, IndexerLogger } from "./indexer-logger.js";
export { HEARTBEAT_MS, STUCK_STEP_MS } from "./supervise-chain.js";

export interface ChainIndexerDeps {
  chain: IndexerChainConfig;
  client: ChainClient;
  /** Its transactions run one at a time and hold the indexer write lock (create-indexer.ts). */
  store: IndexerStore;
  /** The step heartbeat's transactions: beside `store`'s, not queued behind them. */
  heartbeatTransaction: IndexerStore["transaction"];
  registry: BridgeRegistry;
  /** Decodes each registry contract's logs through the contract's protocol. */
  protocols: ProtocolRegistry;
  tokens: TokenMetadataCache;
  logger: IndexerLogger;
  maxBlockRange: number;
  pollIntervalMs: number;
  progress?: ProgressReporter;
  /** How often a running step refreshes the row's updated_at. Default HEARTBEAT_MS. */
  heartbeatMs?: number;
  /** A step running longer than this is reported as stuck. Default STUCK_STEP_MS. */
  stuckStepMs?: number;
}

export interface ChainIndexer {
  /** One poll: a batch, an idle check, or a reorg rollback. */
  step(): Promise<StepOutcome>;
  /** Steps until `signal` aborts (finishing the current batch) or a reorg is too deep. */
  run(signal: AbortSignal): Promise<void>;
  status(): ChainIndexerStatus;
}

export function createChainIndexer(deps: ChainIndexerDeps): ChainIndexer {
  const { chain, client, store, registry, logger } = deps;
  const _fields: IndexerLogFields = { chain: chain.name, chainId: chain.chainId };
  let chainIdChecked = false;
  const spans = createSpanFetcher({
    chain,
    client,
    registry,
    protocols: deps.protocols,
    tokens: deps.tokens,
    logger,
    maxBlockRange: deps.maxBlockRange,
  });
  // Protocols here whose sends carry deadlines: each batch expires the passed ones (expire-sends.ts).
  const deadlineProtocols = [
    ...new Set(registry.bridgesOn(chain.chainId).map((b) => b.protocol ?? DEFAULT_PROTOCOL)),
  ].filter((name) => deps.protocols.get(name)?.indexing.sendsHaveDeadlines === true);
  const status: ChainIndexerStatus = {
    chainId: chain.chainId,
    name: chain.name,
    state: "starting",
    cursorBlock: chain.startBlock - 1,
    headBlock: 0,
    lag: 0,
    error: "",
  };
  let tokensLoaded = false;

  async function loadRow(): Promise<IndexerChainRow> {
    if (!tokensLoaded) {
      deps.tokens.load(await store.indexer.loadTokenMetadata());
      tokensLoaded = true;
    }
    const row = await store.indexer.getChain(chain.chainId);
    if (row !== undefined) return row;
    return store.transaction((tx) =>
      tx.indexer.ensureChain({
        chainId: chain.chainId,
        name: chain.name,
        startBlock: chain.startBlock,
        cursorBlock: chain.startBlock - 1,
        cursorHash: "",
        headBlock: 0,
        targetBlock: 0,
        state: "starting",
        error: "",
        updatedAt: stamp(),
      }),
    );
  }

  function stamp(): string {
    return formatUtc(Math.floor(Date.now() / 1000));
  }

  function setStatus(row: Pick<IndexerChainRow, "cursorBlock" | "state">, head: number) {
    status.cursorBlock = row.cursorBlock;
    status.state = row.state;
    status.headBlock = head;
    status.error = "";
    // Behind the confirmed head, not the head: a chain that follows `confirmations` blocks back
    // is caught up at lag 0, whatever its confirmations.
    status.lag = Math.max(0, head - chain.confirmations - row.cursorBlock);
  }

  async function rolledBack(row: IndexerChainRow, head: number): Promise<StepOutcome> {
    const ancestor = await rollBack({ chain, client, store, registry, logger, stamp }, row, head);
    setStatus({ cursorBlock: ancestor, state: row.state }, head);
    return "reorg";
  }

  async function step(): Promise<StepOutcome> {
    const row = await loadRow();
    if (!chainIdChecked) {
      // An rpcUrl pointing at another chain would index nothing (or the wrong contracts) while
      // looking healthy: the node's chain id must be the configured one, checked once.
      const actual = await client.getChainId();
      if (actual !== chain.chainId) throw new WrongChainError(chain.name, chain.chainId, actual);
      chainIdChecked = true;
    }
    const head = await client.getBlockNumber();
    const target = head - chain.confirmations;
    const cursor = row.cursorBlock;

    if (target <= cursor) {
      // Idle: nothing new to index, but the chain may have replaced the cursor block.
      let waiting = "";
      if (row.cursorHash !== "") {
        const current = await client.getBlockHeader(cursor);
        if (current !== undefined && current.hash !== row.cursorHash) return rolledBack(row, head);
        if (current === undefined) {
          // No block there: the node's head is below the cursor. A lagging or load-balanced RPC
          // is waited for, but a shorter replacement chain (a reset node, a restarted devnet)
          // must not be: its head block differs from the stored one at that height.
          const behind = await nodeBehindCursor({ chain, client, store }, head);
          if (behind === "replaced") return rolledBack(row, head);
          if (behind === "unverifiable") {
            waiting =
              `the node's head ${head} is below the indexed block ${cursor} and below every ` +
              "stored block hash, so it cannot be told from a reset node (e.g. a restarted " +
              "devnet indexed into the previous run's database); waiting for it";
          }
        }
      }
      const state: IndexerChainState = "following";
      // Through a transaction: on SQLite the connection is shared with other chains' batches.
      // Records a backfill left for later (a run that stopped before catching up) are derived
      // here at the latest (write-batch.ts, derivePending).
      await store.transaction(async (tx) => {
        await tx.indexer.updateProgress(chain.chainId, {
          headBlock: head,
          targetBlock: Math.max(0, target),
          state,
          error: waiting,
          updatedAt: stamp(),
        });
        await derivePending(tx, registry.source, stamp());
      });
      setStatus({ cursorBlock: cursor, state }, head);
      status.error = waiting;
      deps.progress?.done(chain.name);
      return "idle";
    }

    const from = cursor + 1;
    const end = spans.spanEnd(from, target, head);
    // Near the head every block is fetched before the logs and stored, so any later change
    // shows up as a hash mismatch; far below it (final blocks) only the batch's edges are.
    const following = end > head - chain.finalityDepth;
    const fetched = await spans.fetch(from, end, following);
    if (fetched === "raced") return "raced";
    if (row.cursorHash !== "" && fetched.known.get(from)!.parentHash !== row.cursorHash) {
      return rolledBack(row, head);
    }

    const batch = batchOf(
      chain,
      fetched,
      { cursor, head, target, now: stamp() },
      deps.tokens,
      deadlineProtocols,
    );
    const { cursorBlock: toBlock, state } = batch.next;
    const committed = store.transaction((tx) => writeBatch(tx, batch, registry.source));
    // Backfilling final blocks: fetch the next span while this one is written. It is checked
    // exactly as a fresh fetch would be (the next step compares its first block's parent hash
    // with the then stored cursor hash), and dropped when the next step starts elsewhere.
    if (state === "backfill") {
      const nextEnd = spans.spanEnd(toBlock + 1, target, head);
      if (nextEnd <= head - chain.finalityDepth) spans.prefetch(toBlock + 1, nextEnd);
    }
    await committed;
    setStatus({ cursorBlock: toBlock, state }, head);
    if (state === "backfill") {
      deps.progress?.update({
        chain: chain.name,
        cursorBlock: toBlock,
        startBlock: chain.startBlock,
        targetBlock: target,
      });
    } else deps.progress?.done(chain.name);
    return "progressed";
  }

  const run = (signal: AbortSignal) =>
    superviseChain(
      {
        chain,
        store,
        heartbeatTransaction: deps.heartbeatTransaction,
        logger,
        status,
        stamp,
        pollIntervalMs: deps.pollIntervalMs,
        progress: deps.progress,
        heartbeatMs: deps.heartbeatMs,
        stuckStepMs: deps.stuckStepMs,
        step,
      },
      signal,
    );

  return { step, run, status: () => ({ ...status }) };
}
