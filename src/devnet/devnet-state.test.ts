import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  chainStatePath,
  type DevnetStateMeta,
  discardState,
  planRestore,
  writeStateMeta,
} from "./devnet-state.js";
import type { DevnetManifest } from "./manifest.js";
import { writeManifest } from "./write-manifest.js";

const NAMES = ["alpha", "beta"] as const;

function manifestOf(createdAt: string): DevnetManifest {
  return {
    version: 1,
    createdAt,
    chains: NAMES.map((name, i) => ({ name, chainId: 71001 + i, rpcUrl: "", deployBlock: 1 })),
    links: [],
    accounts: [],
  } as unknown as DevnetManifest;
}

const META: DevnetStateMeta = {
  version: 1,
  manifestCreatedAt: "2026-01-01T00:00:00.000Z",
  chains: NAMES.map((name, i) => ({
    name,
    chainId: 71001 + i,
    deployBlock: 1,
    deployBlockHash: "0xabc",
  })),
};

describe("planRestore", () => {
  let dir: string;
  let stateDir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "devnet-state-"));
    stateDir = join(dir, "state");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function saveAll(): Promise<void> {
    await writeManifest(manifestOf(META.manifestCreatedAt), dir);
    await writeStateMeta(stateDir, META);
    for (const name of NAMES) {
      await writeFile(chainStatePath(stateDir, name), JSON.stringify({ blocks: [] }));
    }
  }

  it("error: nothing saved yet gives a fresh devnet", async () => {
    assert.deepEqual(await planRestore(dir, stateDir, NAMES), {
      restore: false,
      reason: "no saved devnet yet",
    });
  });

  it("default: manifest, meta and every chain's dump restore", async () => {
    await saveAll();
    const plan = await planRestore(dir, stateDir, NAMES);
    assert.equal(plan.restore, true);
  });

  it("behavior: a manifest of another devnet run is not mixed with the dumps", async () => {
    await saveAll();
    await writeManifest(manifestOf("2026-02-02T00:00:00.000Z"), dir);
    const plan = await planRestore(dir, stateDir, NAMES);
    assert.deepEqual(plan, {
      restore: false,
      reason: "manifest.json was replaced by another devnet run",
    });
  });

  it("behavior: another chain count is not restored", async () => {
    await saveAll();
    const plan = await planRestore(dir, stateDir, ["alpha", "beta", "gamma"]);
    assert.equal(plan.restore, false);
  });

  it("error: a truncated or missing chain dump gives a fresh devnet naming the chain", async () => {
    await saveAll();
    await writeFile(chainStatePath(stateDir, "beta"), '{"blocks": [');
    const truncated = await planRestore(dir, stateDir, NAMES);
    assert.equal(truncated.restore, false);
    assert.match((truncated as { reason: string }).reason, /state of chain beta is unreadable/);
    await rm(chainStatePath(stateDir, "beta"));
    const missing = await planRestore(dir, stateDir, NAMES);
    assert.match((missing as { reason: string }).reason, /state of chain beta was never saved/);
  });

  it("behavior: discardState moves the dumps aside and forgets the meta", async () => {
    await saveAll();
    await discardState(stateDir, NAMES);
    for (const name of NAMES) {
      assert.equal(existsSync(chainStatePath(stateDir, name)), false);
      assert.equal(existsSync(`${chainStatePath(stateDir, name)}.discarded`), true);
    }
    assert.equal((await planRestore(dir, stateDir, NAMES)).restore, false);
    await mkdir(stateDir, { recursive: true });
  });
});
