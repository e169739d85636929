/**
 * The client package depends on nothing of the server: its sources import only each other and
 * viem (a peer dependency), and it has no runtime dependency at all. What `npm pack` puts in its
 * tarball is checked by readme-snippet.test.ts, which installs that tarball.
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";

const PACKAGE_DIR = join(import.meta.dirname, "..", "..", "packages", "client");

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name));
}

describe("client package", () => {
  it("behavior: no runtime dependency; viem is a peer", async () => {
    const manifest = JSON.parse(await readFile(join(PACKAGE_DIR, "package.json"), "utf8"));
    assert.equal(manifest.dependencies, undefined);
    assert.deepEqual(Object.keys(manifest.peerDependencies), ["viem"]);
    assert.equal(manifest.type, "module");
  });

  it("behavior: its sources import only each other and viem (nothing of the server)", async () => {
    const offending: string[] = [];
    for (const file of await sourceFiles(join(PACKAGE_DIR, "src"))) {
      const text = await readFile(file, "utf8");
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
        const spec = match[1]!;
        const ok = spec === "viem" || spec.startsWith("viem/") || /^\.\/[^.]/.test(spec);
        if (!ok) offending.push(`${file}: ${spec}`);
      }
    }
    assert.deepEqual(offending, []);
  });
});
