/**
 * The router's on-chain state provider: reads exactly what stateRequirements(registry) lists for
 * every chain (pair reserves, Uniswap V3 pools with a tick window (uniswap-v3-reader.ts)) and
 * what each quoting protocol's reader (ProtocolRouting.stateReader: the reference bridges' token
 * configs, pool liquidity and messaging fees; an OFT's rate, limits, peers and fees) reads, and
 * publishes
 * it as a StateSnapshot that quotes read with `current()`, never touching the chain on the
 * request path.
 *
 * Per chain a loop polls eth_blockNumber every `pollIntervalMs`:
 * - a new block number (up, or down after a revert) -> every view is read AT THAT BLOCK, in
 *   parallel; the http transport batches the calls into one JSON-RPC batch request (anvil has no
 *   Multicall3, and batching needs no contract);
 * - the same block number -> state cannot have changed; once the published read is older than
 *   `confirmAfterMs`, the chain's state is republished with the poll's time as readAtMs, so an
 *   idle chain (anvil without traffic) stays fresh without re-reading it;
 * - an error -> the last good state stays published (it ages, and quotes answer 503 50301 once
 *   it is older than maxStateAgeMs); the chain is retried with exponential backoff and jitter.
 *   Log lines and status() never contain the raw RPC URL (credentials are redacted).
 *
 * Invariant: a published StateSnapshot (and each ChainState in it) is never mutated; every
 * change publishes a new snapshot object (unchanged chains are shared), which the router's
 * per-snapshot caches rely on. readAtMs is the time the block number was ASKED for, so the age a
 * quote sees is never understated.
 */
import { type Address, type PublicClient, parseAbi } from "viem";
import { backoffDelayMs } from "../../backoff.js";
import { createRpcPublicClient } from "../../chain/create-chain-client.js";
import type { Registry, RegistryChain } from "../../domain/registry.js";
import { PROTOCOLS } from "../../protocols/index.js";
import type { ReferenceChainState } from "../../protocols/reference/bridge-state.js";
import { REFERENCE_PROTOCOL } from "../../protocols/reference/index.js";
import type { ProtocolStateReader } from "../../protocols/routing.js";
import { redactRpcUrl, redactText } from "../../redact-url.js";
import type { ChainState, PairReserves, StateSnapshot } from "../state.js";
import { coupleKey } from "../state.js";
import { type ChainStateRequirements, stateRequirements } from "../state-requirements.js";
import type { V3PoolState } from "../uniswap-v3/pool-swap.js";
import { readV3Pool } from "./uniswap-v3-reader.js";

/** The few calls the provider makes; a viem PublicClient has them. */
export type StateReaderClient = Pick<PublicClient, "getBlockNumber" | "getBlock" | "readContract">;

/** Anything that hands out the current snapshot (this provider, or a fixed one in tests). */
export interface StateSource {
  current(): StateSnapshot;
}

export interface ChainReadStatus {
  chainId: number;
  name: string;
  /** Block of the published state; null before the first successful read. */
  blockNumber: string | null;
  /** Milliseconds since the published state was read (or confirmed); null before the first. */
  ageMs: number | null;
  /** Whether quotes may use it (age within maxStateAgeMs). */
  fresh: boolean;
  /** Failed attempts since the last success (0 when healthy). */
  consecutiveFailures: number;
  /** The last failure, redacted; absent once the chain reads again. */
  lastError?: string;
  /**
   * Contracts of a protocol the last read could not read (their calls reverted, or no code): their
   * routes are unpriced while the rest of the chain's state is published. Absent: none.
   */
  unreadable?: { protocol: string; address: string; reason: string }[];
}

export interface ChainStateProvider extends StateSource {
  /** Starts the loops; resolves after one attempt on every chain (failed chains keep retrying). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One poll of every chain, begun after this call (tests; the loops do this by themselves). */
  refresh(): Promise<void>;
  status(): ChainReadStatus[];
  readonly maxStateAgeMs: number;
}

export interface ProviderLogger {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

export interface ChainStateProviderOptions {
  registry: Registry;
  /** A quote from state older than this answers 503 50301; also the readiness bound. */
  maxStateAgeMs: number;
  /** Clients by EVM chain id; by default one per chain from its registry `rpcUrl`. */
  clients?: ReadonlyMap<number, StateReaderClient>;
  /** Default 250 ms (anvil devnet blocks come every second). */
  pollIntervalMs?: number;
  /** Republish an unchanged chain's state once its read is this old. Default maxStateAgeMs / 4. */
  confirmAfterMs?: number;
  /** Per RPC request. Default 5000 ms. */
  timeoutMs?: number;
  /** Backoff after failures (chain/backoff.ts): base doubling up to max, "half" jitter. Default 250 / 10000 ms. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  logger?: ProviderLogger;
  now?: () => number;
  random?: () => number;
}

const PAIR_ABI = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "function token0() view returns (address)",
]);
const FACTORY_ABI = parseAbi([
  "function allPairsLength() view returns (uint256)",
  "function getPair(address tokenA, address tokenB) view returns (address)",
]);

/** A pair the factory has between two registry tokens, its token order read from the pair. */
interface FactoryPair {
  address: Address;
  key: string;
  token0: string;
  token1: string;
}
const silentLogger: ProviderLogger = { info() {}, warn() {} };

interface ChainLoop {
  chain: RegistryChain;
  requirements: ChainStateRequirements;
  /** Each quoting protocol's reader of this chain (ProtocolRouting.stateReader). */
  readers: readonly { protocol: string; reader: ProtocolStateReader }[];
  client: StateReaderClient;
  /** For redaction; undefined when the caller supplied the client. */
  rpcUrl: string | undefined;
  failures: number;
  lastError: string | undefined;
  retryAtMs: number;
  running: Promise<void> | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The factory's pair count when `pairs` was found; looked up again when it changes. */
  pairCount: bigint | undefined;
  /** coupleKey of two registry tokens -> the factory's pair for them. */
  pairs: ReadonlyMap<string, FactoryPair>;
  /** token0 of each pair seen, read once from the pair itself (never from the registry). */
  token0ByPair: Map<string, string>;
  /** ProtocolStateReader.unreadable of the last read, "protocol address" -> reason. */
  unreadable: Map<string, { protocol: string; address: string; reason: string }>;
}

export function createChainStateProvider(options: ChainStateProviderOptions): ChainStateProvider {
  const { registry, maxStateAgeMs } = options;
  if (!Number.isSafeInteger(maxStateAgeMs) || maxStateAgeMs <= 0) {
    throw new RangeError(`maxStateAgeMs must be a positive integer, got ${maxStateAgeMs}`);
  }
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const confirmAfterMs = options.confirmAfterMs ?? Math.floor(maxStateAgeMs / 4);
  const backoffBaseMs = options.backoffBaseMs ?? 250;
  const backoffMaxMs = options.backoffMaxMs ?? 10_000;
  const logger = options.logger ?? silentLogger;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;

  const loops: ChainLoop[] = stateRequirements(registry).map((requirements) => {
    const chain = registry.chain(requirements.chainId)!;
    const given = options.clients?.get(chain.chainId);
    if (given !== undefined) {
      return newLoop(chain, requirements, given, undefined);
    }
    const rpcUrl = chain.rpcUrl;
    if (rpcUrl === undefined) {
      throw new RangeError(
        `router: chain ${chain.name} (${chain.chainId}) has no rpcUrl in the registry; add one to read its state`,
      );
    }
    // The loop retries with its own backoff; the client never does.
    const client = createRpcPublicClient({
      rpcUrl,
      timeoutMs: options.timeoutMs ?? 5000,
      batchSize: 1000,
    });
    return newLoop(chain, requirements, client, rpcUrl);
  });

  let snapshot: StateSnapshot = { chains: new Map() };
  let stopped = true;

  function newLoop(
    chain: RegistryChain,
    requirements: ChainStateRequirements,
    client: StateReaderClient,
    rpcUrl: string | undefined,
  ): ChainLoop {
    const readers = PROTOCOLS.protocols.flatMap((p) => {
      const reader = p.routing?.stateReader(registry, chain);
      return reader === undefined ? [] : [{ protocol: p.name, reader }];
    });
    return {
      chain,
      requirements,
      readers,
      client,
      rpcUrl,
      failures: 0,
      lastError: undefined,
      retryAtMs: 0,
      running: undefined,
      timer: undefined,
      pairCount: undefined,
      pairs: new Map(),
      token0ByPair: new Map(),
      unreadable: new Map(),
    };
  }

  function publish(state: ChainState): void {
    const chains = new Map(snapshot.chains);
    chains.set(state.chainId, Object.freeze(state));
    snapshot = Object.freeze({ chains });
  }

  async function readChain(loop: ChainLoop, blockNumber: bigint, readAtMs: number) {
    const { client, requirements } = loop;
    const block = client.getBlock({ blockNumber });
    await findPairs(loop, blockNumber);
    const pairs = Promise.all(
      [...loop.pairs.values()].map(async (pair): Promise<[string, PairReserves]> => {
        const [reserve0, reserve1] = (await client.readContract({
          address: pair.address,
          abi: PAIR_ABI,
          functionName: "getReserves",
          blockNumber,
        })) as readonly [bigint, bigint, number];
        return [pair.key, { token0: pair.token0, token1: pair.token1, reserve0, reserve1 }];
      }),
    );
    // Each protocol's own views (the reference bridges' tokenConfig, liquidity and fees; an
    // OFT's rate, limits, peers and messaging fees), frozen: a published state never changes.
    const protocols = Promise.all(
      loop.readers.map(
        async ({ protocol, reader }): Promise<[string, unknown]> => [
          protocol,
          Object.freeze(await reader.read(client, blockNumber)),
        ],
      ),
    );
    const v3 = requirements.uniswapV3;
    const v3Pools = Promise.all(
      (v3?.pools ?? []).map(
        async (pool): Promise<[string, V3PoolState]> => [
          pool.key,
          await readV3Pool(client, { pool: pool.address, tickLens: v3!.tickLens, blockNumber }),
        ],
      ),
    );
    const [header, pairEntries, protocolEntries, v3Entries] = await Promise.all([
      block,
      pairs,
      protocols,
      v3Pools,
    ]);
    noteUnreadable(loop, protocolEntries);
    const others = new Map(protocolEntries.filter(([name]) => name !== REFERENCE_PROTOCOL));
    const state: ChainState = {
      chainId: loop.chain.chainId,
      blockNumber,
      blockTimestamp: header.timestamp,
      readAtMs,
      bridges:
        (protocolEntries.find(([name]) => name === REFERENCE_PROTOCOL)?.[1] as
          | ReferenceChainState
          | undefined) ?? {},
      ...(others.size === 0 ? {} : { protocols: others }),
      pairs: new Map(pairEntries),
      directPairs: new Map([...loop.pairs].map(([couple, pair]) => [couple, pair.key])),
      ...(v3 === undefined ? {} : { v3Pools: new Map(v3Entries) }),
    };
    return state;
  }

  /**
   * Records the contracts each protocol's reader could not read in this state; logs those that
   * newly fail (or fail for another reason) and those that read again, once each.
   */
  function noteUnreadable(loop: ChainLoop, entries: readonly [string, unknown][]): void {
    const next = new Map<string, { protocol: string; address: string; reason: string }>();
    for (const { protocol, reader } of loop.readers) {
      const state = entries.find(([name]) => name === protocol)?.[1];
      if (state === undefined || reader.unreadable === undefined) continue;
      for (const [address, reason] of reader.unreadable(state)) {
        next.set(`${protocol} ${address}`, { protocol, address, reason });
      }
    }
    const chain = loop.chain.name;
    for (const [key, entry] of next) {
      if (loop.unreadable.get(key)?.reason === entry.reason) continue;
      logger.warn(
        { chain, protocol: entry.protocol, contract: entry.address, err: entry.reason },
        `router state: chain ${chain}: ${entry.protocol} contract ${entry.address} cannot be read; its routes are not quoted (${entry.reason})`,
      );
    }
    for (const [key, entry] of loop.unreadable) {
      if (next.has(key)) continue;
      logger.info(
        { chain, protocol: entry.protocol, contract: entry.address },
        `router state: chain ${chain}: ${entry.protocol} contract ${entry.address} reads again`,
      );
    }
    loop.unreadable = next;
  }

  /**
   * The pairs the contracts will swap through: the factory's `getPair` for every couple of the
   * chain's registry tokens, looked up at the first read and again whenever the factory's pair
   * count changes (anyone can create a pair, and the contracts then swap directly through it).
   * Each pair's token order is read from the pair once. Differences from the registry are
   * logged; the factory wins.
   */
  async function findPairs(loop: ChainLoop, blockNumber: bigint): Promise<void> {
    const { client, requirements, chain } = loop;
    const count = (await client.readContract({
      address: requirements.factory,
      abi: FACTORY_ABI,
      functionName: "allPairsLength",
      blockNumber,
    })) as bigint;
    if (count === loop.pairCount) return;
    const tokens = requirements.swapTokens;
    const couples = tokens.flatMap((a, i) => tokens.slice(i + 1).map((b) => [a, b] as const));
    const found = await Promise.all(
      couples.map(async ([a, b]): Promise<[string, FactoryPair] | undefined> => {
        const address = (await client.readContract({
          address: requirements.factory,
          abi: FACTORY_ABI,
          functionName: "getPair",
          args: [a.address, b.address],
          blockNumber,
        })) as Address;
        if (/^0x0{40}$/i.test(address)) return undefined;
        const key = address.toLowerCase();
        let token0 = loop.token0ByPair.get(key);
        if (token0 === undefined) {
          token0 = (
            (await client.readContract({
              address,
              abi: PAIR_ABI,
              functionName: "token0",
              blockNumber,
            })) as Address
          ).toLowerCase();
          loop.token0ByPair.set(key, token0);
        }
        const token1 = token0 === a.key ? b.key : a.key;
        return [coupleKey(a.key, b.key), { address, key, token0, token1 }];
      }),
    );
    const pairs = new Map(found.filter((entry) => entry !== undefined));
    for (const pair of requirements.pairs) {
      const actual = pairs.get(coupleKey(pair.token0.key, pair.token1.key));
      if (actual === undefined || actual.key !== pair.key) {
        logger.warn(
          { chain: chain.name, pair: pair.address, factory: actual?.address ?? null },
          `router state: chain ${chain.name}: the factory's pair for ${pair.token0.symbol}/${pair.token1.symbol} is not the registry's; pricing follows the factory`,
        );
      } else if (actual.token0 !== pair.token0.key) {
        logger.warn(
          { chain: chain.name, pair: pair.address },
          `router state: chain ${chain.name}: pair ${pair.address} lists its tokens in the other order on chain; using the chain's`,
        );
      }
    }
    const listed = new Set(requirements.pairs.map((p) => p.key));
    for (const pair of pairs.values()) {
      if (!listed.has(pair.key) && ![...loop.pairs.values()].some((p) => p.key === pair.key)) {
        logger.info(
          { chain: chain.name, pair: pair.address },
          `router state: chain ${chain.name}: DEX pair ${pair.address} is not in the registry; swaps between its tokens go through it, as the contracts do`,
        );
      }
    }
    loop.pairs = pairs;
    loop.pairCount = count;
  }

  async function poll(loop: ChainLoop): Promise<void> {
    const startedAtMs = now();
    if (loop.failures > 0 && startedAtMs < loop.retryAtMs) return;
    try {
      const blockNumber = await loop.client.getBlockNumber({ cacheTime: 0 });
      const published = snapshot.chains.get(loop.chain.chainId);
      if (published !== undefined && published.blockNumber === blockNumber) {
        if (startedAtMs - published.readAtMs >= confirmAfterMs) {
          publish({ ...published, readAtMs: startedAtMs });
        }
      } else {
        publish(await readChain(loop, blockNumber, startedAtMs));
      }
      if (loop.failures > 0) {
        logger.info(
          { chainId: loop.chain.chainId, chain: loop.chain.name, failures: loop.failures },
          `router state: chain ${loop.chain.name} reads again`,
        );
      }
      loop.failures = 0;
      loop.lastError = undefined;
    } catch (error) {
      loop.failures++;
      const wait = backoffDelayMs(
        loop.failures,
        { baseMs: backoffBaseMs, maxMs: backoffMaxMs, jitter: "half" },
        random,
      );
      loop.retryAtMs = now() + wait;
      loop.lastError = describe(error, loop.rpcUrl);
      // First failure and then every 10th: an outage must not flood the log.
      if (loop.failures === 1 || loop.failures % 10 === 0) {
        logger.warn(
          {
            chainId: loop.chain.chainId,
            chain: loop.chain.name,
            rpc: loop.rpcUrl === undefined ? undefined : redactRpcUrl(loop.rpcUrl),
            failures: loop.failures,
            retryInMs: wait,
            err: loop.lastError,
          },
          `router state: reading chain ${loop.chain.name} failed; keeping the last good state`,
        );
      }
    }
  }

  function pollOnce(loop: ChainLoop): Promise<void> {
    if (loop.running === undefined) {
      loop.running = poll(loop).finally(() => {
        loop.running = undefined;
      });
    }
    return loop.running;
  }

  function schedule(loop: ChainLoop): void {
    if (stopped) return;
    loop.timer = setTimeout(() => {
      loop.timer = undefined;
      void pollOnce(loop).then(() => schedule(loop));
    }, pollIntervalMs);
    loop.timer.unref?.();
  }

  return {
    maxStateAgeMs,
    current: () => snapshot,
    async start() {
      if (!stopped) return;
      stopped = false;
      await Promise.all(loops.map((loop) => pollOnce(loop)));
      for (const loop of loops) schedule(loop);
      const fresh = loops.filter((l) => snapshot.chains.has(l.chain.chainId)).length;
      logger.info(
        { chains: loops.length, read: fresh, pollIntervalMs, maxStateAgeMs },
        `router state: ${fresh} of ${loops.length} chains read`,
      );
    },
    async stop() {
      stopped = true;
      for (const loop of loops) {
        if (loop.timer !== undefined) clearTimeout(loop.timer);
        loop.timer = undefined;
      }
      await Promise.all(loops.map((loop) => loop.running));
    },
    async refresh() {
      // A poll already running may have read its block before this call: wait for it, then
      // poll again (or join a poll that started since), so the state is read after the call.
      await Promise.all(
        loops.map(async (loop) => {
          await loop.running;
          await pollOnce(loop);
        }),
      );
    },
    status() {
      const at = now();
      return loops.map((loop) => {
        const state = snapshot.chains.get(loop.chain.chainId);
        const ageMs = state === undefined ? null : Math.max(0, at - state.readAtMs);
        return {
          chainId: loop.chain.chainId,
          name: loop.chain.name,
          blockNumber: state === undefined ? null : state.blockNumber.toString(),
          ageMs,
          fresh: ageMs !== null && ageMs <= maxStateAgeMs,
          consecutiveFailures: loop.failures,
          ...(loop.lastError === undefined ? {} : { lastError: loop.lastError }),
          ...(loop.unreadable.size === 0 ? {} : { unreadable: [...loop.unreadable.values()] }),
        };
      });
    },
  };
}

/** A one-line failure text with every trace of the RPC URL's secrets removed. */
function describe(error: unknown, rpcUrl: string | undefined): string {
  const e = error as { shortMessage?: unknown; message?: unknown; details?: unknown };
  const head =
    typeof e?.shortMessage === "string"
      ? e.shortMessage
      : typeof e?.message === "string"
        ? e.message
        : String(error);
  const text = [head, typeof e?.details === "string" ? e.details : undefined]
    .filter((s) => s !== undefined && s !== "")
    .join(": ")
    .split("\n")[0]!
    .slice(0, 500);
  return rpcUrl === undefined ? text : redactText(text, rpcUrl);
}
