import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import type { DevnetManifest } from "./manifest.js";
import { devnetDir, readManifest, writeManifest } from "./write-manifest.js";

const manifest = {
  version: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  chains: [],
  links: [],
} as unknown as DevnetManifest;

describe("writeManifest", async () => {
  const root = await mkdtemp(join(tmpdir(), "manifest-"));
  after(() => rm(root, { recursive: true, force: true }));

  it("default: writes manifest.json that reads back equal, leaving no temporary file", async () => {
    const dir = join(root, "nested", ".devnet");
    const path = await writeManifest(manifest, dir);
    assert.equal(path, join(dir, "manifest.json"));
    assert.deepEqual(await readManifest(dir), manifest);
    assert.deepEqual(await readdir(dir), ["manifest.json"]);
    assert.equal((await stat(path)).mode & 0o777, 0o600);
  });

  it("behavior: a second write replaces the first", async () => {
    const dir = join(root, "again");
    await writeManifest(manifest, dir);
    await writeManifest({ ...manifest, createdAt: "later" }, dir);
    assert.equal((await readManifest(join(dir, "manifest.json"))).createdAt, "later");
  });

  it("error: a file that is not a manifest is rejected", async () => {
    const dir = join(root, "bad");
    await writeManifest({ version: 2 } as unknown as DevnetManifest, dir);
    await assert.rejects(readManifest(dir), /not a devnet manifest/);
  });
});

describe("devnetDir", () => {
  it("default: .devnet in the working directory", () => {
    assert.equal(devnetDir({}), resolve(".devnet"));
  });
  it("behavior: DEVNET_DIR overrides it", () => {
    assert.equal(devnetDir({ DEVNET_DIR: "/tmp/x" }), "/tmp/x");
  });
});
