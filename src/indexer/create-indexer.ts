/**
 * All configured chains' loops in one process: a client per chain, one registry, one token
 * metadata cache, and one store whose writes run one at a time, each holding the indexer write
 * lock (and, under a leader lock, checking that this process still leads). `run` resolves when
 * the signal aborts (each loop finishes its current batch) and rejects when a chain stops loudly
 * (a reorg deeper than its finality depth) after the other chains were stopped too.
 */
import { type ChainClient, createChainClient } from "../chain/create-chain-client.js";
import type { IndexerConfig } from "../config/indexer-config.js";
import { createBridgeRegistry } from "../domain/bridge-registry.js";
import { PROTOCOLS, type ProtocolRegistry } from "../protocols/index.js";
import type { LeaderSession } from "../store/indexer-leader-lock.js";
import {
  type ChainIndexer,
  type ChainIndexerStatus,
  createChainIndexer,
  type IndexerLogger,
} from "./chain-indexer.js";
import type { IndexerStore } from "./indexer-store.js";
import { createMutex } from "./mutex.js";
import type { ProgressReporter } from "./progress.js";
import { createTokenMetadataCache } from "./token-metadata.js";

export interface IndexerDeps {
  config: IndexerConfig;
  store: IndexerStore;
  logger: IndexerLogger;
  progress?: ProgressReporter;
  /**
   * The leader lock's session (`index` on PostgreSQL): each write checks that it still holds
   * the lock, and is rolled back when it does not (src/store/indexer-leader-lock.ts, fencing).
   */
  leader?: LeaderSession;
  /** Overrides the RPC clients (tests put a faulty proxy in between this way or by URL). */
  clients?: ReadonlyMap<number, ChainClient>;
  /** See ChainIndexerDeps.heartbeatMs (tests shorten it). */
  heartbeatMs?: number;
  /** See ChainIndexerDeps.stuckStepMs (tests shorten it). */
  stuckStepMs?: number;
  /** The protocols its registry's contracts belong to; default PROTOCOLS (src/protocols/). */
  protocols?: ProtocolRegistry;
}

export interface Indexer {
  readonly chains: readonly ChainIndexer[];
  run(signal: AbortSignal): Promise<void>;
  status(): ChainIndexerStatus[];
}

export function createIndexer(deps: IndexerDeps): Indexer {
  const { config } = deps;
  // Stopping (SIGTERM, or a chain stopping loudly) also ends the clients' retry waits, so a
  // stop does not wait out an RPC that keeps failing.
  const stopping = new AbortController();
  const clients =
    deps.clients ??
    new Map(
      config.chains.map((c) => [
        c.chainId,
        createChainClient({
          rpcUrl: c.rpcUrl,
          chainId: c.chainId,
          timeoutMs: config.rpcTimeoutMs,
          signal: stopping.signal,
        }),
      ]),
    );
  const registry = createBridgeRegistry(config.chains, config.bridges);
  const tokens = createTokenMetadataCache(clients);
  // One write at a time in the process: a send committed by one chain and its delivery
  // committed by another always see each other, and a leader cut off mid-batch holds at most
  // one transaction open on the server. The write lock (an advisory lock on PostgreSQL) does
  // the same across processes and comes before the leader check (indexer-leader-lock.ts).
  // The step heartbeat's writes (updated_at, a stuck step) must not queue behind a write that
  // hangs: they go beside, with the leader check only.
  const commitLock = createMutex();
  const { leader } = deps;
  const store: IndexerStore = {
    indexer: deps.store.indexer,
    transaction: (work) =>
      commitLock.runExclusive(() =>
        deps.store.transaction(async (tx) => {
          await tx.indexer.lockForIndexing(leader);
          return work(tx);
        }),
      ),
  };
  const heartbeatTransaction: IndexerStore["transaction"] = (work) =>
    deps.store.transaction(async (tx) => {
      if (leader !== undefined) await tx.indexer.assertLeading(leader);
      return work(tx);
    });
  const chains = config.chains.map((chain) =>
    createChainIndexer({
      chain,
      client: clients.get(chain.chainId)!,
      store,
      heartbeatTransaction,
      registry,
      protocols: deps.protocols ?? PROTOCOLS,
      tokens,
      logger: deps.logger,
      maxBlockRange: config.maxBlockRange,
      pollIntervalMs: config.pollIntervalMs,
      progress: deps.progress,
      ...(deps.heartbeatMs !== undefined ? { heartbeatMs: deps.heartbeatMs } : {}),
      ...(deps.stuckStepMs !== undefined ? { stuckStepMs: deps.stuckStepMs } : {}),
    }),
  );

  return {
    chains,
    status: () => chains.map((c) => c.status()),
    async run(signal) {
      // A chain that stops loudly stops the others too: the process exits non-zero and a
      // supervisor (or a person) sees it, instead of half the chains silently going on.
      const inner = new AbortController();
      inner.signal.addEventListener("abort", () => stopping.abort(), { once: true });
      const onAbort = () => inner.abort();
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        const results = await Promise.allSettled(
          chains.map((c) =>
            c.run(inner.signal).catch((error) => {
              inner.abort();
              throw error;
            }),
          ),
        );
        const failed = results.find((r) => r.status === "rejected");
        if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    },
  };
}
