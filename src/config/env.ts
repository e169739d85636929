/**
 * The service's configuration, read from environment variables and validated once at start.
 * A bad value throws a ConfigError naming the setting and the rule; nothing downstream has to
 * re-check a Config. An empty variable (`PORT=`) counts as unset, as docker-compose files often
 * pass empty values for settings they do not use.
 */

import { isIP } from "node:net";
import { redactUrl } from "../redact-url.js";
import { ConfigError, type Env, quote, read, readInteger } from "./read-env.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** TCP port the HTTP API listens on (1..65535). */
  readonly port: number;
  /** Interface the HTTP API binds to. */
  readonly host: string;
  /** SQLite file path, or a postgres:// / postgresql:// URL. */
  readonly databaseUrl: string;
  /** PostgreSQL only: a read replica for list queries; undefined to read from databaseUrl. */
  readonly readDatabaseUrl: string | undefined;
  readonly logLevel: LogLevel;
  /** redis:// or rediss:// URL; undefined when rate limits stay in memory. */
  readonly redisUrl: string | undefined;
  /**
   * Which X-Forwarded-For entries are trusted for the client address (behind reverse proxies):
   * false (none: the socket's address), the number of proxies in front of the API, or the
   * proxies' addresses / CIDR ranges. Never "all": a client writes X-Forwarded-For itself.
   */
  readonly trustProxy: TrustProxy;
  /** Requests per minute per client address without an API key; 0 = unlimited. */
  readonly rateLimitAnonymousPerMinute: number;
  /** Requests per minute per API key; 0 = unlimited. */
  readonly rateLimitKeyPerMinute: number;
  /**
   * ROUTER_CONFIG: the router's registry, a registry JSON file or a devnet manifest; undefined
   * to use $DEVNET_DIR/manifest.json when it exists (serve decides; see docs/router.md).
   */
  readonly routerConfig: string | undefined;
  /** ROUTER_SLIPPAGE_BPS: slippage tolerance of quotes in basis points (0..5000). */
  readonly routerSlippageBps: number;
  /** ROUTER_MAX_STATE_AGE_MS: quotes from chain state older than this answer 503 50301. */
  readonly routerMaxStateAgeMs: number;
  /**
   * QUOTE_TTL_SECONDS: a quote's expiresAt is the read time of the older of the two chain states
   * that priced it plus this (docs/router.md).
   */
  readonly quoteTtlSeconds: number;
  /**
   * LIST_CACHE_MB: the list endpoint's response cache, MiB of cached URLs and answers (counted
   * in characters); 0 turns it off (src/api/response-cache.ts).
   */
  readonly listCacheMb: number;
  /**
   * CORS_ORIGINS: browser origins allowed to call the API (`*` for any, or a list of origins
   * such as https://app.example); undefined: no CORS headers (browsers on other origins cannot
   * read the answers).
   */
  readonly corsOrigins: "*" | readonly string[] | undefined;
  /** CHANGE_LOG_RETENTION_HOURS: changes older than this are pruned (docs/push.md). */
  readonly changeLogRetentionHours: number;
  /** STREAM_HEARTBEAT_SECONDS: between two heartbeat comments of a stream. */
  readonly streamHeartbeatSeconds: number;
  /** STREAM_MAX_PER_CLIENT: concurrent streams per client address without a key; 0 = no limit. */
  readonly streamMaxPerClient: number;
  /** STREAM_MAX_PER_KEY: concurrent streams per API key; 0 = no limit. */
  readonly streamMaxPerKey: number;
}

export type TrustProxy = false | number | readonly string[];

export const CONFIG_DEFAULTS = {
  port: 8080,
  host: "127.0.0.1",
  databaseUrl: "./data/bridge-oracle.db",
  logLevel: "info",
  trustProxy: false as TrustProxy,
  rateLimitAnonymousPerMinute: 120,
  rateLimitKeyPerMinute: 1200,
  routerSlippageBps: 50,
  routerMaxStateAgeMs: 15_000,
  quoteTtlSeconds: 30,
  listCacheMb: 64,
  changeLogRetentionHours: 168,
  streamHeartbeatSeconds: 15,
  streamMaxPerClient: 10,
  streamMaxPerKey: 100,
} as const satisfies Partial<Config>;

export { ConfigError } from "./read-env.js";

/** Reads and validates the configuration; throws ConfigError on the first bad setting. */
export function loadConfig(env: Env = process.env): Config {
  return Object.freeze({
    port: readPort(env),
    host: readHost(env),
    databaseUrl: readDatabaseUrl(env, "DATABASE_URL") ?? CONFIG_DEFAULTS.databaseUrl,
    readDatabaseUrl: readReadDatabaseUrl(env),
    logLevel: readLogLevel(env),
    redisUrl: readRedisUrl(env),
    trustProxy: readTrustProxy(env),
    rateLimitAnonymousPerMinute: readCount(
      env,
      "RATE_LIMIT_ANONYMOUS_PER_MINUTE",
      CONFIG_DEFAULTS.rateLimitAnonymousPerMinute,
    ),
    rateLimitKeyPerMinute: readCount(
      env,
      "RATE_LIMIT_KEY_PER_MINUTE",
      CONFIG_DEFAULTS.rateLimitKeyPerMinute,
    ),
    routerConfig: read(env, "ROUTER_CONFIG"),
    routerSlippageBps: readInteger(
      env,
      "ROUTER_SLIPPAGE_BPS",
      CONFIG_DEFAULTS.routerSlippageBps,
      0,
      5000,
      "basis points, 50 = 0.5 %",
    ),
    routerMaxStateAgeMs: readInteger(
      env,
      "ROUTER_MAX_STATE_AGE_MS",
      CONFIG_DEFAULTS.routerMaxStateAgeMs,
      1000,
      3_600_000,
      "milliseconds",
    ),
    quoteTtlSeconds: readInteger(
      env,
      "QUOTE_TTL_SECONDS",
      CONFIG_DEFAULTS.quoteTtlSeconds,
      1,
      3600,
      "seconds",
    ),
    corsOrigins: readCorsOrigins(env),
    listCacheMb: readInteger(
      env,
      "LIST_CACHE_MB",
      CONFIG_DEFAULTS.listCacheMb,
      0,
      65_536,
      "MiB of cached list responses, 0 = off",
    ),
    changeLogRetentionHours: readInteger(
      env,
      "CHANGE_LOG_RETENTION_HOURS",
      CONFIG_DEFAULTS.changeLogRetentionHours,
      1,
      87_600,
      "hours, 168 = 7 days",
    ),
    streamHeartbeatSeconds: readInteger(
      env,
      "STREAM_HEARTBEAT_SECONDS",
      CONFIG_DEFAULTS.streamHeartbeatSeconds,
      1,
      3600,
      "seconds",
    ),
    streamMaxPerClient: readCount(env, "STREAM_MAX_PER_CLIENT", CONFIG_DEFAULTS.streamMaxPerClient),
    streamMaxPerKey: readCount(env, "STREAM_MAX_PER_KEY", CONFIG_DEFAULTS.streamMaxPerKey),
  });
}

/**
 * DATABASE_URL alone, validated and defaulted as loadConfig does: for commands (`index`) that
 * need no other setting and must not refuse to run over one they do not use.
 */
export function loadDatabaseUrl(env: Env = process.env): string {
  return readDatabaseUrl(env, "DATABASE_URL") ?? CONFIG_DEFAULTS.databaseUrl;
}

/**
 * LOG_LEVEL alone, validated and defaulted as loadConfig does: for `index`, which logs like
 * `serve` but reads no other setting of serve's.
 */
export function loadLogLevel(env: Env = process.env): LogLevel {
  return readLogLevel(env);
}

function readPort(env: Env): number {
  const raw = read(env, "PORT");
  if (raw === undefined) return CONFIG_DEFAULTS.port;
  const port = /^[0-9]{1,5}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(port >= 1 && port <= 65535)) {
    throw new ConfigError("PORT", `PORT must be an integer from 1 to 65535, got ${quote(raw)}`);
  }
  return port;
}

function readHost(env: Env): string {
  const raw = read(env, "HOST");
  if (raw === undefined) return CONFIG_DEFAULTS.host;
  // A host name, an IPv4 address or an IPv6 address (with or without brackets).
  if (!/^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*|[A-Za-z0-9.-]{1,253})$/.test(raw)) {
    throw new ConfigError(
      "HOST",
      `HOST must be a host name or an IP address such as 127.0.0.1 or 0.0.0.0, got ${quote(raw)}`,
    );
  }
  return raw.startsWith("[") ? raw.slice(1, -1) : raw;
}

/** A SQLite file path (or file: URL), or a postgres:// URL with a host. */
function readDatabaseUrl(env: Env, name: string): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(raw)?.[1]?.toLowerCase();
  if (scheme === undefined || scheme === "file") return raw; // a SQLite file path
  if (scheme !== "postgres" && scheme !== "postgresql") {
    throw new ConfigError(
      name,
      `${name} must be a SQLite file path or a postgres:// URL, got a ${scheme}:// URL`,
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      name,
      `${name} is not a valid postgres:// URL (expected postgres://user:password@host:5432/database)`,
    );
  }
  if (url.hostname === "" && !url.searchParams.has("host")) {
    throw new ConfigError(
      name,
      `${name} must name a host, such as postgres://user@127.0.0.1:5432/db, got ${quote(redactUrl(raw))}`,
    );
  }
  return raw;
}

function readReadDatabaseUrl(env: Env): string | undefined {
  const raw = read(env, "DATABASE_READ_URL");
  if (raw === undefined) return undefined;
  // Checked before readDatabaseUrl, whose message for another scheme offers a SQLite path.
  if (!/^postgres(ql)?:\/\//i.test(raw)) {
    throw new ConfigError(
      "DATABASE_READ_URL",
      "DATABASE_READ_URL must be a postgres:// URL (a read replica); SQLite has no replicas",
    );
  }
  return readDatabaseUrl(env, "DATABASE_READ_URL");
}

function readLogLevel(env: Env): LogLevel {
  const raw = read(env, "LOG_LEVEL");
  if (raw === undefined) return CONFIG_DEFAULTS.logLevel;
  const level = raw.toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new ConfigError(
      "LOG_LEVEL",
      `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got ${quote(raw)}`,
    );
  }
  return level as LogLevel;
}

function readRedisUrl(env: Env): string | undefined {
  const raw = read(env, "REDIS_URL");
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== "redis:" && url.protocol !== "rediss:")) {
    throw new ConfigError(
      "REDIS_URL",
      `REDIS_URL must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379, got ${quote(redactUrl(raw))}`,
    );
  }
  // The path is the database number. ioredis reads anything else as some number (NaN, "/2x"
  // as 2) or as database 0, so a typo would share another deployment's counters unnoticed.
  if (!/^(\/[0-9]{0,9})?$/.test(url.pathname)) {
    throw new ConfigError(
      "REDIS_URL",
      `REDIS_URL must end in a database number such as redis://127.0.0.1:6379/2 (or no path for database 0), got ${quote(redactUrl(raw))}`,
    );
  }
  return raw;
}

/** A non-negative integer (0 meaning "no limit"), at most 1e9. */
function readCount(env: Env, name: string, fallback: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]{1,10}$/.test(raw) || Number(raw) > 1_000_000_000) {
    throw new ConfigError(
      name,
      `${name} must be an integer from 0 (no limit) to 1000000000, got ${quote(raw)}`,
    );
  }
  return Number(raw);
}

function readCorsOrigins(env: Env): "*" | readonly string[] | undefined {
  const raw = read(env, "CORS_ORIGINS");
  if (raw === undefined) return undefined;
  if (raw === "*") return "*";
  const origins = raw.split(",").map((o) => o.trim());
  for (const origin of origins) {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (url === undefined || !/^https?:$/.test(url.protocol) || url.origin !== origin) {
      throw new ConfigError(
        "CORS_ORIGINS",
        "CORS_ORIGINS must be * or origins separated by commas, each scheme://host[:port] with " +
          `no path or trailing slash (e.g. https://app.example,http://localhost:3000), got ${quote(origin)}`,
      );
    }
  }
  return Object.freeze(origins);
}

/** proxy-addr's names for address ranges, accepted beside addresses and CIDRs. */
const PROXY_RANGE_NAMES = ["loopback", "linklocal", "uniquelocal"];

function readTrustProxy(env: Env): TrustProxy {
  const raw = read(env, "TRUST_PROXY");
  if (raw === undefined) return CONFIG_DEFAULTS.trustProxy;
  const lower = raw.toLowerCase();
  if (lower === "false" || lower === "no" || lower === "0") return false;
  if (lower === "true" || lower === "yes") {
    throw new ConfigError(
      "TRUST_PROXY",
      "TRUST_PROXY=true would take the client address from the left of X-Forwarded-For, which " +
        "the client writes itself (anyone could pick their rate-limit address); set the number " +
        "of proxies in front of the API (TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.5 " +
        "or 10.0.0.0/8, comma-separated)",
    );
  }
  if (/^[0-9]{1,2}$/.test(raw)) return Number(raw);
  const entries = raw.split(",").map((e) => e.trim());
  for (const entry of entries) {
    const [address = "", bits, ...rest] = entry.split("/");
    const maxBits = isIP(address) === 4 ? 32 : 128;
    const valid =
      PROXY_RANGE_NAMES.includes(entry.toLowerCase()) ||
      (isIP(address) !== 0 &&
        rest.length === 0 &&
        (bits === undefined || (/^[0-9]{1,3}$/.test(bits) && Number(bits) <= maxBits)));
    if (!valid) {
      throw new ConfigError(
        "TRUST_PROXY",
        "TRUST_PROXY must be false, the number of proxies in front of the API (1-99), or their " +
          `addresses / CIDR ranges, comma-separated (e.g. 10.0.0.5,10.1.0.0/16), got ${quote(entry)}`,
      );
    }
  }
  return Object.freeze(entries.map((e) => e.toLowerCase()));
}
