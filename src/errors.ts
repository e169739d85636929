/**
 * The one error type that reaches clients. Every error response is the envelope
 * `{ code, msg, data: null }` with the HTTP status and code of docs/http-api.md, API rule 6.
 */
export const ErrorCode = {
  invalidParameter: { code: 40001, status: 400 },
  invalidBody: { code: 40002, status: 400 },
  /** Not valid HTTP/1.1 (request line, headers, body framing, a missing Host): before routing. */
  malformedRequest: { code: 40003, status: 400 },
  missingApiKey: { code: 40101, status: 401 },
  unknownApiKey: { code: 40102, status: 401 },
  notFound: { code: 40401, status: 404 },
  methodNotAllowed: { code: 40501, status: 405 },
  /** The request did not arrive in time (Node's headers / request timeouts): before routing. */
  requestTimeout: { code: 40801, status: 408 },
  /** A static asset's If-Match / If-Unmodified-Since precondition does not hold. */
  preconditionFailed: { code: 41201, status: 412 },
  bodyTooLarge: { code: 41301, status: 413 },
  unsupportedMediaType: { code: 41501, status: 415 },
  /** A static asset's Range header asks for bytes it does not have. */
  rangeNotSatisfiable: { code: 41601, status: 416 },
  /** An `Expect` header other than `100-continue`: before routing. */
  expectationFailed: { code: 41701, status: 417 },
  noRoute: { code: 42201, status: 422 },
  amountOutOfRange: { code: 42202, status: 422 },
  rateLimited: { code: 42901, status: 429 },
  /** The request's headers are larger than Node's limit (16 KiB): before routing. */
  headersTooLarge: { code: 43101, status: 431 },
  internal: { code: 50001, status: 500 },
  /**
   * "Chain state unavailable or too stale to quote" (docs/http-api.md, "Errors"), and everything
   * else that makes the service unable to answer now: the database or read replica unreachable or
   * slow, not ready, shutting down. Always retryable.
   */
  serviceUnavailable: { code: 50301, status: 503 },
} as const;

export type ErrorKind = keyof typeof ErrorCode;

export class ApiError extends Error {
  readonly kind: ErrorKind;
  readonly code: number;
  readonly status: number;
  /** Extra response headers, such as Retry-After for 429. */
  readonly headers: Record<string, string>;

  constructor(
    kind: ErrorKind,
    message: string,
    options?: { headers?: Record<string, string>; cause?: unknown },
  ) {
    super(message, { cause: options?.cause });
    this.name = "ApiError";
    this.kind = kind;
    this.code = ErrorCode[kind].code;
    this.status = ErrorCode[kind].status;
    this.headers = options?.headers ?? {};
  }
}

/** Shorthand for the most common error: a named parameter broke a named rule. */
export function invalidParameter(name: string, rule: string): ApiError {
  return new ApiError("invalidParameter", `${name} ${rule}`);
}

/** The message of anything thrown, for a one-line report (no stack). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
