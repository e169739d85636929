import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { hashApiKey, isWellFormedApiKey } from "../../src/keys/api-key.js";
import { openDatabase } from "../../src/store/index.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { runKeys, runKeysWithEnv } from "./cli-io.js";

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`keys CLI on ${backend}`, () => {
    let db: IsolatedDatabase;
    before(async () => {
      db = await setupIsolatedDatabase(backend);
    });
    after(() => db.cleanup());

    it("default: create prints the key alone on the last line and stores only its hash", async () => {
      const created = await runKeys(db.databaseUrl, "create", "--name", "alice");
      assert.equal(created.code, 0, created.stderr);
      assert.ok(isWellFormedApiKey(created.lastLine), `last line: ${created.lastLine}`);
      assert.match(created.stdout, /only time the key is shown/);
      const database = await openDatabase(db.databaseUrl);
      const repository = database.apiKeys;
      try {
        const [stored] = await repository.listKeys();
        assert.equal(stored?.name, "alice");
        assert.equal(stored?.hash, hashApiKey(created.lastLine));
        assert.equal(stored?.prefix, created.lastLine.slice(0, 11));
        assert.equal(stored?.lastUsedAt, null);
        assert.equal(stored?.revokedAt, null);
        assert.ok(
          !JSON.stringify(stored).includes(created.lastLine),
          "the key itself is not stored",
        );
      } finally {
        await database.close();
      }
    });

    it("behavior: a bad setting keys do not use (PORT) does not stop them; a bad DATABASE_URL does", async () => {
      const listed = await runKeysWithEnv({ DATABASE_URL: db.databaseUrl, PORT: "abc" }, "list");
      assert.equal(listed.code, 0, listed.stderr);
      const bad = await runKeysWithEnv({ DATABASE_URL: "mysql://x/y" }, "list");
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /^configuration error: DATABASE_URL must be/);
    });

    it("behavior: list shows name, prefix, creation, last use and status", async () => {
      const listed = await runKeys(db.databaseUrl, "list");
      assert.equal(listed.code, 0);
      const lines = listed.stdout.trimEnd().split("\n");
      assert.match(
        lines[0] ?? "",
        /^NAME\s+PREFIX\s+CREATED \(UTC\)\s+LAST USED \(UTC\)\s+STATUS$/,
      );
      assert.match(
        lines[1] ?? "",
        /^alice\s+bo_[A-Za-z0-9_-]{8}\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+never\s+active$/,
      );
    });

    it("error: a second active key with the same name is refused", async () => {
      const again = await runKeys(db.databaseUrl, "create", "--name", "alice");
      assert.equal(again.code, 1);
      assert.match(again.stderr, /an active key named 'alice' already exists/);
      assert.equal(again.stdout, "");
    });

    it("error: an ambiguous prefix lists the matches and revokes nothing", async () => {
      assert.equal((await runKeys(db.databaseUrl, "create", "--name", "bob")).code, 0);
      const ambiguous = await runKeys(db.databaseUrl, "revoke", "bo_");
      assert.equal(ambiguous.code, 1);
      assert.match(ambiguous.stderr, /matches 2 active keys/);
      assert.match(ambiguous.stderr, /alice\s+bo_/);
      assert.match(ambiguous.stderr, /bob\s+bo_/);
      assert.doesNotMatch((await runKeys(db.databaseUrl, "list")).stdout, /revoked/);
    });

    it("behavior: revoke by prefix, then the name can be issued again", async () => {
      const listed = await runKeys(db.databaseUrl, "list");
      const prefix = /^bob\s+(bo_\S+)/m.exec(listed.stdout)?.[1];
      assert.ok(prefix !== undefined, "prefix !== undefined");
      const revoked = await runKeys(db.databaseUrl, "revoke", prefix);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.match(revoked.stdout, /Revoked API key 'bob'/);
      assert.match(
        (await runKeys(db.databaseUrl, "list")).stdout,
        /^bob\s+\S+\s+.*revoked \d{4}-/m,
      );
      const again = await runKeys(db.databaseUrl, "revoke", prefix);
      assert.equal(again.code, 0);
      assert.match(again.stdout, /already revoked/);
      assert.equal((await runKeys(db.databaseUrl, "create", "--name", "bob")).code, 0);
    });

    it("behavior: revoke by name and by the whole key", async () => {
      const carol = await runKeys(db.databaseUrl, "create", "--name", "carol");
      const byKey = await runKeys(db.databaseUrl, "revoke", carol.lastLine);
      assert.equal(byKey.code, 0, byKey.stderr);
      assert.match(byKey.stdout, /Revoked API key 'carol'/);
      const byName = await runKeys(db.databaseUrl, "revoke", "alice");
      assert.equal(byName.code, 0, byName.stderr);
      assert.match(byName.stdout, /Revoked API key 'alice'/);
    });

    it("error: unknown targets, bad names and bad usage exit 1 with a message", async () => {
      const unknown = await runKeys(db.databaseUrl, "revoke", "nobody");
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no API key has the name or prefix 'nobody'/);
      const badName = await runKeys(db.databaseUrl, "create", "--name", "two words");
      assert.equal(badName.code, 1);
      assert.match(badName.stderr, /invalid key name 'two words'/);
      const noName = await runKeys(db.databaseUrl, "create");
      assert.equal(noName.code, 1);
      assert.match(noName.stderr, /needs --name NAME/);
      const unknownCommand = await runKeys(db.databaseUrl, "rotate");
      assert.equal(unknownCommand.code, 1);
      assert.match(unknownCommand.stderr, /unknown keys command 'rotate'/);
    });
  });
}

describe("keys CLI configuration", () => {
  it("error: an unreachable database exits 1 naming it without its password", async () => {
    const result = await runKeys("postgres://app:s3cret@127.0.0.1:1/none", "list");
    assert.equal(result.code, 1);
    assert.match(result.stderr, /cannot open the database postgres:\/\/app:\*\*\*@127\.0\.0\.1:1/);
    assert.doesNotMatch(result.stderr, /s3cret/);
  });

  it("error: a bad DATABASE_URL is a configuration error", async () => {
    const result = await runKeys("mysql://x/y", "list");
    assert.equal(result.code, 1);
    assert.match(result.stderr, /configuration error: DATABASE_URL/);
  });
});

describe("keys CLI on a SQLite path with no database", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-keys-missing-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("error: list and revoke refuse it, naming DATABASE_URL, and create nothing", async () => {
    const missing = join(dir, "elsewhere.db");
    for (const args of [["list"], ["revoke", "alice"]]) {
      const answer = await runKeys(missing, ...args);
      assert.equal(answer.code, 1, args.join(" "));
      assert.match(
        answer.stderr,
        /^no database at .*elsewhere\.db \(DATABASE_URL\): nothing is there/,
      );
      assert.equal(existsSync(missing), false, "database file created");
    }
  });

  it("behavior: create makes it, and says so on stderr", async () => {
    const fresh = join(dir, "fresh.db");
    const created = await runKeys(fresh, "create", "--name", "first");
    assert.equal(created.code, 0, created.stderr);
    assert.match(created.stderr, /^no database at .*fresh\.db yet \(DATABASE_URL\): creating it/);
    assert.equal(existsSync(fresh), true, "database file created");
  });
});
