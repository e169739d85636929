/**
 * The fixed-window counter of rate-limit-counter.ts kept in Redis, so that every server process
 * using the same Redis database shares one limit per client address and per key.
 *
 * Each hit is one atomic Lua script (INCR, then PEXPIRE when the key has no expiry yet): two
 * processes can never both open a window or lose an increment.
 *
 * When Redis is unreachable, slow (no answer within `commandTimeoutMs`) or refuses the script, a
 * hit is counted in this process's memory instead: limits then hold per process rather than
 * across processes, and the API keeps answering. That is the usual choice for a read API;
 * refusing every request while Redis is down would turn a cache outage into an API outage. A
 * warning naming the Redis (password masked) and the reason is logged once per outage, and a note
 * when Redis answers again.
 *
 * Two ways ioredis alone would not get there:
 * - It reconnects only when the socket closes. A connection that stays open but no longer
 *   answers would time out one hit each pause for good, so a hit that gets no answer on a ready
 *   connection drops it and ioredis opens a fresh one.
 * - A SELECT of the URL's database that fails (a number the server does not have) is only an
 *   'error' event; ioredis carries on in database 0, where counts of other deployments live. So
 *   the script selects the database itself (for the script only): there it fails loudly instead,
 *   and start() runs that check before the first request.
 */
import { Redis, ReplyError } from "ioredis";
import { redactUrl } from "../redact-url.js";
import { createMemoryRateLimitCounter, type RateLimitCounter } from "./rate-limit-counter.js";

/** ARGV[2]: the database (database 0 is never selected: some Redis proxies refuse SELECT). */
const HIT_SCRIPT = `
if ARGV[2] ~= '0' then redis.call('SELECT', ARGV[2]) end
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

/** start()'s check that the hit script can run in the database (ARGV[1]), counting nothing. */
const PROBE_SCRIPT = `
if ARGV[1] ~= '0' then redis.call('SELECT', ARGV[1]) end
return 1
`;

export const REDIS_RATE_LIMIT_KEY_PREFIX = "bridge-oracle:ratelimit:";
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/**
 * After a failed hit, how long hits skip Redis and count locally. Without this pause a Redis
 * that accepts connections but stalls would add commandTimeoutMs to every request.
 */
export const REDIS_PAUSE_AFTER_FAILURE_MS = 1_000;
/** How long start() waits for Redis before serving with per-process counts. */
export const REDIS_CONNECT_TIMEOUT_MS = 2_000;

export interface RateLimitCounterLogger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

export interface CreateRedisRateLimitCounterParameters {
  /** redis:// or rediss:// URL (Config.redisUrl). */
  readonly url: string;
  /** Prepended to every bucket, so several deployments can share one Redis. */
  readonly keyPrefix?: string;
  /** A hit that Redis has not answered by then is counted locally. Default 250 ms. */
  readonly commandTimeoutMs?: number;
  /** How long start() waits for the first connection. Default 2 s. */
  readonly connectTimeoutMs?: number;
  /** Default 1 s (REDIS_PAUSE_AFTER_FAILURE_MS). */
  readonly pauseAfterFailureMs?: number;
  readonly logger?: RateLimitCounterLogger;
}

interface RedisWithHit extends Redis {
  rateLimitHit(key: string, windowMs: number, db: string): Promise<[number, number]>;
  rateLimitProbe(db: string): Promise<number>;
}

export function createRedisRateLimitCounter(
  parameters: CreateRedisRateLimitCounterParameters,
): RateLimitCounter {
  const keyPrefix = parameters.keyPrefix ?? REDIS_RATE_LIMIT_KEY_PREFIX;
  const logger = parameters.logger;
  const redis = redactUrl(parameters.url);
  const commandTimeoutMs = parameters.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
  const client = new Redis(parameters.url, {
    // Fail fast instead of queueing hits while disconnected: the fallback answers at once.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    // A hit that failed was counted locally; it must not be sent again after a reconnect.
    autoResendUnfulfilledCommands: false,
    // A connection dropped for not answering (below) gets no longer than a command to close.
    disconnectTimeout: commandTimeoutMs,
    // Keep reconnecting in the background, at most every 2 s.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2_000),
    connectionName: "bridge-oracle-rate-limit",
    // start() connects, so that the first requests are not counted locally while connecting.
    lazyConnect: true,
  }) as RedisWithHit;
  // The database ioredis took from the URL (its path, or a ?db= parameter).
  const db = client.options.db ?? 0;
  if (!Number.isSafeInteger(db) || db < 0) {
    throw new Error(`Redis URL ${redis} does not name a database as a non-negative integer`);
  }
  const dbArgument = String(db);
  client.defineCommand("rateLimitHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
  client.defineCommand("rateLimitProbe", { numberOfKeys: 0, lua: PROBE_SCRIPT });
  /** The last error ioredis reported on the current connection (attempt), for the warning. */
  let connectionError: string | undefined;
  // Without a listener ioredis would print every reconnect failure as an unhandled error event;
  // what went wrong is reported once, through the warning of the hit that fails.
  client.on("error", (error: Error) => {
    connectionError = error.message;
  });
  client.on("connect", () => {
    connectionError = undefined;
  });

  const fallback = createMemoryRateLimitCounter();
  const pauseAfterFailureMs = parameters.pauseAfterFailureMs ?? REDIS_PAUSE_AFTER_FAILURE_MS;
  let failing = false;
  /** Until then (epoch ms), hits are counted locally without asking Redis. */
  let pausedUntil = 0;

  /**
   * Why a command sent at `sentAt` (performance.now()) failed, in words. A ready connection that
   * gave no answer is stalled or broken, and ioredis would keep it while its socket stays open:
   * it is dropped here, and ioredis connects afresh (retryStrategy).
   */
  function failure(error: unknown, sentAt: number): string {
    if (error instanceof ReplyError) {
      // Redis 7 appends where in the script the error arose; the reason is the error itself.
      const text = String((error as Error).message).replace(
        / script: \w+, on @user_script:.*$/,
        "",
      );
      return `it answered ${text}`;
    }
    if (client.status !== "ready") {
      return `not connected: ${connectionError ?? `connection ${client.status}`}`;
    }
    client.disconnect(true);
    // ioredis's own commandTimeout, or no answer by the time it would have fired (its timer
    // counts from the event loop's cached time, so it can fire a little before
    // performance.now() says the time is up).
    const timedOut = error instanceof Error && error.message === "Command timed out";
    if (timedOut || performance.now() - sentAt >= commandTimeoutMs) {
      return `no answer within ${commandTimeoutMs} ms; reconnecting`;
    }
    return `${error instanceof Error ? error.message : String(error)}; reconnecting`;
  }

  function warn(reason: string, when: string): void {
    logger?.warn(
      { redis, reason },
      `Redis ${redis} unavailable${when} (${reason}); counting rate limits per process until a shared count succeeds`,
    );
  }

  return {
    async start() {
      const connectTimeoutMs = parameters.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS;
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          reject(new Error("start timeout"));
        }, connectTimeoutMs);
      });
      const sentAt = performance.now();
      try {
        // The probe runs what every hit runs first, so a database the server does not have
        // shows here, not as counts in database 0.
        await Promise.race([
          client.connect().then(() => client.rateLimitProbe(dbArgument)),
          timeout,
        ]);
      } catch (error) {
        // Serve anyway (see the top of this file); ioredis keeps reconnecting in the background.
        failing = true;
        const reason = timedOut
          ? `no connection within ${connectTimeoutMs} ms${connectionError === undefined ? "" : `: ${connectionError}`}`
          : failure(error, sentAt);
        warn(reason, " at start");
      } finally {
        clearTimeout(timer);
      }
    },
    async hit(bucket, windowMs) {
      if (pausedUntil > Date.now()) return fallback.hit(bucket, windowMs);
      const sentAt = performance.now();
      try {
        const [count, ttl] = await client.rateLimitHit(keyPrefix + bucket, windowMs, dbArgument);
        if (failing) {
          failing = false;
          logger?.info(
            { redis },
            `Redis ${redis} answers again; rate limits are shared across processes`,
          );
        }
        return { count: Number(count), resetInMs: Math.max(1, Number(ttl)) };
      } catch (error) {
        pausedUntil = Date.now() + pauseAfterFailureMs;
        const reason = failure(error, sentAt);
        if (!failing) {
          failing = true;
          warn(reason, "");
        }
        return fallback.hit(bucket, windowMs);
      }
    },
    sharing() {
      return { redis, shared: !failing };
    },
    async close() {
      await fallback.close();
      client.disconnect();
    },
  };
}
