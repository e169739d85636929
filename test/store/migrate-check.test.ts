/**
 * openDatabase({ migrate: false }), for commands that only read (`index --status`): it refuses a
 * database that lacks a migration, and changes nothing in it, on both backends.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { openDatabase } from "../../src/store/index.js";
import { MIGRATIONS } from "../../src/store/migrations/index.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`openDatabase without migrating (${backend})`, () => {
    let db: IsolatedDatabase;
    before(async () => {
      db = await setupIsolatedDatabase(backend);
    });
    after(async () => {
      await db?.cleanup();
    });

    it("error: an unmigrated database is refused, saying so", async () => {
      const refused = new RegExp(
        `^(cannot prepare PostgreSQL at .*: )?the database is not migrated to this version of bridge-oracle \\(0 of ${MIGRATIONS.length} migrations applied\\)`,
      );
      await assert.rejects(openDatabase(db.databaseUrl, { migrate: false }), (error: Error) => {
        assert.match(error.message, refused);
        return true;
      });
      // The next test reads a migrated one.
      const migrating = await openDatabase(db.databaseUrl);
      await migrating.close();
    });

    it("default: a migrated database opens and reads", async () => {
      const store = await openDatabase(db.databaseUrl, { migrate: false });
      try {
        assert.deepEqual(await store.indexer.getIndexerStatus(), []);
      } finally {
        await store.close();
      }
    });
  });
}
