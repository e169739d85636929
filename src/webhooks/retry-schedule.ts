/**
 * When a failed delivery is tried again (docs/webhooks.md, "Retries"): exponential backoff with
 * jitter, for 24 hours from the first attempt, then the delivery is marked failed.
 *
 * The n-th retry waits base * 2^(n-1), capped at one hour, and then a random part of it: "equal
 * jitter", half the delay fixed and half random, so a receiver that was down for everyone is not
 * hit by every retry at the same instant when it comes back, while no retry comes much sooner
 * than its schedule says. With the default base of 5 s the retries come 2.5-5 s, 5-10 s,
 * 10-20 s, ... after each failure, 21-43 min after the tenth, then every 30-60 min: about 40
 * attempts in 24 hours.
 */
import { backoffDelayMs } from "../backoff.js";
import { DEFAULT_WEBHOOK_RETRY_BASE_MS } from "../config/webhook-config.js";

export interface RetryPolicy {
  /** First retry delay, milliseconds (WEBHOOK_RETRY_BASE_MS; default 5000). */
  readonly baseMs: number;
  /** Longest delay between two attempts, milliseconds. Default one hour. */
  readonly maxDelayMs: number;
  /** How long after its first attempt a delivery is still retried. Default 24 hours. */
  readonly windowMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseMs: DEFAULT_WEBHOOK_RETRY_BASE_MS,
  maxDelayMs: 3_600_000,
  windowMs: 24 * 3_600_000,
};

/** The delay before retry number `retry` (1 for the first retry), before jitter. */
export function retryDelayMs(policy: RetryPolicy, retry: number): number {
  return backoffDelayMs(retry, { baseMs: policy.baseMs, maxMs: policy.maxDelayMs, jitter: "none" });
}

/**
 * When to try again after `attempts` failed attempts, the first at `firstAttemptAt` (epoch ms);
 * undefined when the 24-hour window has passed (mark the delivery failed). `random` in [0, 1).
 */
export function nextAttemptAt(
  policy: RetryPolicy,
  attempts: number,
  firstAttemptAt: number,
  now: number,
  random: () => number = Math.random,
): number | undefined {
  if (now - firstAttemptAt >= policy.windowMs) return undefined;
  const delay = backoffDelayMs(
    attempts,
    { baseMs: policy.baseMs, maxMs: policy.maxDelayMs, jitter: "half" },
    random,
  );
  const at = now + delay;
  // The last retry lands at the window's end at the latest, so a delivery is given the whole
  // 24 hours but not more.
  return Math.min(at, firstAttemptAt + policy.windowMs);
}
