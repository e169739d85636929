/**
 * The README's configuration table is the list of settings: every environment variable the
 * code reads has a row, every row is read somewhere, and the defaults in the table are the
 * code's (CONFIG_DEFAULTS).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { CONFIG_DEFAULTS } from "../../src/config/env.js";

const root = resolve(import.meta.dirname, "../..");

function sources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (entry.endsWith(".ts") && !entry.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

/** Variables read from an environment object: read*(env, "NAME") and env.NAME / env["NAME"]. */
function variablesReadBySource(): Set<string> {
  const names = new Set<string>();
  for (const file of sources(join(root, "src"))) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/\bread[A-Za-z]*\(\s*env,\s*"([A-Z][A-Z0-9_]*)"/g)) {
      names.add(m[1] as string);
    }
    for (const m of text.matchAll(
      /\benv\??\.([A-Z][A-Z0-9_]*)\b|\benv\[\s*"([A-Z][A-Z0-9_]*)"\s*\]/g,
    )) {
      names.add((m[1] ?? m[2]) as string);
    }
  }
  return names;
}

/** The README's configuration table: variable -> default column. */
function readmeTable(): Map<string, string> {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const section = readme.split(/^## Configuration$/m)[1]?.split(/^## /m)[0] ?? "";
  const rows = new Map<string, string>();
  for (const m of section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)) {
    rows.set(m[1] as string, (m[2] as string).trim());
  }
  return rows;
}

describe("README configuration table", () => {
  it("has a row for every variable the code reads, and reads every row", () => {
    const read = variablesReadBySource();
    const documented = new Set(readmeTable().keys());
    assert.ok(read.size >= 10, `found only ${[...read].join(", ")}`);
    assert.deepEqual([...read].filter((n) => !documented.has(n)).sort(), [], "read, not in README");
    assert.deepEqual(
      [...documented].filter((n) => !read.has(n)).sort(),
      [],
      "in README, never read",
    );
  });

  it("gives the code's defaults", () => {
    const table = readmeTable();
    const expected: Record<string, string | number> = {
      PORT: CONFIG_DEFAULTS.port,
      HOST: CONFIG_DEFAULTS.host,
      DATABASE_URL: CONFIG_DEFAULTS.databaseUrl,
      LOG_LEVEL: CONFIG_DEFAULTS.logLevel,
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: CONFIG_DEFAULTS.rateLimitAnonymousPerMinute,
      RATE_LIMIT_KEY_PER_MINUTE: CONFIG_DEFAULTS.rateLimitKeyPerMinute,
      ROUTER_SLIPPAGE_BPS: CONFIG_DEFAULTS.routerSlippageBps,
      ROUTER_MAX_STATE_AGE_MS: CONFIG_DEFAULTS.routerMaxStateAgeMs,
      LIST_CACHE_MB: CONFIG_DEFAULTS.listCacheMb,
      TRUST_PROXY: String(CONFIG_DEFAULTS.trustProxy),
    };
    for (const [name, value] of Object.entries(expected)) {
      assert.equal(table.get(name), `\`${value}\``, `README default of ${name}`);
    }
  });
});
