/**
 * The one error the client throws for an API call that did not succeed: the service's own `code`
 * and `msg` (docs/http-api.md, "Errors") with the HTTP status, and for 429 (and a 503 that says
 * when to come back) the Retry-After in seconds.
 *
 * `status` 0 and `code` -1 mean no answer in the service's envelope arrived: the network failed,
 * something in between answered (a proxy's error page), or waitForTransfer ran out of time.
 */
export interface BridgeOracleErrorParameters {
  status: number;
  code: number;
  msg: string;
  retryAfter?: number | undefined;
  requestId?: string | undefined;
  cause?: unknown;
}

export class BridgeOracleError extends Error {
  override readonly name = "BridgeOracleError";
  /** HTTP status of the answer; 0 when there was none. */
  readonly status: number;
  /** The envelope's `code` (40001, 42901, ...); -1 when the answer had no envelope. */
  readonly code: number;
  /** The envelope's `msg`: what to change (which parameter, rule or limit). */
  readonly msg: string;
  /** Seconds to wait before retrying (the Retry-After header of a 429 or 503). */
  readonly retryAfter: number | undefined;
  /** The x-request-id of the answer, to quote when reporting a problem. */
  readonly requestId: string | undefined;

  constructor(parameters: BridgeOracleErrorParameters) {
    const where = parameters.status === 0 ? "" : ` (HTTP ${parameters.status})`;
    super(
      `${parameters.msg}${where}${parameters.code === -1 ? "" : ` [${parameters.code}]`}`,
      parameters.cause === undefined ? undefined : { cause: parameters.cause },
    );
    this.status = parameters.status;
    this.code = parameters.code;
    this.msg = parameters.msg;
    this.retryAfter = parameters.retryAfter;
    this.requestId = parameters.requestId;
  }
}

/** Retry-After as seconds: delta-seconds, or an HTTP date measured from `now`. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\s*[0-9]+\s*$/.test(value)) return Number(value);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
