/**
 * The one backoff rule of everything that retries: the RPC call retry (chain/with-retry.ts), the
 * indexer's chain loop, the router's state reader, webhook delivery (webhooks/retry-schedule.ts),
 * the stream's change feed, the PostgreSQL change listener and the devnet relayer. The delay
 * doubles from `baseMs` with each failure up to `maxMs`; jitter spreads clients that failed
 * together (one RPC outage) apart.
 */

export interface BackoffOptions {
  /** The delay after the first failure (before jitter). */
  baseMs: number;
  /** The delay never grows past this (before jitter). */
  maxMs: number;
  /**
   * "full": anywhere from 0 to the delay (retries of one call, which have a bounded count);
   * "half": from half the delay to the delay (a loop that must not retry at once);
   * "none": the delay itself (a loop whose delay is logged and read by people).
   */
  jitter: "full" | "half" | "none";
}

/** Milliseconds to wait after the `failures`-th failure in a row (1 for the first). */
export function backoffDelayMs(
  failures: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  // The exponent is capped so 2 ** n stays finite however long an outage lasts.
  const exponent = Math.min(Math.max(failures, 1) - 1, 30);
  const delay = Math.min(options.maxMs, options.baseMs * 2 ** exponent);
  switch (options.jitter) {
    case "full":
      return Math.floor(random() * delay);
    case "half":
      return Math.round(delay / 2 + random() * (delay / 2));
    case "none":
      return delay;
  }
}
