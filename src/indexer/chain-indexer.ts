/**
 * One chain's indexing loop: backfill from the start block in adaptive eth_getLogs spans, then
 * follow the head `confirmations` blocks behind. Each batch (raw events, block hashes, derived
 * records, cursor) is committed in one transaction, so a crash at any moment leaves either the
 * whole batch or none of it, and a replay after restart inserts nothing twice.
 *
 * Invariants: cursor <= head - confirmations; the stored hash of the cursor block is canonical
 * as long as no reorg happened below it (checked before every batch through the next block's
 * parent hash, and on every idle poll directly).
 */
import type { Hex } from "viem";
import { backoffDelayMs } from "../backoff.js";
import { type AdaptiveRange, createAdaptiveRange } from "../chain/adaptive-range.js";
import {
  type BlockHeader,
  type ChainClient,
  ChainRpcError,
  type RawLog,
} from "../chain/create-chain-client.js";
import { fetchLogs } from "../chain/fetch-logs.js";
import type { IndexerChainConfig } from "../config/indexer-config.js";
import { type BridgeEvent, compareEvents } from "../domain/bridge-event.js";
import { type BridgeRegistry, DEFAULT_PROTOCOL } from "../domain/bridge-registry.js";
import { formatUtc } from "../domain/utc-time.js";
import type { ProtocolRegistry } from "../protocols/index.js";
import { sleep } from "../sleep.js";
import type {
  IndexerChainRow,
  IndexerChainState,
  StoredBlock,
} from "../store/indexer-repository.js";
import { tokensOfSend } from "./derive-transfer.js";
import { findCommonAncestor, ReorgTooDeepError } from "./find-common-ancestor.js";
import type { IndexerStore } from "./indexer-store.js";
import { mapLimit } from "./map-limit.js";
import type { ProgressReporter } from "./progress.js";
import type { TokenMetadataCache } from "./token-metadata.js";
import { type IndexedBatch, writeBatch } from "./write-batch.js";

/**
 * Structured fields of a log line. A chain's lines carry `chain` (its name) and `chainId`, as
 * JSON fields in `index`'s log; the message still names the chain, for text logs (`start`'s)
 * that ignore the fields.
 */
export interface IndexerLogFields {
  chain: string;
  chainId: number;
  [field: string]: unknown;
}

export interface IndexerLogger {
  info(message: string, fields?: IndexerLogFields): void;
  warn(message: string, fields?: IndexerLogFields): void;
  error(message: string, fields?: IndexerLogFields): void;
}

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

export interface ChainIndexer {
  /** One poll: a batch, an idle check, or a reorg rollback. */
  step(): Promise<StepOutcome>;
  /** Steps until `signal` aborts (finishing the current batch) or a reorg is too deep. */
  run(signal: AbortSignal): Promise<void>;
  status(): ChainIndexerStatus;
}

/**
 * A failed step is retried after 0.5 s, doubling to at most 30 s. No jitter: the delay is in the
 * log line ("retrying in N ms"), and each chain has its own RPC.
 */
const CHAIN_LOOP_BACKOFF = { baseMs: 500, maxMs: 30_000, jitter: "none" } as const;

const HEADER_CONCURRENCY = 8;

/** A fetched and decoded span (see fetchSpan). */
interface Fetched {
  /** Headers of the span's first block, its last one and of any log without a timestamp. */
  known: Map<number, BlockHeader>;
  events: BridgeEvent[];
  /** Last block covered (the logs' span may have shrunk below the requested end). */
  toBlock: number;
  /** Tokens named by the span's sends (their metadata is cached by then). */
  sendTokens: { chainId: number; address: string }[];
}

/**
 * Errors that stop a chain's loop for good (the loop has logged them and written them to the
 * chain's row); anything else is retried.
 */
export function isChainStop(error: unknown): error is ReorgTooDeepError | WrongChainError {
  return error instanceof ReorgTooDeepError || error instanceof WrongChainError;
}

/** The node behind a chain's rpcUrl reports another chain id: the chain stops loudly. */
export class WrongChainError extends Error {
  constructor(chainName: string, expected: number, actual: number) {
    super(
      `chain ${chainName}: its rpcUrl serves chain id ${actual}, not the configured ${expected}; this chain's indexer stops`,
    );
    this.name = "WrongChainError";
  }
}

export function createChainIndexer(deps: ChainIndexerDeps): ChainIndexer {
  const { chain, client, store, registry, logger } = deps;
  const fields: IndexerLogFields = { chain: chain.name, chainId: chain.chainId };
  let chainIdChecked = false;
  const range: AdaptiveRange = createAdaptiveRange({
    initial: Math.min(deps.maxBlockRange, 500),
    max: deps.maxBlockRange,
  });
  const addresses = registry.bridgesOn(chain.chainId).map((b) => b.address as Hex);
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
  /** The next span, fetched while the previous batch was being written (backfill only). */
  let prefetched: { from: number; promise: Promise<Fetched | "raced"> } | undefined;

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

  async function rollBack(row: IndexerChainRow, head: number): Promise<StepOutcome> {
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
      { ...fields, ancestorBlock: ancestor.number, messages: result.ids.length },
    );
    setStatus({ cursorBlock: ancestor.number, state: row.state }, head);
    return "reorg";
  }

  /**
   * The node's head is below the cursor: "lagging" when its head block is the one stored at
   * that height (or the highest stored one below it), "replaced" when it differs (the node
   * follows another chain: roll back), "unverifiable" when no block at or below its head is
   * stored any more (more than finalityDepth behind).
   */
  async function nodeBehindCursor(head: number): Promise<"lagging" | "replaced" | "unverifiable"> {
    const [stored] = await store.indexer.blocksDescending(chain.chainId, head, 1);
    if (stored === undefined) return "unverifiable";
    const canonical = await client.getBlockHeader(stored.number);
    if (canonical === undefined) return "lagging"; // it shrank further meanwhile: look again
    return canonical.hash === stored.hash ? "lagging" : "replaced";
  }

  async function headers(
    numbers: readonly number[],
  ): Promise<Map<number, BlockHeader> | undefined> {
    const unique = [...new Set(numbers)].sort((a, b) => a - b);
    const list = await mapLimit(unique, HEADER_CONCURRENCY, (n) => client.getBlockHeader(n));
    const out = new Map<number, BlockHeader>();
    for (const h of list) {
      if (h === undefined) return undefined; // the chain got shorter meanwhile
      out.set(h.number, h);
    }
    return out;
  }

  /** Last block of a batch starting at `from`: one span, and never across the finality line. */
  function spanEnd(from: number, target: number, head: number): number {
    const end = Math.min(target, from - 1 + range.size);
    // Finish the final part first so a following batch never spans more than finalityDepth.
    const finalLine = head - chain.finalityDepth;
    return from <= finalLine && end > finalLine ? finalLine : end;
  }

  /**
   * Headers, logs and token metadata of blocks from..end (or fewer: the logs' span may shrink),
   * decoded. "raced" when the chain changed under the fetch (retry shortly).
   */
  async function fetchSpan(
    from: number,
    end: number,
    following: boolean,
  ): Promise<Fetched | "raced"> {
    // Backfill reads the span's first and last headers before its logs, and the last one again
    // after them: a reorganisation during the fetch changes the last block's hash (every block
    // above a changed one changes), so logs of an orphaned chain are never stored under the
    // new chain's cursor hash, which would hide the reorganisation for good.
    const before = await headers(following ? blockNumbers(from, end) : [from, end]);
    if (before === undefined) return "raced";
    if (following) {
      for (let n = from + 1; n <= end; n++) {
        if (before.get(n)?.parentHash !== before.get(n - 1)?.hash) return "raced";
      }
    }

    const { logs, toBlock } = await fetchLogs(client, {
      addresses,
      topics: deps.protocols.topics,
      fromBlock: from,
      toBlock: end,
      range,
      onShrink: (size) =>
        logger.info(`chain ${chain.name}: eth_getLogs span refused, now ${size} blocks`, {
          ...fields,
          maxBlockRange: size,
        }),
    });
    // Final blocks: a log's own blockTimestamp (when the node sends it) spares a header fetch.
    const needed = [
      toBlock,
      ...logs.filter((l) => l.blockTimestamp === undefined).map((l) => l.blockNumber),
    ].filter((n) => !before.has(n));
    const after = await headers(needed);
    if (after === undefined) return "raced";
    if (!following && end > from) {
      // Read after every other header: `end` unchanged means none of them is from a newer chain.
      const again = await headers([end]);
      if (again === undefined || again.get(end)?.hash !== before.get(end)?.hash) return "raced";
    }
    const known = new Map([...before, ...after]);

    for (const log of logs) {
      const header = known.get(log.blockNumber);
      if (header !== undefined && header.hash !== log.blockHash) return "raced";
      if (log.removed) return "raced";
      if ((header?.timestamp ?? log.blockTimestamp) === undefined) return "raced";
    }
    const blockTime = (log: RawLog) => {
      const time = known.get(log.blockNumber)?.timestamp ?? log.blockTimestamp;
      return time!;
    };
    let events = decodeSpan(logs, blockTime);
    const sendTokens = events
      .filter((e) => e.role === "sent")
      .flatMap((s) => tokensOfSend(s, registry));
    await deps.tokens.ensure(sendTokens);
    // Protocols that read token decimals decode again, now that every token their sends name
    // is read (the first pass saw only what was cached).
    const readsDecimals = (name: string) =>
      deps.protocols.get(name)?.indexing.readsTokenDecimals === true;
    if (events.some((e) => readsDecimals(e.protocol))) {
      events = [
        ...events.filter((e) => !readsDecimals(e.protocol)),
        ...decodeSpan(logs, blockTime, readsDecimals),
      ].sort(compareEvents);
    }
    return { known, events, toBlock, sendTokens };
  }

  /**
   * The normalised events of a span's logs: each log goes to the protocol of the registry
   * contract that emitted it (contracts of no known protocol are skipped), in log order;
   * `only` limits it to some protocols.
   */
  function decodeSpan(
    logs: readonly RawLog[],
    blockTime: (log: RawLog) => number,
    only: (protocol: string) => boolean = () => true,
  ): BridgeEvent[] {
    const byProtocol = new Map<string, RawLog[]>();
    for (const log of logs) {
      const contract = registry.bridgeAt(chain.chainId, log.address);
      if (contract === undefined) continue;
      const name = contract.protocol ?? DEFAULT_PROTOCOL;
      if (!only(name)) continue;
      const list = byProtocol.get(name);
      if (list === undefined) byProtocol.set(name, [log]);
      else list.push(log);
    }
    const events: BridgeEvent[] = [];
    for (const [name, list] of byProtocol) {
      const protocol = deps.protocols.get(name);
      if (protocol === undefined) continue;
      events.push(
        ...protocol.indexing.decodeLogs(list, {
          chainId: chain.chainId,
          blockTime,
          tokenDecimals: (chainId, address) => deps.tokens.get(chainId, address)?.decimals,
          contract: (address) => {
            const found = registry.bridgeAt(chain.chainId, address);
            return found !== undefined && (found.protocol ?? DEFAULT_PROTOCOL) === name
              ? found
              : undefined;
          },
        }),
      );
    }
    if (byProtocol.size > 1) events.sort(compareEvents);
    return events;
  }

  /** The prefetched span when it starts at `from` and fits the batch step() would fetch. */
  async function takePrefetched(
    from: number,
    end: number,
    following: boolean,
  ): Promise<Fetched | undefined> {
    const taken = prefetched;
    prefetched = undefined;
    if (taken === undefined || taken.from !== from || following) return undefined;
    const fetched = await taken.promise;
    return fetched !== "raced" && fetched.toBlock <= end ? fetched : undefined;
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
        if (current !== undefined && current.hash !== row.cursorHash) return rollBack(row, head);
        if (current === undefined) {
          // No block there: the node's head is below the cursor. A lagging or load-balanced RPC
          // is waited for, but a shorter replacement chain (a reset node, a restarted devnet)
          // must not be: its head block differs from the stored one at that height.
          const behind = await nodeBehindCursor(head);
          if (behind === "replaced") return rollBack(row, head);
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
      await store.transaction((tx) =>
        tx.indexer.updateProgress(chain.chainId, {
          headBlock: head,
          targetBlock: Math.max(0, target),
          state,
          error: waiting,
          updatedAt: stamp(),
        }),
      );
      setStatus({ cursorBlock: cursor, state }, head);
      status.error = waiting;
      deps.progress?.done(chain.name);
      return "idle";
    }

    const from = cursor + 1;
    const end = spanEnd(from, target, head);
    // Near the head every block is fetched before the logs and stored, so any later change
    // shows up as a hash mismatch; far below it (final blocks) only the batch's edges are.
    const following = end > head - chain.finalityDepth;
    const fetched =
      (await takePrefetched(from, end, following)) ?? (await fetchSpan(from, end, following));
    if (fetched === "raced") return "raced";
    const { known, events, toBlock, sendTokens } = fetched;
    if (row.cursorHash !== "" && known.get(from)!.parentHash !== row.cursorHash) {
      return rollBack(row, head);
    }

    const blocks: StoredBlock[] = [...known.values()]
      .filter((h) => h.number <= toBlock)
      .map((h) => ({ number: h.number, hash: h.hash, parentHash: h.parentHash }));
    const state: IndexerChainState = toBlock >= target ? "following" : "backfill";
    const now = stamp();
    const batch: IndexedBatch = {
      chainId: chain.chainId,
      chainName: chain.name,
      fromCursor: cursor,
      next: {
        cursorBlock: toBlock,
        cursorHash: known.get(toBlock)!.hash,
        headBlock: head,
        targetBlock: target,
        state,
        updatedAt: now,
      },
      events,
      blocks,
      pruneBelow: toBlock - chain.finalityDepth,
      tokens: deps.tokens.rows(sendTokens),
      now,
      cursorTime: known.get(toBlock)!.timestamp,
      deadlineProtocols,
    };
    const committed = store.transaction((tx) => writeBatch(tx, batch, registry.source));
    // Backfilling final blocks: fetch the next span while this one is written. It is checked
    // exactly as a fresh fetch would be (the next step compares its first block's parent hash
    // with the then stored cursor hash), and dropped when the next step starts elsewhere.
    if (state === "backfill") {
      const nextEnd = spanEnd(toBlock + 1, target, head);
      if (nextEnd <= head - chain.finalityDepth) {
        const promise = fetchSpan(toBlock + 1, nextEnd, false).catch(() => "raced" as const);
        prefetched = { from: toBlock + 1, promise };
      }
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

  return { step, run, status: () => ({ ...status }) };
}

/** from, from + 1, ..., to. */
function blockNumbers(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
