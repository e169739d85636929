/**
 * `waitForTransfer(sourceTxHash, { onUpdate, signal, timeoutMs })`: follows a transfer through the
 * list endpoint (looked up by its source transaction hash) until it is `Success` or `Failed`
 * (docs/client.md, "waitForTransfer").
 *
 * - Before the indexer has seen the send there is no record yet: it keeps asking.
 * - `onUpdate` gets the record when it first appears and whenever its status or `updated_at`
 *   changes (a reorganisation can send a record back to Processing: docs/http-api.md, API rule 7).
 * - A 429 (and a 503 that carries Retry-After) waits as long as Retry-After says, at least the
 *   poll interval, and asks again; any other error rejects.
 * - Out of time it rejects with a BridgeOracleError (status 0, code -1) naming the last status
 *   seen; an aborted `signal` rejects with the signal's reason.
 */
import { BridgeOracleError } from "./errors.js";
import type { RequestOptions, Transport } from "./request.js";
import type { BridgeTransaction, TransferList } from "./types.js";

export interface WaitForTransferOptions {
  /** Called with the record when it appears and whenever it changes. */
  onUpdate?: ((transfer: BridgeTransaction) => void) | undefined;
  /** Stops waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal | undefined;
  /** Gives up after this long; default 600,000 ms (10 minutes). */
  timeoutMs?: number | undefined;
  /** Pause between two requests; default 1,000 ms. */
  pollIntervalMs?: number | undefined;
}

/** The record in its final state: `status` is `Success` or `Failed`. */
export type WaitForTransferResult = BridgeTransaction;

export interface WaitForTransferDeps {
  transport: Transport;
  listTransfers(
    query: { addressOrTxHash: string; pageNo: number; pageSize: number },
    options?: RequestOptions,
  ): Promise<TransferList>;
}

const FINAL = new Set(["Success", "Failed"]);

export async function waitForTransfer(
  deps: WaitForTransferDeps,
  sourceTxHash: string,
  options: WaitForTransferOptions = {},
): Promise<WaitForTransferResult> {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const hash = sourceTxHash.toLowerCase();
  const outer = options.signal;
  outer?.throwIfAborted();
  // One signal for the caller's abort and the timeout, so a request in flight stops too.
  const controller = new AbortController();
  const timedOut = new BridgeOracleError({ status: 0, code: -1, msg: "" });
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
  let last: BridgeTransaction | undefined;
  try {
    for (;;) {
      let wait = pollIntervalMs;
      try {
        const page = await deps.listTransfers(
          { addressOrTxHash: sourceTxHash, pageNo: 1, pageSize: 100 },
          { signal: controller.signal },
        );
        const record = page.data.find((t) => t.source_tx_hash.toLowerCase() === hash);
        if (
          record !== undefined &&
          (last === undefined ||
            record.status !== last.status ||
            record.updated_at !== last.updated_at)
        ) {
          last = record;
          options.onUpdate?.(record);
        }
        if (record !== undefined && FINAL.has(record.status)) return record;
      } catch (error) {
        const retryable =
          error instanceof BridgeOracleError &&
          (error.status === 429 || (error.status === 503 && error.retryAfter !== undefined));
        if (!retryable) throw error;
        wait = Math.max(wait, (error.retryAfter ?? 0) * 1000);
      }
      await sleep(wait, controller.signal);
    }
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason === timedOut) {
      throw new BridgeOracleError({
        status: 0,
        code: -1,
        msg: `transfer ${sourceTxHash} did not reach Success or Failed within ${timeoutMs} ms (last seen: ${last?.status ?? "not indexed yet"})`,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onAbort);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
