/**
 * The layering docs/architecture.md sets, checked on every relative import under src/: each
 * folder (and top-level file) of src/ names what it may import, so an arrow that runs up, into a
 * folder not listed, fails. In short: the domain (the record, bridge events, the registry) and
 * chain/ sit at the bottom; protocols/ (one folder per bridge protocol) builds on them only and
 * is imported by the indexer, the router, the API and the devnet, never the reverse; the store
 * knows neither of its users; the API and the indexer share only the store; the router is pure;
 * the devnet is a tool nothing of the service imports; web/ (the explorer, bundled for the
 * browser) uses the domain and the client package's generated API types. Entry points (cli/)
 * import anything; nothing imports them.
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";

const SRC = resolve(import.meta.dirname, "..", "..", "src");

/** The top-level files every folder may use (pure helpers that import nothing of ours). */
const BASE = [
  "amount.ts",
  "errors.ts",
  "repeated-json-member.ts",
  "stop-signals.ts",
  "node-flags.ts",
  "backoff.ts",
  "sleep.ts",
  "redact-url.ts",
  "secret-box.ts",
];

/** Folder (or top-level file) under src/ -> what of src/ it may import besides itself. */
const ALLOWED: Record<string, readonly string[]> = {
  "amount.ts": [],
  "errors.ts": [],
  "repeated-json-member.ts": [],
  "stop-signals.ts": [],
  "node-flags.ts": [],
  "backoff.ts": [],
  "sleep.ts": [],
  "redact-url.ts": [],
  "secret-box.ts": [],
  "json-logger.ts": ["config", "redact-url.ts"],
  domain: ["amount.ts", "redact-url.ts"],
  chain: BASE,
  protocols: [...BASE, "domain", "chain"],
  config: [...BASE, "domain", "chain"],
  // check-config's checks: a configuration against its chains, each protocol's own included.
  "config-check": [...BASE, "domain", "chain", "protocols", "config"],
  store: [...BASE, "domain", "chain", "config"],
  router: [...BASE, "domain", "chain", "protocols"],
  indexer: [...BASE, "domain", "chain", "protocols", "config", "store"],
  keys: [...BASE, "domain", "config", "store"],
  transfers: [...BASE, "domain", "chain", "store"],
  webhooks: [...BASE, "domain", "chain", "config", "store"],
  web: [...BASE, "domain"],
  // web/: only its build script (routes/explorer.ts bundles the page in development).
  api: [
    ...BASE,
    "domain",
    "chain",
    "protocols",
    "config",
    "store",
    "router",
    "keys",
    "webhooks",
    "web",
    "json-logger.ts",
  ],
  // router/: its pure Uniswap V3 math seeds the devnet's positions (deploy-uniswap-v3.ts).
  devnet: [...BASE, "domain", "chain", "protocols", "transfers", "router"],
  start: [...BASE, "domain", "chain", "config", "store", "indexer", "keys", "devnet"],
};

/** Why `own` must not import `folder`, or undefined when it may. */
export function violation(own: string, folder: string): string | undefined {
  if (folder === own || own === "cli") return undefined;
  const allowed = ALLOWED[own];
  if (allowed === undefined) return `${own}/ is not in the layering (test/layout/layering.test.ts)`;
  return allowed.includes(folder) ? undefined : `${own}/ must not import ${folder}/`;
}

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(path);
      return Promise.resolve(/\.ts$/.test(entry.name) ? [path] : []);
    }),
  );
  return files.flat();
}

/** The top-level src/ folder of each relative import in `file` (static and dynamic). */
function importedFolders(file: string, text: string): { spec: string; folder: string }[] {
  const found: { spec: string; folder: string }[] = [];
  for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g)) {
    const spec = match[1]!;
    const target = relative(SRC, resolve(dirname(file), spec));
    // A top-level module is named by its source file (imports spell it ".js").
    const folder = target.split("/")[0]!.replace(/\.js$/, ".ts");
    if (!target.startsWith("..")) found.push({ spec, folder });
  }
  return found;
}

describe("layering (docs/architecture.md)", () => {
  it("behavior: no folder imports one it must not", async () => {
    const violations: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      const own = relative(SRC, file)
        .split("/")[0]!
        .replace(/\.test\.ts$/, ".ts");
      const text = await readFile(file, "utf8");
      for (const { spec, folder } of importedFolders(file, text)) {
        const why = violation(own, folder);
        if (why !== undefined) violations.push(`${relative(SRC, file)} imports ${spec} (${why})`);
      }
    }
    assert.deepEqual(violations, []);
  });

  it("error: the check sees a forbidden import (store/ importing indexer/)", () => {
    const file = join(SRC, "store", "example.ts");
    assert.deepEqual(importedFolders(file, 'import type { X } from "../indexer/x.js";'), [
      { spec: "../indexer/x.js", folder: "indexer" },
    ]);
    assert.equal(violation("store", "indexer"), "store/ must not import indexer/");
  });

  it("error: the service's folders must not import devnet/; domain/ imports nothing of ours", () => {
    for (const own of ["store", "router", "indexer", "api"]) {
      assert.equal(violation(own, "devnet"), `${own}/ must not import devnet/`);
    }
    assert.equal(violation("devnet", "domain"), undefined);
    assert.equal(violation("domain", "devnet"), "domain/ must not import devnet/");
    assert.equal(violation("domain", "store"), "domain/ must not import store/");
    assert.equal(violation("domain", "amount.ts"), undefined);
    assert.equal(violation("domain", "redact-url.ts"), undefined);
    assert.equal(violation("domain", "domain"), undefined);
  });

  it("error: protocols/ imports none of its users; they import it", () => {
    for (const user of ["indexer", "router", "api", "devnet", "store"]) {
      assert.equal(violation("protocols", user), `protocols/ must not import ${user}/`);
      assert.equal(violation(user === "store" ? "indexer" : user, "protocols"), undefined);
    }
  });

  it("behavior: every folder and top-level file of src/ has its rule", async () => {
    const entries = await readdir(SRC, { withFileTypes: true });
    const missing = entries
      .map((e) => e.name)
      .filter((name) => name !== "cli" && !name.endsWith(".test.ts") && !(name in ALLOWED));
    assert.deepEqual(missing, []);
  });
});
