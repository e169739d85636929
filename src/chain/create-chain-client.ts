/**
 * The indexer's view of one chain: a viem public client with our own retry (viem's is off so
 * that backoff, 429 handling and credential redaction live in one place) and the handful of
 * calls the indexer makes, each returning plain data.
 */
import { createPublicClient, type Hex, http, type PublicClient } from "viem";
import { redactRpcUrl, redactText } from "../redact-url.js";
import { ERC20_METADATA_ABI } from "./erc20-abi.js";
import { isRangeError, isTimeoutError } from "./rpc-errors.js";
import { DEFAULT_RETRY, type RetryOptions, withRetry } from "./with-retry.js";

export interface BlockHeader {
  number: number;
  hash: Hex;
  parentHash: Hex;
  /** Unix seconds. */
  timestamp: number;
}

export interface RawLog {
  address: Hex;
  topics: Hex[];
  data: Hex;
  blockNumber: number;
  blockHash: Hex;
  transactionHash: Hex;
  logIndex: number;
  removed?: boolean;
  /** Unix seconds, when the node includes it in logs (anvil, recent geth/reth); saves a header fetch. */
  blockTimestamp?: number;
}

export interface ChainClient {
  readonly chainId: number;
  /** The RPC URL with credentials removed; the only form that may be logged. */
  readonly safeUrl: string;
  getChainId(): Promise<number>;
  getBlockNumber(): Promise<number>;
  /** The canonical block at `number`; undefined when the chain is not that long (anymore). */
  getBlockHeader(number: number): Promise<BlockHeader | undefined>;
  /** One eth_getLogs call (no splitting; see fetchLogs for the adaptive span). */
  getLogs(filter: {
    addresses: readonly Hex[];
    topics: readonly Hex[];
    fromBlock: number;
    toBlock: number;
  }): Promise<RawLog[]>;
  readTokenMetadata(token: Hex): Promise<{ symbol: string; decimals: number }>;
  /**
   * The native value (wei) a transaction sent (eth_getTransactionByHash); undefined when the
   * node does not know it (a transaction of a block that was just reorganised away).
   */
  getTransactionValue(hash: Hex): Promise<bigint | undefined>;
}

export interface ChainClientOptions {
  rpcUrl: string;
  chainId: number;
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  signal?: AbortSignal;
}

/** An answer the node sent that lacks what every answer of its kind has (a log without its keys). */
export class MalformedRpcAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedRpcAnswerError";
  }
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const QUANTITY = /^0x[0-9a-fA-F]+$/;

/** Throws MalformedRpcAnswerError when an eth_getLogs entry lacks a field the indexer keys on. */
function checkLog(log: Record<string, unknown>): void {
  const bad = (field: string) => {
    throw new MalformedRpcAnswerError(
      `eth_getLogs answered a log with a missing or malformed ${field}`,
    );
  };
  if (typeof log.address !== "string") bad("address");
  if (!Array.isArray(log.topics)) bad("topics");
  if (typeof log.data !== "string") bad("data");
  for (const field of ["blockHash", "transactionHash"]) {
    if (typeof log[field] !== "string" || !HASH.test(log[field] as string)) bad(field);
  }
  for (const field of ["blockNumber", "logIndex"]) {
    const value = log[field];
    const ok =
      typeof value === "number" ||
      typeof value === "bigint" ||
      (typeof value === "string" && QUANTITY.test(value));
    if (!ok) bad(field);
  }
}

/** An RPC failure whose message never contains the raw URL. */
export class ChainRpcError extends Error {
  constructor(
    message: string,
    readonly chainId: number,
    options: { cause: unknown },
    /**
     * What failed, without the URL or anything the node sent back (`chain 71001's RPC:
     * eth_getLogs(1..100) failed (HTTP 503)`): for status rows that unauthenticated /readyz
     * shows. The message, with the node's own text, is for the log.
     */
    readonly summary: string = message,
  ) {
    super(message, options);
    this.name = "ChainRpcError";
  }
}

export interface RpcPublicClientOptions {
  /** May carry user info (`https://user:pass@host`): it is sent as a header (splitCredentials). */
  rpcUrl: string;
  /** Per request. */
  timeoutMs: number;
  /** JSON-RPC batching: calls made in the same tick go in one HTTP request of at most this many. */
  batchSize?: number;
}

/**
 * The viem public client every chain reader builds on (this module's ChainClient, the router's
 * state provider): viem's own retry off, so that the callers' backoff (backoff.ts), 429 handling
 * and credential redaction live in one place.
 */
export function createRpcPublicClient(options: RpcPublicClientOptions): PublicClient {
  const { url, headers } = splitCredentials(options.rpcUrl);
  return createPublicClient({
    transport: http(url, {
      timeout: options.timeoutMs,
      retryCount: 0,
      ...(options.batchSize !== undefined
        ? { batch: { batchSize: options.batchSize, wait: 0 } }
        : {}),
      fetchOptions: headers === undefined ? undefined : { headers },
    }),
  });
}

export function createChainClient(options: ChainClientOptions): ChainClient {
  const client = createRpcPublicClient({
    rpcUrl: options.rpcUrl,
    timeoutMs: options.timeoutMs ?? 10_000,
  });
  const safeUrl = redactRpcUrl(options.rpcUrl);
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry, signal: options.signal };

  async function call<T>(what: string, run: () => Promise<T>, extra?: Partial<RetryOptions>) {
    try {
      return await withRetry(run, { ...retry, ...extra });
    } catch (error) {
      throw toChainError(error, what);
    }
  }

  function toChainError(error: unknown, what: string): Error {
    if (error instanceof ChainRpcError) return error;
    const raw = error as { shortMessage?: string; details?: string; message?: string };
    const text = [raw.shortMessage ?? raw.message ?? String(error), raw.details]
      .filter((s) => typeof s === "string" && s !== "")
      .join(": ");
    let status: unknown;
    for (let e: unknown = error, depth = 0; e && status === undefined && depth < 4; depth++) {
      status = (e as { status?: unknown }).status;
      e = (e as { cause?: unknown }).cause;
    }
    const kind = isTimeoutError(error)
      ? "timed out"
      : error instanceof MalformedRpcAnswerError
        ? "a malformed answer"
        : typeof status === "number"
          ? `HTTP ${status}`
          : "no answer or an error answer";
    return new ChainRpcError(
      `chain ${options.chainId} (${safeUrl}): ${what} failed: ${redactText(text, options.rpcUrl)}`,
      options.chainId,
      { cause: scrub(error) },
      `chain ${options.chainId}'s RPC: ${what} failed (${kind}; the indexer log has the details)`,
    );
  }

  // viem errors quote the URL in their message; keep the structure (status, headers) for callers
  // but drop the text.
  function scrub(error: unknown): unknown {
    if (error === null || typeof error !== "object") return error;
    const e = error as { status?: unknown; headers?: unknown; name?: unknown; message?: unknown };
    return {
      name: e.name,
      status: e.status,
      headers: e.headers,
      message: typeof e.message === "string" ? redactText(e.message, options.rpcUrl) : undefined,
      cause: scrub((error as { cause?: unknown }).cause),
    };
  }

  return {
    chainId: options.chainId,
    safeUrl,
    getChainId: () => call("eth_chainId", () => client.getChainId()),
    getBlockNumber: () =>
      call("eth_blockNumber", async () => Number(await client.getBlockNumber({ cacheTime: 0 }))),
    getBlockHeader: (number) =>
      call(`eth_getBlockByNumber(${number})`, async () => {
        const block = await client.request({
          method: "eth_getBlockByNumber",
          params: [`0x${number.toString(16)}`, false],
        });
        if (block === null || block.hash === null) return undefined;
        return {
          number: Number(block.number),
          hash: block.hash.toLowerCase() as Hex,
          parentHash: block.parentHash.toLowerCase() as Hex,
          timestamp: Number(block.timestamp),
        };
      }),
    getLogs: (filter) =>
      call(
        `eth_getLogs(${filter.fromBlock}..${filter.toBlock})`,
        async () => {
          const logs = await client.request({
            method: "eth_getLogs",
            params: [
              {
                address: [...filter.addresses],
                topics: [[...filter.topics]],
                fromBlock: `0x${filter.fromBlock.toString(16)}`,
                toBlock: `0x${filter.toBlock.toString(16)}`,
              },
            ],
          });
          // A log without its keys would be stored under tx hash "0x" / log index NaN (or,
          // without blockHash, read as a reorganisation in progress and retried silently for
          // good): the answer is malformed, and is retried and reported like a failed call.
          for (const log of logs) checkLog(log as unknown as Record<string, unknown>);
          return logs.map((log) => ({
            address: log.address.toLowerCase() as Hex,
            topics: log.topics as Hex[],
            data: log.data,
            blockNumber: Number(log.blockNumber),
            blockHash: (log.blockHash ?? "0x").toLowerCase() as Hex,
            transactionHash: (log.transactionHash ?? "0x").toLowerCase() as Hex,
            logIndex: Number(log.logIndex),
            removed: log.removed,
            ...timestampOf(log),
          }));
        },
        // Range refusals and timeouts are fetchLogs' to handle (it halves the span first).
        { isRetryable: (e) => !isRangeError(e) && !isTimeoutError(e) },
      ),
    getTransactionValue: (hash) =>
      call(`eth_getTransactionByHash(${hash})`, async () => {
        const tx = await client.request({ method: "eth_getTransactionByHash", params: [hash] });
        if (tx === null) return undefined;
        if (typeof tx.value !== "string") {
          throw new MalformedRpcAnswerError(`transaction ${hash} has no value`);
        }
        return BigInt(tx.value);
      }),
    readTokenMetadata: (token) =>
      call(`token metadata of ${token}`, async () => {
        const [symbol, decimals] = await Promise.all([
          client.readContract({ address: token, abi: ERC20_METADATA_ABI, functionName: "symbol" }),
          client.readContract({
            address: token,
            abi: ERC20_METADATA_ABI,
            functionName: "decimals",
          }),
        ]);
        return { symbol, decimals: Number(decimals) };
      }),
  };
}

/**
 * fetch() refuses URLs with user info, so `https://user:pass@host` becomes the URL without it
 * plus an HTTP Basic Authorization header (what the URL form means to HTTP providers).
 */
export function splitCredentials(rpcUrl: string): {
  url: string;
  headers?: Record<string, string>;
} {
  let parsed: URL;
  try {
    parsed = new URL(rpcUrl);
  } catch {
    return { url: rpcUrl };
  }
  if (parsed.username === "" && parsed.password === "") return { url: rpcUrl };
  const user = decodeURIComponent(parsed.username);
  const pass = decodeURIComponent(parsed.password);
  parsed.username = "";
  parsed.password = "";
  const token = Buffer.from(`${user}:${pass}`).toString("base64");
  return { url: parsed.toString(), headers: { authorization: `Basic ${token}` } };
}

function timestampOf(log: unknown): { blockTimestamp?: number } {
  const value = (log as { blockTimestamp?: unknown }).blockTimestamp;
  return typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)
    ? { blockTimestamp: Number(BigInt(value)) }
    : {};
}
