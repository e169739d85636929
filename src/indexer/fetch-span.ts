/**
 * Fetching one span of a chain into a batch (the chain loop, chain-indexer.ts, sequences it):
 * the span's headers and logs, decoded by each contract's protocol into normalised events, the
 * token metadata their sends need, then the batch to commit. A span fetched while the previous
 * batch is written (backfill of final blocks) is kept as the prefetch.
 *
 * Invariant: a span is "raced" (fetched again shortly) whenever the chain may have changed under
 * the fetch; its events are never stored under a block hash they do not belong to.
 */
import type { Hex } from "viem";
import { type AdaptiveRange, createAdaptiveRange } from "../chain/adaptive-range.js";
import type { BlockHeader, ChainClient, RawLog } from "../chain/create-chain-client.js";
import { fetchLogs } from "../chain/fetch-logs.js";
import type { IndexerChainConfig } from "../config/indexer-config.js";
import { type BridgeEvent, compareEvents } from "../domain/bridge-event.js";
import { type BridgeRegistry, DEFAULT_PROTOCOL } from "../domain/bridge-registry.js";
import { tokensOfSend } from "../domain/send-tokens.js";
import type { ProtocolRegistry } from "../protocols/index.js";
import type { IndexerChainState, StoredBlock } from "../store/indexer-repository.js";
import type { IndexerLogFields, IndexerLogger } from "./indexer-logger.js";
import { mapLimit } from "./map-limit.js";
import type { TokenMetadataCache } from "./token-metadata.js";
import type { IndexedBatch } from "./write-batch.js";

const HEADER_CONCURRENCY = 8;

/** A fetched and decoded span. */
export interface FetchedSpan {
  /** Headers of the span's first block, its last one and of any log without a timestamp. */
  known: Map<number, BlockHeader>;
  events: BridgeEvent[];
  /** Last block covered (the logs' span may have shrunk below the requested end). */
  toBlock: number;
  /** Tokens named by the span's sends (their metadata is cached by then). */
  sendTokens: { chainId: number; address: string }[];
}

export interface SpanFetcherDeps {
  chain: IndexerChainConfig;
  client: ChainClient;
  registry: BridgeRegistry;
  protocols: ProtocolRegistry;
  tokens: TokenMetadataCache;
  logger: IndexerLogger;
  maxBlockRange: number;
}

export interface SpanFetcher {
  /** Last block of a batch starting at `from`: one span, and never across the finality line. */
  spanEnd(from: number, target: number, head: number): number;
  /** The prefetched span when it starts at `from` and fits, else a fresh fetch. */
  fetch(from: number, end: number, following: boolean): Promise<FetchedSpan | "raced">;
  /** Fetches from..end now, for the next fetch(from, ...) (backfill of final blocks only). */
  prefetch(from: number, end: number): void;
}

export function createSpanFetcher(deps: SpanFetcherDeps): SpanFetcher {
  const { chain, client, registry, logger } = deps;
  const fields: IndexerLogFields = { chain: chain.name, chainId: chain.chainId };
  const range: AdaptiveRange = createAdaptiveRange({
    initial: Math.min(deps.maxBlockRange, 500),
    max: deps.maxBlockRange,
  });
  const addresses = registry.bridgesOn(chain.chainId).map((b) => b.address as Hex);
  /** The next span, fetched while the previous batch was being written (backfill only). */
  let prefetched: { from: number; promise: Promise<FetchedSpan | "raced"> } | undefined;

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

  function spanEnd(from: number, target: number, head: number): number {
    const end = Math.min(target, from - 1 + range.size);
    // Finish the final part first so a following batch never spans more than finalityDepth.
    const finalLine = head - chain.finalityDepth;
    return from <= finalLine && end > finalLine ? finalLine : end;
  }

  /**
   * The normalised events of a span's logs: each log goes to the protocol of the registry
   * contract that emitted it (contracts of no known protocol are skipped), in log order.
   */
  /**
   * The native values of the transactions whose logs' protocols ask for them (valueTopics);
   * undefined when the node no longer knows one (reorganised away during the fetch: "raced").
   */
  async function transactionValues(
    logs: readonly RawLog[],
  ): Promise<Map<string, bigint> | undefined> {
    const hashes = new Set<Hex>();
    for (const log of logs) {
      const contract = registry.bridgeAt(chain.chainId, log.address);
      if (contract === undefined) continue;
      const wanted = deps.protocols.get(contract.protocol ?? DEFAULT_PROTOCOL)?.indexing
        .valueTopics;
      const topic = log.topics[0]?.toLowerCase();
      if (wanted?.some((t) => t.toLowerCase() === topic)) hashes.add(log.transactionHash);
    }
    const values = new Map<string, bigint>();
    if (hashes.size === 0) return values;
    const list = [...hashes];
    const found = await mapLimit(list, HEADER_CONCURRENCY, (h) => client.getTransactionValue(h));
    for (const [i, value] of found.entries()) {
      if (value === undefined) return undefined;
      values.set(list[i]!.toLowerCase(), value);
    }
    return values;
  }

  function decodeSpan(
    logs: readonly RawLog[],
    blockTime: (log: RawLog) => number,
    values: ReadonlyMap<string, bigint>,
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
          contractIn: (schemeId, address) => registry.bridgeInScheme(name, schemeId, address),
          transactionValue: (txHash) => values.get(txHash.toLowerCase()),
        }),
      );
    }
    if (byProtocol.size > 1) events.sort(compareEvents);
    return events;
  }

  /**
   * Headers, logs and token metadata of blocks from..end (or fewer: the logs' span may shrink),
   * decoded. "raced" when the chain changed under the fetch (retry shortly).
   */
  async function fetchSpan(
    from: number,
    end: number,
    following: boolean,
  ): Promise<FetchedSpan | "raced"> {
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
    const values = await transactionValues(logs);
    if (values === undefined) return "raced";
    const blockTime = (log: RawLog) => {
      const time = known.get(log.blockNumber)?.timestamp ?? log.blockTimestamp;
      return time!;
    };
    let events = decodeSpan(logs, blockTime, values);
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
        ...decodeSpan(logs, blockTime, values, readsDecimals),
      ].sort(compareEvents);
    }
    return { known, events, toBlock, sendTokens };
  }

  /** The prefetched span when it starts at `from` and fits the batch step() would fetch. */
  async function takePrefetched(
    from: number,
    end: number,
    following: boolean,
  ): Promise<FetchedSpan | undefined> {
    const taken = prefetched;
    prefetched = undefined;
    if (taken === undefined || taken.from !== from || following) return undefined;
    const fetched = await taken.promise;
    return fetched !== "raced" && fetched.toBlock <= end ? fetched : undefined;
  }

  return {
    spanEnd,
    async fetch(from, end, following) {
      return (
        (await takePrefetched(from, end, following)) ?? (await fetchSpan(from, end, following))
      );
    },
    prefetch(from, end) {
      const promise = fetchSpan(from, end, false).catch(() => "raced" as const);
      prefetched = { from, promise };
    },
  };
}

/** The batch of a fetched span: its events, blocks, token metadata and the cursor it moves to. */
export function batchOf(
  chain: IndexerChainConfig,
  fetched: FetchedSpan,
  at: { cursor: number; head: number; target: number; now: string },
  tokens: TokenMetadataCache,
  /** Protocols on this chain whose sends carry deadlines: the batch expires the passed ones. */
  deadlineProtocols: readonly string[],
): IndexedBatch {
  const { known, events, toBlock, sendTokens } = fetched;
  const blocks: StoredBlock[] = [...known.values()]
    .filter((h) => h.number <= toBlock)
    .map((h) => ({ number: h.number, hash: h.hash, parentHash: h.parentHash }));
  const state: IndexerChainState = toBlock >= at.target ? "following" : "backfill";
  return {
    chainId: chain.chainId,
    chainName: chain.name,
    fromCursor: at.cursor,
    next: {
      cursorBlock: toBlock,
      cursorHash: known.get(toBlock)!.hash,
      headBlock: at.head,
      targetBlock: at.target,
      state,
      updatedAt: at.now,
    },
    events,
    blocks,
    pruneBelow: toBlock - chain.finalityDepth,
    tokens: tokens.rows(sendTokens),
    now: at.now,
    cursorTime: known.get(toBlock)!.timestamp,
    deadlineProtocols,
  };
}

/** from, from + 1, ..., to. */
function blockNumbers(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
