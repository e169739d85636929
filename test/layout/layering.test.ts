/**
 * The layering docs/architecture.md sets, checked on every relative import under src/: the API and
 * the indexer share only the store ("api/ never imports indexer/; both go through store/"), the
 * store holds tables and their SQL and knows neither of its users, and the router is pure (its
 * state comes in through provider interfaces). The domain (bridge kinds, the chain/token/bridge
 * registry) is what every folder shares and depends on nothing of ours; the devnet is a tool
 * that depends on the domain, never the reverse, so the service's folders never import it.
 * Entry points (cli/) import anything; nothing imports them.
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";

const SRC = resolve(import.meta.dirname, "..", "..", "src");

/** Folder under src/ -> folders under src/ it must never import. */
const FORBIDDEN: Record<string, readonly string[]> = {
  api: ["indexer", "cli", "devnet"],
  store: ["indexer", "api", "cli", "router", "devnet"],
  router: ["api", "store", "indexer", "cli", "devnet"],
  indexer: ["api", "cli", "devnet"],
  chain: ["api", "store", "indexer", "router", "cli"],
  protocols: ["api", "indexer", "router", "devnet", "store", "cli"],
};

/** Folder under src/ -> the only entries of src/ it may import (besides itself). */
const ONLY: Record<string, readonly string[]> = {
  domain: ["amount.ts"],
};

/** Why `own` must not import `folder`, or undefined when it may. */
export function violation(own: string, folder: string): string | undefined {
  if (folder === own || own === "cli") return undefined;
  const only = ONLY[own];
  if (only !== undefined) {
    return only.includes(folder) ? undefined : `${own}/ imports nothing of ours but itself`;
  }
  return [...(FORBIDDEN[own] ?? []), "cli"].includes(folder)
    ? `${own}/ must not import ${folder}/`
    : undefined;
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
    const folder = target.split("/")[0]!;
    if (!target.startsWith("..")) found.push({ spec, folder });
  }
  return found;
}

describe("layering (docs/architecture.md)", () => {
  it("behavior: no folder imports one it must not", async () => {
    const violations: string[] = [];
    for (const file of await sourceFiles(SRC)) {
      const own = relative(SRC, file).split("/")[0]!;
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
    assert.equal(violation("domain", "devnet"), "domain/ imports nothing of ours but itself");
    assert.equal(violation("domain", "store"), "domain/ imports nothing of ours but itself");
    assert.equal(violation("domain", "amount.ts"), undefined);
    assert.equal(violation("domain", "domain"), undefined);
  });
});
