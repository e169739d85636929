import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { hashApiKey } from "../keys/api-key.js";
import { openApiKeyRepository } from "../store/api-key-store.js";
import { createStore } from "../store/index.js";
import { DEMO_KEY_FILE, demoKey } from "./demo-key.js";

describe("start: the demo key", () => {
  let dir: string;
  let stateDir: string;
  let databaseUrl: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-demo-key-"));
    stateDir = join(dir, "devnet", "state");
    databaseUrl = await migrated("db.sqlite");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function migrated(name: string): Promise<string> {
    const url = join(dir, name);
    await (await createStore({ databaseUrl: url })).close();
    return url;
  }

  async function activeDemoHashes(url: string): Promise<string[]> {
    const repository = await openApiKeyRepository({ databaseUrl: url, migrate: false });
    try {
      return (await repository.listKeys())
        .filter((key) => key.name === "demo" && key.revokedAt === null)
        .map((key) => key.hash);
    } finally {
      await repository.close();
    }
  }

  const file = () => join(stateDir, DEMO_KEY_FILE);

  it("default: the first start makes a key, saves it readable by its owner alone, and the next start prints the same", async () => {
    const first = await demoKey({ databaseUrl, stateDir });
    assert.equal(first.kept, false);
    assert.equal((await readFile(file(), "utf8")).trim(), first.key);
    assert.equal((await stat(file())).mode & 0o777, 0o600);
    const second = await demoKey({ databaseUrl, stateDir });
    assert.deepEqual(second, { key: first.key, kept: true });
    assert.deepEqual(await activeDemoHashes(databaseUrl), [hashApiKey(first.key)]);
  });

  it("behavior: --new-demo-key revokes the saved key and saves a new one", async () => {
    const old = await demoKey({ databaseUrl, stateDir });
    const renewed = await demoKey({ databaseUrl, stateDir, renew: true });
    assert.equal(renewed.kept, false);
    assert.notEqual(renewed.key, old.key);
    assert.equal((await readFile(file(), "utf8")).trim(), renewed.key);
    assert.deepEqual(await activeDemoHashes(databaseUrl), [hashApiKey(renewed.key)]);
    assert.deepEqual(await demoKey({ databaseUrl, stateDir }), { key: renewed.key, kept: true });
  });

  it("behavior: a saved key the database does not know (another database) or has revoked is replaced", async () => {
    const saved = (await demoKey({ databaseUrl, stateDir })).key;
    const other = await migrated("other.sqlite");
    const onOther = await demoKey({ databaseUrl: other, stateDir });
    assert.equal(onOther.kept, false);
    assert.notEqual(onOther.key, saved);
    assert.deepEqual(await activeDemoHashes(other), [hashApiKey(onOther.key)]);

    const repository = await openApiKeyRepository({ databaseUrl: other, migrate: false });
    try {
      const [key] = (await repository.listKeys()).filter((k) => k.revokedAt === null);
      assert.ok(key !== undefined);
      await repository.revokeKey(key.id, new Date());
    } finally {
      await repository.close();
    }
    const afterRevoke = await demoKey({ databaseUrl: other, stateDir });
    assert.equal(afterRevoke.kept, false);
    assert.notEqual(afterRevoke.key, onOther.key);
  });

  it("behavior: a saved file with looser permissions or a garbled key is set right", async () => {
    const { key } = await demoKey({ databaseUrl, stateDir });
    await chmod(file(), 0o644);
    assert.deepEqual(await demoKey({ databaseUrl, stateDir }), { key, kept: true });
    assert.equal((await stat(file())).mode & 0o777, 0o600);
    await writeFile(file(), "not a key\n");
    const replaced = await demoKey({ databaseUrl, stateDir });
    assert.equal(replaced.kept, false);
    assert.deepEqual(await activeDemoHashes(databaseUrl), [hashApiKey(replaced.key)]);
  });
});
