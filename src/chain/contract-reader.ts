/**
 * One chain read the way a configuration check reads it (`bridge-oracle check-config`): every
 * call answers with a value or with what went wrong, never throws, and never says the RPC URL
 * unredacted. A call that reverts (no such function, not that kind of contract) is told apart
 * from an RPC that failed, since they call for different fixes. Each request is bounded by
 * `timeoutMs` and tried once: a check reports, it does not wait out an outage.
 */
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  type Hex,
} from "viem";
import { redactRpcUrl, redactText } from "../redact-url.js";
import { createRpcPublicClient } from "./create-chain-client.js";
import { isTimeoutError } from "./rpc-errors.js";

/** What a read gave: its value, or why there is none. */
export type ReadResult<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      /** The contract answered with a revert or no data: the call is wrong for that address. */
      reverted: boolean;
      /** One line, the URL redacted. */
      error: string;
    };

export interface ContractReader {
  /** The RPC URL with credentials removed: the only form shown. */
  readonly safeUrl: string;
  chainId(): Promise<ReadResult<number>>;
  blockNumber(): Promise<ReadResult<bigint>>;
  /** The runtime code at `address` ("0x" when there is none). */
  code(address: Address): Promise<ReadResult<Hex>>;
  read<T>(
    address: Address,
    abi: Abi,
    functionName: string,
    args?: readonly unknown[],
  ): Promise<ReadResult<T>>;
}

export interface ContractReaderOptions {
  rpcUrl: string;
  /** Per request. */
  timeoutMs: number;
}

/** Calls of one tick go in one HTTP request of at most this many (public RPCs cap batches). */
const BATCH_SIZE = 20;

export function createContractReader(options: ContractReaderOptions): ContractReader {
  const client = createRpcPublicClient({
    rpcUrl: options.rpcUrl,
    timeoutMs: options.timeoutMs,
    batchSize: BATCH_SIZE,
  });
  const safeUrl = redactRpcUrl(options.rpcUrl);
  async function attempt<T>(what: string, run: () => Promise<T>): Promise<ReadResult<T>> {
    try {
      return { ok: true, value: await run() };
    } catch (error) {
      return failure(error, what, options.rpcUrl, options.timeoutMs);
    }
  }
  return {
    safeUrl,
    chainId: () => attempt("eth_chainId", () => client.getChainId()),
    blockNumber: () => attempt("eth_blockNumber", () => client.getBlockNumber({ cacheTime: 0 })),
    code: (address) =>
      attempt(`eth_getCode(${address})`, async () => (await client.getCode({ address })) ?? "0x"),
    read: <T>(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
      attempt(
        `${functionName}()`,
        async () =>
          (await client.readContract({ address, abi, functionName, args })) as unknown as T,
      ),
  };
}

/** A thrown read as a ReadResult: reverted or not, one line, the URL and its secrets masked. */
export function failure(
  error: unknown,
  what: string,
  rpcUrl: string,
  timeoutMs: number,
): ReadResult<never> {
  const reverted =
    error instanceof BaseError &&
    error.walk(
      (e) =>
        e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError,
    ) !== null;
  if (reverted) {
    return { ok: false, reverted: true, error: `${what} reverted or returned no data` };
  }
  if (isTimeoutError(error)) {
    return { ok: false, reverted: false, error: `${what}: no answer within ${timeoutMs} ms` };
  }
  const raw = error as { shortMessage?: unknown; message?: unknown; details?: unknown };
  let status: unknown;
  for (let e: unknown = error, depth = 0; e && status === undefined && depth < 4; depth++) {
    status = (e as { status?: unknown }).status;
    e = (e as { cause?: unknown }).cause;
  }
  const short =
    (typeof status === "number" ? `HTTP ${status}: ` : "") +
    (typeof raw.shortMessage === "string" ? raw.shortMessage : String(raw.message));
  const details = typeof raw.details === "string" && raw.details !== "" ? `: ${raw.details}` : "";
  // viem's messages run over several lines (request body, URL, version): the first says it.
  const line = `${short.replace(/\.$/, "")}${details}`.split("\n")[0]!.trim();
  return { ok: false, reverted: false, error: `${what} failed: ${redactText(line, rpcUrl)}` };
}
