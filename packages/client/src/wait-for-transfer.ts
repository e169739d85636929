/**
 * `waitForTransfer(sourceTxHash, { onUpdate, signal, timeoutMs })`: follows a transfer until it
 * is `Success` or `Failed` (docs/client.md, "waitForTransfer").
 *
 * - It listens to the server's event stream of the transfer's changes (transfer-stream.ts) and
 *   reads the list endpoint once each time the stream is (re)opened, for what changed before;
 *   where the server has no stream (404, or any other refusal of it) it asks the list endpoint
 *   every `pollIntervalMs` instead.
 * - Before the indexer has seen the send there is no record yet: it keeps waiting.
 * - `onUpdate` gets the record when it first appears and whenever its status or `updated_at`
 *   changes (a reorganisation can send a record back to Processing: docs/http-api.md, API rule 7).
 * - A 429 (and a 503 that carries Retry-After) of the list waits as long as Retry-After says, at
 *   least the poll interval, and asks again; any other error of the list rejects.
 * - Out of time it rejects with a BridgeOracleError (status 0, code -1) naming the last status
 *   seen; an aborted `signal` rejects with the signal's reason.
 */
import { BridgeOracleError } from "./errors.js";
import type { RequestOptions, Transport } from "./request.js";
import { openTransferStream, type StreamEvent } from "./transfer-stream.js";
import type { BridgeTransaction, TransferList } from "./types.js";

export interface WaitForTransferOptions {
  /** Called with the record when it appears and whenever it changes. */
  onUpdate?: ((transfer: BridgeTransaction) => void) | undefined;
  /** Stops waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal | undefined;
  /** Gives up after this long; default 600,000 ms (10 minutes). */
  timeoutMs?: number | undefined;
  /** Pause between two list requests when polling; default 1,000 ms. */
  pollIntervalMs?: number | undefined;
  /** Use the server's event stream when it has one; default true. */
  stream?: boolean | undefined;
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
  // An address never matches a source transaction hash: say so now, not after the timeout.
  if (/^0x[0-9a-fA-F]{40}$/.test(sourceTxHash)) {
    throw new TypeError(
      `waitForTransfer takes the source transaction hash (what executeQuote returns), not an address: ${sourceTxHash}`,
    );
  }
  const timeoutMs = options.timeoutMs ?? 600_000;
  const pollIntervalMs = options.pollIntervalMs ?? 1_000;
  const hash = sourceTxHash.toLowerCase();
  const outer = options.signal;
  outer?.throwIfAborted();
  // One signal for the caller's abort and the timeout, so a request in flight stops too.
  const controller = new AbortController();
  const signal = controller.signal;
  const timedOut = new BridgeOracleError({ status: 0, code: -1, msg: "" });
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(timedOut), timeoutMs);
  let last: BridgeTransaction | undefined;

  /** Notes a record of this transfer; returns it when it is final. */
  const seen = (record: BridgeTransaction | undefined): BridgeTransaction | undefined => {
    if (record === undefined || record.source_tx_hash.toLowerCase() !== hash) return undefined;
    if (
      last === undefined ||
      record.status !== last.status ||
      record.updated_at !== last.updated_at
    ) {
      last = record;
      options.onUpdate?.(record);
    }
    return FINAL.has(record.status) ? record : undefined;
  };

  /** One list read (retried after a 429 / 503 as Retry-After says); the final record or not. */
  const readList = async (): Promise<BridgeTransaction | undefined> => {
    for (;;) {
      try {
        const page = await deps.listTransfers(
          { addressOrTxHash: sourceTxHash, pageNo: 1, pageSize: 100 },
          { signal },
        );
        return seen(page.data.find((t) => t.source_tx_hash.toLowerCase() === hash));
      } catch (error) {
        const retryable =
          error instanceof BridgeOracleError &&
          (error.status === 429 || (error.status === 503 && error.retryAfter !== undefined));
        if (!retryable) throw error;
        await sleep(Math.max(pollIntervalMs, (error.retryAfter ?? 0) * 1000), signal);
      }
    }
  };

  try {
    let streaming = options.stream ?? true;
    let lastEventId: string | undefined;
    for (;;) {
      let events: AsyncGenerator<StreamEvent> | undefined;
      if (streaming) {
        try {
          events = await openTransferStream({
            transport: deps.transport,
            addressOrTxHash: sourceTxHash,
            lastEventId,
            signal,
          });
        } catch (error) {
          if (!(error instanceof BridgeOracleError)) throw error;
          streaming = false; // no stream here (or not for us): poll
        }
      }
      // Whatever changed before the stream was open (or, polling, since the last read).
      const final = await readList();
      if (final !== undefined) {
        await events?.return(undefined);
        return final;
      }
      if (events !== undefined) {
        try {
          for await (const event of events) {
            lastEventId = event.id ?? lastEventId;
            if (event.event === "ready") continue; // caught up: nothing to do
            if (event.event !== "transfer") {
              // `reset` (changes the server no longer holds), `removed` (a reorganisation took the
              // record away) or anything else it tells: the list says where the transfer is.
              const done = await readList();
              if (done !== undefined) return done;
              continue;
            }
            const done = seen(JSON.parse(event.data) as BridgeTransaction);
            if (done !== undefined) return done;
          }
        } catch (error) {
          if (signal.aborted) throw error;
          // The connection dropped: open it again after a pause, resuming after lastEventId.
        }
      }
      await sleep(pollIntervalMs, signal);
    }
  } catch (error) {
    if (signal.aborted && signal.reason === timedOut) {
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
    // Ends a stream still open (its fetch listens to this signal).
    controller.abort();
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
