import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CONFIG_DEFAULTS, ConfigError, loadConfig } from "./env.js";

function configError(env: Record<string, string>, setting: string, pattern: RegExp): void {
  assert.throws(
    () => loadConfig(env),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
      assert.equal(error.setting, setting);
      assert.match(error.message, pattern);
      return true;
    },
  );
}

describe("loadConfig", () => {
  it("default: every setting has its documented default", () => {
    const config = loadConfig({});
    assert.deepEqual(
      { ...config },
      {
        port: 8080,
        host: "127.0.0.1",
        databaseUrl: "./data/bridge-oracle.db",
        readDatabaseUrl: undefined,
        logLevel: "info",
        redisUrl: undefined,
        trustProxy: false,
        rateLimitAnonymousPerMinute: 120,
        rateLimitKeyPerMinute: 1200,
        routerConfig: undefined,
        routerSlippageBps: 50,
        routerMaxStateAgeMs: 15000,
        quoteTtlSeconds: 30,
        corsOrigins: undefined,
        listCacheMb: 64,
        changeLogRetentionHours: 168,
        streamHeartbeatSeconds: 15,
        streamMaxPerClient: 10,
        streamMaxPerKey: 100,
      },
    );
    assert.equal(CONFIG_DEFAULTS.port, 8080);
  });

  it("behavior: the result is frozen", () => {
    const config = loadConfig({});
    assert.ok(Object.isFrozen(config), "Object.isFrozen(config)");
    assert.throws(() => {
      (config as { port: number }).port = 1;
    }, TypeError);
  });

  it("behavior: reads every setting", () => {
    const config = loadConfig({
      PORT: "3000",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgres://u:p@db.internal:5432/oracle",
      LOG_LEVEL: "DEBUG",
      REDIS_URL: "redis://127.0.0.1:6379",
      TRUST_PROXY: "1",
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: "0",
      RATE_LIMIT_KEY_PER_MINUTE: "5000",
    });
    assert.equal(config.port, 3000);
    assert.equal(config.host, "0.0.0.0");
    assert.equal(config.databaseUrl, "postgres://u:p@db.internal:5432/oracle");
    assert.equal(config.logLevel, "debug");
    assert.equal(config.redisUrl, "redis://127.0.0.1:6379");
    assert.equal(config.trustProxy, 1);
    assert.equal(config.rateLimitAnonymousPerMinute, 0);
    assert.equal(config.rateLimitKeyPerMinute, 5000);
  });

  it("behavior: LIST_CACHE_MB sizes the list response cache; 0 turns it off", () => {
    assert.equal(loadConfig({ LIST_CACHE_MB: "0" }).listCacheMb, 0);
    assert.equal(loadConfig({ LIST_CACHE_MB: "512" }).listCacheMb, 512);
    for (const value of ["-1", "1.5", "65537", "lots"]) {
      configError(
        { LIST_CACHE_MB: value },
        "LIST_CACHE_MB",
        /^LIST_CACHE_MB must be an integer from 0 to 65536 \(MiB of cached list responses, 0 = off\)/,
      );
    }
  });

  it("behavior: empty and blank values count as unset", () => {
    const config = loadConfig({ PORT: "", HOST: "  ", REDIS_URL: "", TRUST_PROXY: "" });
    assert.equal(config.port, 8080);
    assert.equal(config.host, "127.0.0.1");
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.trustProxy, false);
  });

  it("behavior: DATABASE_URL accepts SQLite paths and postgresql:// URLs", () => {
    assert.equal(loadConfig({ DATABASE_URL: "/var/lib/x.db" }).databaseUrl, "/var/lib/x.db");
    assert.equal(loadConfig({ DATABASE_URL: "rel/x.db" }).databaseUrl, "rel/x.db");
    assert.equal(
      loadConfig({ DATABASE_URL: "postgresql://postgres@127.0.0.1/test" }).databaseUrl,
      "postgresql://postgres@127.0.0.1/test",
    );
  });

  it("behavior: DATABASE_URL accepts file: URLs; DATABASE_READ_URL a postgres replica", () => {
    assert.equal(loadConfig({ DATABASE_URL: "file:///tmp/x.db" }).databaseUrl, "file:///tmp/x.db");
    assert.equal(
      loadConfig({ DATABASE_READ_URL: "postgres://r@replica:5432/db" }).readDatabaseUrl,
      "postgres://r@replica:5432/db",
    );
  });

  it("error: DATABASE_READ_URL not a postgres URL", () => {
    configError(
      { DATABASE_READ_URL: "./x.db" },
      "DATABASE_READ_URL",
      /must be a postgres:\/\/ URL/,
    );
    // One message for every other value: a SQLite path is no way out for a replica.
    for (const value of ["redis://x", "mysql://x@y/z"]) {
      configError(
        { DATABASE_READ_URL: value },
        "DATABASE_READ_URL",
        /^DATABASE_READ_URL must be a postgres:\/\/ URL \(a read replica\); SQLite has no replicas$/,
      );
    }
    configError(
      { DATABASE_READ_URL: "postgres:///db" },
      "DATABASE_READ_URL",
      /^DATABASE_READ_URL must name a host/,
    );
  });

  it("behavior: TRUST_PROXY is off, a number of proxies, or the proxies' addresses and ranges", () => {
    for (const value of ["false", "False", "0", "no"]) {
      assert.equal(loadConfig({ TRUST_PROXY: value }).trustProxy, false, value);
    }
    assert.equal(loadConfig({ TRUST_PROXY: "1" }).trustProxy, 1);
    assert.equal(loadConfig({ TRUST_PROXY: "2" }).trustProxy, 2);
    assert.deepEqual(loadConfig({ TRUST_PROXY: "10.0.0.5, 10.1.0.0/16,::1,Loopback" }).trustProxy, [
      "10.0.0.5",
      "10.1.0.0/16",
      "::1",
      "loopback",
    ]);
  });

  it("behavior: HOST accepts names and IPv6 addresses", () => {
    assert.equal(loadConfig({ HOST: "localhost" }).host, "localhost");
    assert.equal(loadConfig({ HOST: "::" }).host, "::");
    assert.equal(loadConfig({ HOST: "[::1]" }).host, "::1");
  });

  it("error: PORT not an integer from 1 to 65535", () => {
    for (const value of ["abc", "0", "65536", "-1", "80.5", "1e3", "999999"]) {
      configError(
        { PORT: value },
        "PORT",
        new RegExp(`^PORT must be an integer from 1 to 65535, got '${value.replace(".", "\\.")}'$`),
      );
    }
  });

  it("error: HOST with spaces or slashes", () => {
    configError({ HOST: "local host" }, "HOST", /HOST must be a host name or an IP address/);
    configError({ HOST: "http://x" }, "HOST", /HOST must be a host name or an IP address/);
  });

  it("error: DATABASE_URL with another scheme or no host", () => {
    configError(
      { DATABASE_URL: "mysql://root@localhost/db" },
      "DATABASE_URL",
      /DATABASE_URL must be a SQLite file path or a postgres:\/\/ URL, got a mysql:\/\/ URL/,
    );
    configError({ DATABASE_URL: "postgres:///db" }, "DATABASE_URL", /must name a host/);
  });

  it("error: a DATABASE_URL message never shows the password", () => {
    assert.throws(
      () => loadConfig({ DATABASE_URL: "postgres://user:s3cret@/db" }),
      (error: unknown) => error instanceof ConfigError && !error.message.includes("s3cret"),
    );
  });

  it("error: LOG_LEVEL not a pino level", () => {
    configError(
      { LOG_LEVEL: "verbose" },
      "LOG_LEVEL",
      /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'verbose'$/,
    );
  });

  it("error: REDIS_URL not a redis URL", () => {
    configError({ REDIS_URL: "localhost:6379" }, "REDIS_URL", /REDIS_URL must be a redis:\/\//);
    configError({ REDIS_URL: "http://x:6379" }, "REDIS_URL", /REDIS_URL must be a redis:\/\//);
  });

  it("behavior: REDIS_URL's path is a database number, or none for database 0", () => {
    for (const value of [
      "redis://127.0.0.1:6379",
      "redis://127.0.0.1:6379/",
      "redis://127.0.0.1:6379/0",
      "rediss://cache.example.com:6380/15",
      // Valid here: whether the server has database 16 is known only when it answers.
      "redis://127.0.0.1:6379/16",
    ]) {
      assert.equal(loadConfig({ REDIS_URL: value }).redisUrl, value);
    }
  });

  it("error: REDIS_URL path not a database number", () => {
    for (const path of ["/two", "/2x", "/-1", "/1/2", "/1.5", "/%31", "/1234567890"]) {
      configError(
        { REDIS_URL: `redis://127.0.0.1:6379${path}` },
        "REDIS_URL",
        /^REDIS_URL must end in a database number such as redis:\/\/127\.0\.0\.1:6379\/2 \(or no path for database 0\), got 'redis:\/\/127\.0\.0\.1:6379\//,
      );
    }
    configError(
      { REDIS_URL: "redis://:hunter2@127.0.0.1:6379/db" },
      "REDIS_URL",
      /got 'redis:\/\/:\*\*\*@127\.0\.0\.1:6379\/db'$/,
    );
  });

  it("error: rate limits not a non-negative integer", () => {
    for (const value of ["-1", "1.5", "ten", "1000000001"]) {
      configError(
        { RATE_LIMIT_KEY_PER_MINUTE: value },
        "RATE_LIMIT_KEY_PER_MINUTE",
        /^RATE_LIMIT_KEY_PER_MINUTE must be an integer from 0 \(no limit\) to 1000000000, got/,
      );
    }
    configError(
      { RATE_LIMIT_ANONYMOUS_PER_MINUTE: "x" },
      "RATE_LIMIT_ANONYMOUS_PER_MINUTE",
      /^RATE_LIMIT_ANONYMOUS_PER_MINUTE must be/,
    );
  });

  it("behavior: reads the router settings", () => {
    const config = loadConfig({
      ROUTER_CONFIG: " ./registry.json ",
      ROUTER_SLIPPAGE_BPS: "0",
      ROUTER_MAX_STATE_AGE_MS: "3600000",
    });
    assert.equal(config.routerConfig, "./registry.json");
    assert.equal(config.routerSlippageBps, 0);
    assert.equal(config.routerMaxStateAgeMs, 3_600_000);
  });

  it("error: router slippage and state age outside their ranges", () => {
    const slippage = /ROUTER_SLIPPAGE_BPS must be an integer from 0 to 5000 \(basis points/;
    configError({ ROUTER_SLIPPAGE_BPS: "5001" }, "ROUTER_SLIPPAGE_BPS", slippage);
    configError({ ROUTER_SLIPPAGE_BPS: "0.5" }, "ROUTER_SLIPPAGE_BPS", slippage);
    configError({ ROUTER_SLIPPAGE_BPS: "-1" }, "ROUTER_SLIPPAGE_BPS", slippage);
    const age =
      /ROUTER_MAX_STATE_AGE_MS must be an integer from 1000 to 3600000 \(milliseconds\), got '999'/;
    configError({ ROUTER_MAX_STATE_AGE_MS: "999" }, "ROUTER_MAX_STATE_AGE_MS", age);
    configError({ ROUTER_MAX_STATE_AGE_MS: "15s" }, "ROUTER_MAX_STATE_AGE_MS", /got '15s'/);
  });

  it("error: TRUST_PROXY true (trust whatever the client writes) or not an address", () => {
    // Regression: true took the left-most X-Forwarded-For entry, which the client writes, so
    // anyone could choose their rate-limit address.
    for (const value of ["true", "TRUE", "yes"]) {
      configError(
        { TRUST_PROXY: value },
        "TRUST_PROXY",
        /TRUST_PROXY=true would take .*\(TRUST_PROXY=1\)/,
      );
    }
    for (const value of ["maybe", "10.0.0.0/33", "10.0.0.1/8/2", "100", "10.0.0.1,,"]) {
      configError(
        { TRUST_PROXY: value },
        "TRUST_PROXY",
        /TRUST_PROXY must be false, the number of proxies/,
      );
    }
  });

  it("error: a long bad value is cut short in the message", () => {
    assert.throws(
      () => loadConfig({ LOG_LEVEL: "x".repeat(500) }),
      (error: unknown) => error instanceof ConfigError && error.message.length < 200,
    );
  });
});

describe("URLs in configuration errors", () => {
  it("behavior: a REDIS_URL that does not parse is refused without its password", () => {
    assert.throws(
      () => loadConfig({ REDIS_URL: "redis://:Sup3rS3cret@127.0.0.1:99999/9" }),
      (error: Error) => {
        assert.ok(error instanceof ConfigError, String(error));
        assert.match(error.message, /^REDIS_URL must be/);
        assert.equal(error.message.includes("Sup3rS3cret"), false, error.message);
        return true;
      },
    );
  });
});
