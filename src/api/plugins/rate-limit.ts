/**
 * Rate limits per API key and per client address (docs/http-api.md, API rule 5).
 *
 * A request with a valid key (auth.ts set `request.apiKey`) counts against that key's budget;
 * any other request counts against its client address (IPv6 addresses by their /64, which one
 * host usually owns whole). Counts live in this process's memory, or in Redis when `redisUrl` is
 * given so that every process shares one limit (see src/keys/redis-rate-limit-counter.ts for the
 * window rule and what happens while Redis is down).
 *
 * Every limited response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset
 * (seconds until the window ends); over the limit the answer is 429 42901 with Retry-After.
 *
 * Counting is the request gate's "limit" step (request-gate.ts): after auth's "identify", so keys
 * are known, and before its "refuse", so refused requests count too, whichever plugin was
 * registered first. A route opts out with `config: { rateLimitExempt: true }` (health checks,
 * metrics scrapes).
 */
import { isIP, isIPv6 } from "node:net";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Gauge } from "prom-client";
import { CONFIG_DEFAULTS } from "../../config/env.js";
import { ApiError } from "../../errors.js";
import type { ApiKeyIdentity } from "../../keys/api-key-cache.js";
import {
  createMemoryRateLimitCounter,
  type RateLimitCounter,
  type WindowHit,
} from "../../keys/rate-limit-counter.js";
import { createRedisRateLimitCounter } from "../../keys/redis-rate-limit-counter.js";
import { requestGate } from "../request-gate.js";
import { METRIC_NAMES } from "./metrics.js";
import type {} from "./route-config.js"; // FastifyContextConfig.rateLimitExempt

export interface RateLimitOptions {
  /** Requests per window per client address without a key. 0 = unlimited. Default 120. */
  readonly anonymousPerMinute?: number;
  /** Requests per window per API key. 0 = unlimited. Default 1200. */
  readonly keyPerMinute?: number;
  /** Window length; default one minute (the limits are named per minute for that reason). */
  readonly windowMs?: number;
  /** Share counts through this Redis (Config.redisUrl); in process memory when undefined. */
  readonly redisUrl?: string | undefined;
  /** Prefix of the Redis keys (default "bridge-oracle:ratelimit:"), for deployments sharing one Redis. */
  readonly redisKeyPrefix?: string;
  /** A counter to use instead (tests); the caller closes it. */
  readonly counter?: RateLimitCounter;
}

/** Adds the rate-limit step to `app` itself (call on the root instance, before any route). */
export async function registerRateLimit(
  app: FastifyInstance,
  options: RateLimitOptions,
): Promise<void> {
  const anonymousLimit = options.anonymousPerMinute ?? CONFIG_DEFAULTS.rateLimitAnonymousPerMinute;
  const keyLimit = options.keyPerMinute ?? CONFIG_DEFAULTS.rateLimitKeyPerMinute;
  const windowMs = options.windowMs ?? 60_000;
  for (const [name, value] of [
    ["anonymousPerMinute", anonymousLimit],
    ["keyPerMinute", keyLimit],
    ["windowMs", windowMs],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new Error(`rate limit option ${name} must be a non-negative integer, got ${value}`);
    }
  }
  if (windowMs === 0) throw new Error("rate limit option windowMs must be positive");
  const per = windowMs === 60_000 ? "per minute" : `per ${windowMs / 1000} s`;

  app.addHook("onReady", (done) => {
    if (!app.hasRequestDecorator("apiKey")) {
      app.log.warn("rate limit without API key auth: every request is limited per client address");
    }
    done();
  });

  let counter = options.counter;
  if (counter === undefined) {
    const own =
      options.redisUrl === undefined
        ? createMemoryRateLimitCounter()
        : createRedisRateLimitCounter({
            url: options.redisUrl,
            keyPrefix: options.redisKeyPrefix,
            logger: app.log,
          });
    app.addHook("onClose", async () => own.close());
    await own.start?.();
    counter = own;
  }
  // What start() found, not what was asked for: a Redis that did not answer is not sharing yet.
  const sharing = counter.sharing?.();
  app.log.info(
    {
      anonymousPerMinute: anonymousLimit,
      keyPerMinute: keyLimit,
      shared: sharing?.shared ?? false,
      ...(sharing === undefined ? {} : { redis: sharing.redis }),
    },
    sharing === undefined
      ? "rate limits counted per process"
      : sharing.shared
        ? `rate limits shared through Redis ${sharing.redis}`
        : `rate limits counted per process until Redis ${sharing.redis} answers, then shared`,
  );
  const hits = counter;
  // With REDIS_URL: whether counts are shared right now, for /metrics (the metrics plugin is
  // registered after this one, so the gauge joins its registry once the app is ready).
  const currentSharing = counter.sharing?.bind(counter);
  if (currentSharing !== undefined) {
    app.addHook("onReady", (done) => {
      if (app.hasDecorator("metrics")) {
        new Gauge({
          name: METRIC_NAMES.rateLimitShared,
          help: "1 while rate-limit counts are shared through Redis (REDIS_URL), 0 while Redis fails and each process counts alone",
          registers: [app.metrics.registry],
          collect() {
            this.set(currentSharing().shared ? 1 : 0);
          },
        });
      }
      done();
    });
  }

  const keyLimitText = String(keyLimit);
  // A key's bucket name, made once per identity (the key cache keeps one object per key).
  const keyBuckets = new WeakMap<ApiKeyIdentity, string>();
  function keyBucket(key: ApiKeyIdentity): string {
    let bucket = keyBuckets.get(key);
    if (bucket === undefined) {
      bucket = `key:${key.id}`;
      keyBuckets.set(key, bucket);
    }
    return bucket;
  }

  function verdict(
    request: FastifyRequest,
    reply: FastifyReply,
    limit: number,
    hit: WindowHit,
  ): ApiError | undefined {
    const remaining = Math.max(0, limit - hit.count);
    const resetSeconds = Math.ceil(hit.resetInMs / 1000);
    // Strings: Node checks every header value with a regular expression; a number would be
    // converted for it on every response.
    reply.header("x-ratelimit-limit", limit === keyLimit ? keyLimitText : decimal(limit));
    reply.header("x-ratelimit-remaining", decimal(remaining));
    reply.header("x-ratelimit-reset", decimal(resetSeconds));
    if (hit.count <= limit) return undefined;
    // An unknown or revoked key is answered 401 40102 over the limit too (the request counted).
    if (request.apiKeyRefusal !== undefined) return request.apiKeyRefusal;
    const who =
      request.apiKey === undefined
        ? "this client address"
        : `API key '${request.apiKey.name}' (${request.apiKey.prefix}...)`;
    const hint =
      request.apiKey === undefined && keyLimit > anonymousLimit
        ? `; requests with a valid API key get ${keyLimit} ${per}`
        : "";
    return new ApiError(
      "rateLimited",
      `rate limit of ${limit} requests ${per} exceeded for ${who}; retry after ${resetSeconds} s${hint}`,
      { headers: { "retry-after": decimal(resetSeconds) } },
    );
  }

  requestGate(app).add("limit", (request, reply) => {
    if (request.routeOptions.config.rateLimitExempt === true) return undefined;
    const key = request.apiKey;
    const limit = key === undefined ? anonymousLimit : keyLimit;
    if (limit === 0) return undefined;
    const bucket =
      key === undefined ? `ip:${clientBucket(clientAddress(request))}` : keyBucket(key);
    const hit = hits.hit(bucket, windowMs);
    return hit instanceof Promise
      ? hit.then((value) => verdict(request, reply, limit, value))
      : verdict(request, reply, limit, hit);
  });
}

/**
 * The decimal text of a non-negative safe integer, as String(n) gives it. Not String(n): V8 keeps
 * each number it converts that way in its number-to-string cache, a long-lived table, so every
 * new value (the remaining count is new on almost every request) survives young-generation
 * collections and is copied and promoted by them. toFixed(0) makes a plain new string.
 */
export function decimal(n: number): string {
  return n.toFixed(0);
}

/**
 * The rate-limit bucket of a client address: IPv4 as is, IPv6 by its /64 prefix (one host or
 * one customer network; counting single IPv6 addresses would let one host rotate freely).
 */
/**
 * The address a client is counted by: request.ip (X-Forwarded-For as TRUST_PROXY allows), or the
 * socket's address when that is not an IP address (a trusted hop count larger than the proxies
 * in front lets the client's own text through; it must not become a bucket of its choosing).
 */
export function clientAddress(request: FastifyRequest): string {
  if (isIP(request.ip) !== 0) return request.ip;
  return request.socket.remoteAddress ?? "unknown";
}

export function clientBucket(ip: string): string {
  if (!isIPv6(ip)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped !== null) return mapped[1] ?? ip;
  const [head = "", tail] = ip.split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === undefined || tail === "" ? [] : tail.split(":");
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array<string>(Math.max(0, missing)).fill("0"), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.toLowerCase().replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}
