/**
 * Tells a database that is unreachable, restarting or busy (a condition worth retrying) from any
 * other failure, by the driver's own error codes: node's socket errors and PostgreSQL's
 * connection-exception / operator-intervention SQLSTATEs for pg, SQLITE_BUSY / CANTOPEN / IOERR
 * for better-sqlite3. The API answers such a failure 503 50301 instead of 500.
 */

const SOCKET_ERRORS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);

/** 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300 too_many_connections. */
const POSTGRES_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);

/**
 * What pg itself throws when the socket goes away under a client, a connect times out
 * (connectionTimeoutMillis) or a statement gets no answer in time (query_timeout).
 */
const PG_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout/,
  /^Client has encountered a connection error and is not queryable/,
];

const SQLITE_CODES = /^SQLITE_(BUSY|CANTOPEN|IOERR)/;

/**
 * SQLSTATEs a read replica answers when it lacks part of the schema the primary has (it has not
 * replayed a migration yet): 42P01 undefined_table, 42703 undefined_column, 42883
 * undefined_function, 3F000 invalid_schema_name. From the primary they are bugs (500).
 */
const MISSING_SCHEMA_STATES = new Set(["42P01", "42703", "42883", "3F000"]);

/**
 * The read replica (DATABASE_READ_URL) could not serve a read; the primary may be fine. Counts
 * as unavailable (503, retry), and messages name the replica rather than "the database".
 */
export class ReadReplicaError extends Error {
  readonly readReplica = true;
  constructor(
    /**
     * Why: it cannot be reached or gives no answer; it lacks the schema the service needs; or
     * (from ping only) it failed otherwise. The first two are unavailable (retry).
     */
    readonly problem: "unreachable" | "not migrated" | "failing",
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`read replica (DATABASE_READ_URL) ${problem}: ${detail}`, options);
    this.name = "ReadReplicaError";
  }
}

/**
 * A read on the replica failed: a ReadReplicaError when the replica is unreachable or behind
 * the schema, else `error` itself (a real failure stays a 500).
 */
export function readReplicaFailure(error: unknown): unknown {
  if (error instanceof ReadReplicaError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (isStoreUnavailable(error))
    return new ReadReplicaError("unreachable", detail, { cause: error });
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && MISSING_SCHEMA_STATES.has(code)) {
    return new ReadReplicaError("not migrated", detail, { cause: error });
  }
  return error;
}

/** A database gave no answer within a deadline of ours (not pg's): unavailable. */
export class NoAnswerError extends Error {
  constructor(
    what: string,
    readonly timeoutMs: number,
  ) {
    super(`${what} gave no answer within ${timeoutMs} ms`);
    this.name = "NoAnswerError";
  }
}

function isUnavailableHere(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if (error instanceof NoAnswerError) return true;
  if (error instanceof ReadReplicaError) return error.problem !== "failing";
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (SOCKET_ERRORS.has(code) || POSTGRES_STATES.has(code)) return true;
    // SQLSTATE class 08: connection exception.
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
    if (SQLITE_CODES.test(code)) return true;
  }
  return typeof message === "string" && PG_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * True when `error`, its cause chain or (for an AggregateError, as net.connect raises for a host
 * with several addresses) any of its errors says the database could not be reached.
 */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 8 || typeof error !== "object" || error === null) return false;
  if (isUnavailableHere(error)) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.some((e) => isStoreUnavailable(e, depth + 1))) return true;
  return isStoreUnavailable(cause, depth + 1);
}
