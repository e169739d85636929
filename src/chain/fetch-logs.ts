/**
 * eth_getLogs over an adaptive span: asks for [fromBlock, min(toBlock, fromBlock + size - 1)],
 * halves the span while the node refuses it (too large, too many results, timeout), and grows it
 * back after a success. Returns the logs and the last block they cover, which may be below
 * `toBlock`: the caller commits that much and asks again from the next block.
 */
import type { Hex } from "viem";
import type { AdaptiveRange } from "./adaptive-range.js";
import type { ChainClient, RawLog } from "./create-chain-client.js";
import { isRangeError, isTimeoutError } from "./rpc-errors.js";
import { DEFAULT_RETRY, type RetryOptions, withRetry } from "./with-retry.js";

export interface FetchLogsParameters {
  addresses: readonly Hex[];
  topics: readonly Hex[];
  fromBlock: number;
  toBlock: number;
  range: AdaptiveRange;
  /** Retries of a single-block span that keeps timing out. */
  retry?: RetryOptions;
  onShrink?: (size: number, error: unknown) => void;
}

export interface FetchLogsReturnType {
  logs: RawLog[];
  toBlock: number;
}

export async function fetchLogs(
  client: ChainClient,
  parameters: FetchLogsParameters,
): Promise<FetchLogsReturnType> {
  const { fromBlock, range } = parameters;
  if (parameters.toBlock < fromBlock) throw new RangeError("toBlock < fromBlock");
  for (;;) {
    const toBlock = Math.min(parameters.toBlock, fromBlock + range.size - 1);
    const attempt = () =>
      client.getLogs({
        addresses: parameters.addresses,
        topics: parameters.topics,
        fromBlock,
        toBlock,
      });
    try {
      // A single block cannot be split: timeouts there are retried like any transient error.
      const logs =
        toBlock === fromBlock
          ? await withRetry(attempt, parameters.retry ?? DEFAULT_RETRY)
          : await attempt();
      range.grow();
      return { logs, toBlock };
    } catch (error) {
      const splittable = toBlock > fromBlock && (isRangeError(error) || isTimeoutError(error));
      if (!splittable) throw error;
      range.shrink();
      parameters.onShrink?.(range.size, error);
    }
  }
}
