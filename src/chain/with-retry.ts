/**
 * Exponential backoff with full jitter for RPC calls (backoff.ts). A bounded number of attempts per call; the
 * caller (the chain loop) decides what to do after the last one, and never loses its cursor
 * because the cursor only moves in a committed transaction.
 */
import { backoffDelayMs } from "../backoff.js";
import { sleep } from "../sleep.js";

export interface RetryOptions {
  /** Attempts in total, the first included. */
  attempts: number;
  /** Backoff before the 2nd attempt; doubles each time up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Whether an error is worth another attempt; default: everything is. */
  isRetryable?: (error: unknown) => boolean;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Stops waiting early (shutdown); the last error is rethrown. */
  signal?: AbortSignal;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 6, baseDelayMs: 200, maxDelayMs: 10_000 };

/**
 * Seconds or an HTTP date from a `Retry-After` header found anywhere on the error or its causes
 * (viem's HttpRequestError keeps the response headers), in ms; undefined when absent.
 */
export function retryAfterMs(error: unknown, now = Date.now()): number | undefined {
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    const headers = (e as { headers?: unknown }).headers;
    let value: string | null | undefined;
    if (headers instanceof Headers) value = headers.get("retry-after");
    else if (headers !== null && typeof headers === "object") {
      const v = (headers as Record<string, unknown>)["retry-after"];
      value = typeof v === "string" ? v : undefined;
    }
    if (typeof value === "string" && value.trim() !== "") {
      const seconds = Number(value);
      if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
      const date = Date.parse(value);
      if (!Number.isNaN(date)) return Math.max(0, date - now);
    }
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export async function withRetry<T>(
  call: (attempt: number) => Promise<T>,
  options: RetryOptions = DEFAULT_RETRY,
): Promise<T> {
  const wait = options.sleep ?? ((ms: number) => sleep(ms, options.signal));
  const random = options.random ?? Math.random;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call(attempt);
    } catch (error) {
      const retryable = options.isRetryable?.(error) ?? true;
      if (!retryable || attempt >= options.attempts || options.signal?.aborted) throw error;
      const jittered = backoffDelayMs(
        attempt,
        { baseMs: options.baseDelayMs, maxMs: options.maxDelayMs, jitter: "full" },
        random,
      );
      const delay = Math.max(jittered, Math.min(retryAfterMs(error) ?? 0, 60_000));
      await wait(delay);
    }
  }
}
