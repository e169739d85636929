/**
 * Classifies RPC failures. "Range" errors mean the node refused the size of an eth_getLogs
 * (the caller halves the span); everything else is retried with backoff as transient.
 */

const RANGE_PATTERNS = [
  /block range/i,
  /range (is )?too (large|wide|big)/i,
  /too many (results|logs|blocks)/i,
  /query returned more than/i,
  /exceed(s|ed)? .*(limit|range|max)/i,
  /response size/i,
  /limit exceeded/i,
  /log response size/i,
];

function messages(error: unknown): string[] {
  const out: string[] = [];
  for (let e: unknown = error, d = 0; e !== undefined && e !== null && d < 8; d++) {
    const o = e as { message?: unknown; details?: unknown; shortMessage?: unknown; name?: unknown };
    for (const v of [o.message, o.details, o.shortMessage, o.name]) {
      if (typeof v === "string") out.push(v);
    }
    e = (e as { cause?: unknown }).cause;
  }
  return out;
}

export function isTimeoutError(error: unknown): boolean {
  return messages(error).some((m) => /timeout|timed out|TimeoutError|aborted/i.test(m));
}

/**
 * The node refused the span or the size of a log query. A rate limit is not one, though its
 * text often matches ("rate limit exceeded", which viem reports as "Request exceeds defined
 * limit"): it is waited out (Retry-After), not answered by halving the span.
 */
export function isRangeError(error: unknown): boolean {
  if (isRateLimited(error)) return false;
  return messages(error).some((m) => RANGE_PATTERNS.some((p) => p.test(m)));
}

/** A 429 (rate limited) answer. */
export function isRateLimited(error: unknown): boolean {
  for (let e: unknown = error, d = 0; e !== undefined && e !== null && d < 8; d++) {
    if ((e as { status?: unknown }).status === 429) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return messages(error).some((m) => /429|rate limit|too many requests/i.test(m));
}
