/**
 * How every PostgreSQL connection of this program is opened and closed: bounded connect and
 * query waits, TCP keepalive, and a close that cannot hang on a peer that went silent.
 *
 * Why bounds at all: a connection that a NAT or firewall dropped stays open on our side and
 * nothing gets through, and a host that accepts TCP and never speaks PostgreSQL hangs a connect
 * forever; pg waits for ever by default. Which bounds apply depends on who is waiting
 * (docs/store.md, "Timeouts"): the API answers in seconds, so its connections fail fast and the
 * failure is a 503 the client retries; the indexer, imports and migrations run statements that
 * legitimately take minutes, so they get a connect bound and keepalive but no query bound;
 * instead a statement left without an answer has its connection checked with the server.
 */
import pg from "pg";
import {
  createSilentConnectionWatch,
  type SilentConnectionWatch,
} from "./silent-connection-watch.js";

export interface PostgresTimeouts {
  /**
   * Connecting (TCP, TLS, start-up, authentication) and, in a pool, waiting for a free
   * connection; then pg fails with "timeout exceeded when trying to connect".
   */
  readonly connectMs: number;
  /**
   * Client side, per statement: no complete answer within this long fails the statement with
   * "Query read timeout", and the pool discards the connection (its state is unknown).
   * Undefined: no bound (long migrations, big imports, indexer batches).
   */
  readonly queryMs?: number;
  /**
   * Pools without a query bound: a statement without an answer this long gets its connection
   * checked against what the server shows for it, and dropped when the server is doing nothing
   * for it or cannot be reached within `connectMs` (silent-connection-watch.ts). Undefined: no
   * check.
   */
  readonly silenceCheckMs?: number;
  /**
   * Server side: a session left idle inside a transaction this long is ended by the server
   * (idle_in_transaction_session_timeout), which rolls its transaction back and frees its
   * locks. Undefined: never.
   */
  readonly idleInTransactionMs?: number;
}

/** The API's pools (list reads, /readyz, /metrics' indexer status, the API-key cache). */
export const API_POSTGRES_TIMEOUTS: PostgresTimeouts = { connectMs: 3000, queryMs: 5000 };

/**
 * Migrations, the indexer and imports: their statements may run for minutes, so no query bound;
 * a connection that went silent under one is found by asking the server after 30 s.
 */
export const BACKGROUND_POSTGRES_TIMEOUTS: PostgresTimeouts = {
  connectMs: 10_000,
  silenceCheckMs: 30_000,
};

/**
 * `index`: the background bounds, and a transaction whose client fell silent (its machine or
 * network gone mid-batch) is ended by the server after 6 s, so it does not hold the indexer's
 * write lock from a standby that took over (docs/indexer.md, "Standby"). A batch sends its
 * statements back to back; the gaps between them are milliseconds of JS.
 */
export const INDEXER_POSTGRES_TIMEOUTS: PostgresTimeouts = {
  ...BACKGROUND_POSTGRES_TIMEOUTS,
  idleInTransactionMs: 6000,
};

/**
 * TCP keepalive after this long idle: a peer that vanished (a dropped NAT entry) then fails the
 * socket instead of leaving it open for good, and a middlebox sees traffic on idle connections.
 */
const KEEPALIVE_IDLE_MS = 10_000;

/** How long a close waits for the server's goodbye before it destroys the socket. */
const CLOSE_GRACE_MS = 1000;

export function postgresClientConfig(url: string, timeouts: PostgresTimeouts): pg.ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: timeouts.connectMs,
    ...(timeouts.queryMs !== undefined ? { query_timeout: timeouts.queryMs } : {}),
    ...(timeouts.idleInTransactionMs !== undefined
      ? { idle_in_transaction_session_timeout: timeouts.idleInTransactionMs }
      : {}),
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
  };
}

export interface PostgresPool {
  readonly pool: pg.Pool;
  /** Ends the pool: waits for checked-out clients, then closes every connection (see endClient). */
  end(): Promise<void>;
}

export function createPostgresPool(options: {
  url: string;
  max: number;
  timeouts: PostgresTimeouts;
  /** An idle client's connection failed; the next query reconnects. Default: ignored. */
  onIdleError?: (error: Error) => void;
}): PostgresPool {
  const clientConfig = postgresClientConfig(options.url, options.timeouts);
  const { queryMs, silenceCheckMs, connectMs } = options.timeouts;
  const watch =
    queryMs === undefined && silenceCheckMs !== undefined
      ? createSilentConnectionWatch({
          clientConfig,
          checkAfterMs: silenceCheckMs,
          probeMs: connectMs,
        })
      : undefined;
  const pool = new pg.Pool({
    ...clientConfig,
    max: options.max,
    ...(watch !== undefined ? { Client: namedClient(watch) } : {}),
  });
  // An idle client's connection dropping must not crash the process.
  pool.on("error", (error) => options.onIdleError?.(error));
  const open = new Set<pg.Client>();
  pool.on("connect", (client) => {
    // A checked-out client (a transaction in progress) has no pool listener: pg emits its
    // connection's failure as 'error' there, which would end the process. The failure also
    // rejects the client's queries (or the next one), so the transaction fails and is retried,
    // and pg-pool drops the client when it is released.
    client.on("error", () => {});
    open.add(client);
    client.once("end", () => open.delete(client));
    watch?.track(client);
  });
  return {
    pool,
    async end() {
      await watch?.stop();
      await pool.end();
      // pool.end() sent each connection its goodbye without waiting for the server's; a
      // connection to a silent peer would stay open and keep the process alive.
      await Promise.all([...open].map((client) => closedWithin(client, CLOSE_GRACE_MS)));
    },
  };
}

/**
 * Runs `work` between BEGIN and COMMIT on a connection of `pool`; ROLLBACK when it rejects. A
 * connection whose ROLLBACK failed is in an unknown state and is destroyed, not reused.
 */
export async function runPostgresTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("BEGIN");
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {
      broken = true;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** pg.Client whose connections each carry a unique application_name, for `watch` to find. */
function namedClient(watch: SilentConnectionWatch): typeof pg.Client {
  return class NamedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      watch.name(this);
    }
  };
}

/**
 * Ends `client`: a polite goodbye, and when the connection has not closed within a second (a
 * peer that went silent never answers it), the socket is destroyed. Never rejects.
 */
export async function endClient(client: pg.Client, graceMs = CLOSE_GRACE_MS): Promise<void> {
  client.on("error", () => {}); // a late socket error after we gave up on the connection
  const ended = client.end().catch(() => {});
  await closedWithin(client, graceMs, ended);
}

/** Waits until `client`'s connection ended, at most `graceMs`; then destroys its socket. */
async function closedWithin(
  client: pg.Client,
  graceMs: number,
  ended: Promise<void> = new Promise((resolve) => client.once("end", () => resolve())),
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  try {
    await Promise.race([ended, grace]);
  } finally {
    clearTimeout(timer);
    client.connection.stream.destroy();
  }
}
