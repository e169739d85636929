import assert from "node:assert/strict";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { hashApiKey } from "../keys/api-key.js";
import { type Database, openDatabase } from "../store/index.js";
import { DEMO_KEY_FILE, demoKey } from "./demo-key.js";

describe("start: the demo key", () => {
  let dir: string;
  let stateDir: string;
  let database: Database;
  let other: Database | undefined;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-demo-key-"));
    stateDir = join(dir, "devnet", "state");
    database = await openDatabase(join(dir, "db.sqlite"));
  });
  after(async () => {
    await database?.close();
    await other?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function activeDemoHashes(db: Database): Promise<string[]> {
    return (await db.apiKeys.listKeys())
      .filter((key) => key.name === "demo" && key.revokedAt === null)
      .map((key) => key.hash);
  }

  const file = () => join(stateDir, DEMO_KEY_FILE);

  it("default: the first start makes a key, saves it readable by its owner alone, and the next start prints the same", async () => {
    const first = await demoKey({ repository: database.apiKeys, stateDir });
    assert.equal(first.kept, false);
    assert.equal((await readFile(file(), "utf8")).trim(), first.key);
    assert.equal((await stat(file())).mode & 0o777, 0o600);
    const second = await demoKey({ repository: database.apiKeys, stateDir });
    assert.deepEqual(second, { key: first.key, kept: true });
    assert.deepEqual(await activeDemoHashes(database), [hashApiKey(first.key)]);
  });

  it("behavior: --new-demo-key revokes the saved key and saves a new one", async () => {
    const old = await demoKey({ repository: database.apiKeys, stateDir });
    const renewed = await demoKey({ repository: database.apiKeys, stateDir, renew: true });
    assert.equal(renewed.kept, false);
    assert.notEqual(renewed.key, old.key);
    assert.equal((await readFile(file(), "utf8")).trim(), renewed.key);
    assert.deepEqual(await activeDemoHashes(database), [hashApiKey(renewed.key)]);
    assert.deepEqual(await demoKey({ repository: database.apiKeys, stateDir }), {
      key: renewed.key,
      kept: true,
    });
  });

  it("behavior: a saved key the database does not know (another database) or has revoked is replaced", async () => {
    const saved = (await demoKey({ repository: database.apiKeys, stateDir })).key;
    other = await openDatabase(join(dir, "other.sqlite"));
    const onOther = await demoKey({ repository: other.apiKeys, stateDir });
    assert.equal(onOther.kept, false);
    assert.notEqual(onOther.key, saved);
    assert.deepEqual(await activeDemoHashes(other), [hashApiKey(onOther.key)]);

    const [key] = (await other.apiKeys.listKeys()).filter((k) => k.revokedAt === null);
    assert.ok(key !== undefined, "key !== undefined");
    await other.apiKeys.revokeKey(key.id, new Date());
    const afterRevoke = await demoKey({ repository: other.apiKeys, stateDir });
    assert.equal(afterRevoke.kept, false);
    assert.notEqual(afterRevoke.key, onOther.key);
  });

  it("behavior: a saved file with looser permissions or a garbled key is set right", async () => {
    const { key } = await demoKey({ repository: database.apiKeys, stateDir });
    await chmod(file(), 0o644);
    assert.deepEqual(await demoKey({ repository: database.apiKeys, stateDir }), {
      key,
      kept: true,
    });
    assert.equal((await stat(file())).mode & 0o777, 0o600);
    await writeFile(file(), "not a key\n");
    const replaced = await demoKey({ repository: database.apiKeys, stateDir });
    assert.equal(replaced.kept, false);
    assert.deepEqual(await activeDemoHashes(database), [hashApiKey(replaced.key)]);
  });
});
