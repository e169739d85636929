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

/**
 * URLs and host:port pairs: the client's and viem's messages name the RPC URL, socket errors
 * the address, and none of their characters may classify a failure (a port 34291 is no 429).
 */
const ADDRESSES = /\S*:\/\/\S*|[\w.-]+:\d+/g;

/** The texts of an error and its causes, addresses left out. */
function messages(error: unknown): string[] {
  const out: string[] = [];
  for (let e: unknown = error, d = 0; e !== undefined && e !== null && d < 8; d++) {
    const o = e as { message?: unknown; details?: unknown; shortMessage?: unknown; name?: unknown };
    for (const v of [o.message, o.details, o.shortMessage, o.name]) {
      if (typeof v === "string") out.push(v.replace(ADDRESSES, ""));
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
  // A bare 429 is no evidence: viem's messages quote the request body, whose JSON-RPC id or
  // hex values can hold those digits. viem sets `status` on an HTTP 429; the rest is text.
  return messages(error).some((m) =>
    /rate.?limit|too many requests|\b(HTTP|status|code)\W{0,3}429\b/i.test(m),
  );
}
