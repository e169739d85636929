/**
 * How the tests' child processes start (bench/ts-entry.ts): from the bundle scripts/run-tests.mjs
 * built for their entry when there is one, else through tsx.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { tsEntryArgs } from "../../bench/ts-entry.js";

const ROOT = resolve(import.meta.dirname, "..", "..");
const ENTRY = join(ROOT, "test", "start", "cli-entry.ts");

describe("bench: TypeScript entries of child processes", () => {
  let dir: string;
  const saved = process.env.TS_ENTRY_BUNDLES;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-ts-entry-"));
    await mkdir(join(dir, "test", "start"), { recursive: true });
    await writeFile(join(dir, "test", "start", "cli-entry.mjs"), "");
  });
  after(async () => {
    if (saved === undefined) delete process.env.TS_ENTRY_BUNDLES;
    else process.env.TS_ENTRY_BUNDLES = saved;
    await rm(dir, { recursive: true, force: true });
  });

  it("default: an entry with a bundle in TS_ENTRY_BUNDLES runs from it, without tsx", () => {
    process.env.TS_ENTRY_BUNDLES = dir;
    assert.deepEqual(tsEntryArgs(ENTRY), [
      "--enable-source-maps",
      join(dir, "test", "start", "cli-entry.mjs"),
    ]);
  });

  it("behavior: an entry without a bundle, or no TS_ENTRY_BUNDLES, runs through tsx", () => {
    process.env.TS_ENTRY_BUNDLES = dir;
    const other = join(ROOT, "test", "indexer", "index-child.ts");
    assert.deepEqual(tsEntryArgs(other), ["--import", "tsx", other]);
    delete process.env.TS_ENTRY_BUNDLES;
    assert.deepEqual(tsEntryArgs(ENTRY), ["--import", "tsx", ENTRY]);
  });
});
