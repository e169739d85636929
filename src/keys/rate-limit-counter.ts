/**
 * Fixed-window request counters for rate limiting (docs/http-api.md, API rule 5), in process
 * memory.
 *
 * A bucket's window opens at its first request and lasts `windowMs`; every request in it
 * (allowed or not) increments the count; when the window ends the count starts again at zero.
 * Fixed windows allow up to twice the limit across a window boundary; in exchange the count,
 * the remaining budget and Retry-After are exact and cheap, and the same rule runs atomically in
 * Redis (src/keys/redis-rate-limit-counter.ts).
 */

export interface WindowHit {
  /** Requests counted in the bucket's current window, this one included. */
  readonly count: number;
  /** Milliseconds until the current window ends (> 0). */
  readonly resetInMs: number;
}

export interface RateLimitCounter {
  /**
   * Counts one request in `bucket`'s current window. Synchronous when the count lives in this
   * process, a promise when it lives elsewhere; never rejects (a shared counter that fails
   * falls back to counting locally).
   */
  hit(bucket: string, windowMs: number): WindowHit | Promise<WindowHit>;
  /** Connects a shared counter before the first request; resolves (never rejects) when done. */
  start?(): Promise<void>;
  /**
   * A shared counter: the Redis it uses (password masked) and whether counts are shared through
   * it right now (false while it fails and counts are kept per process).
   */
  sharing?(): { readonly redis: string; readonly shared: boolean };
  close(): Promise<void>;
}

export interface CreateMemoryRateLimitCounterParameters {
  /** Clock in milliseconds, for tests. */
  readonly now?: () => number;
}

/** How often expired windows are swept out, so buckets of departed clients do not pile up. */
const SWEEP_INTERVAL_MS = 60_000;

export function createMemoryRateLimitCounter(
  parameters: CreateMemoryRateLimitCounterParameters = {},
): RateLimitCounter & { readonly buckets: number } {
  const now = parameters.now ?? Date.now;
  const windows = new Map<string, { count: number; resetAt: number }>();
  let nextSweepAt = now() + SWEEP_INTERVAL_MS;

  function sweep(at: number): void {
    for (const [bucket, window] of windows) {
      if (window.resetAt <= at) windows.delete(bucket);
    }
    nextSweepAt = at + SWEEP_INTERVAL_MS;
  }

  return {
    hit(bucket, windowMs) {
      const at = now();
      // Sweeping inline (once a minute, O(buckets)) avoids a timer that would need closing.
      if (at >= nextSweepAt) sweep(at);
      let window = windows.get(bucket);
      if (window === undefined || window.resetAt <= at) {
        window = { count: 0, resetAt: at + windowMs };
        windows.set(bucket, window);
      }
      window.count += 1;
      return { count: window.count, resetInMs: window.resetAt - at };
    },
    async close() {
      windows.clear();
    },
    get buckets() {
      return windows.size;
    },
  };
}
