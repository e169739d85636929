import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { type Database, openDatabase } from "../../src/store/index.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { runKeys } from "./cli-io.js";
import { buildTinyApp } from "./tiny-app.js";

/** Milliseconds until `check` first holds, polling every 25 ms; fails after `limitMs`. */
async function timeUntil(check: () => Promise<boolean>, limitMs: number): Promise<number> {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    const elapsed = performance.now() - start;
    if (elapsed > limitMs) assert.fail(`condition still false after ${Math.round(elapsed)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`key changes from the CLI reach a running app on ${backend}`, () => {
    let db: IsolatedDatabase;
    let store: Database;
    let app: FastifyInstance;

    before(async () => {
      db = await setupIsolatedDatabase(backend);
      // As `serve` does: the auth plugin reads the keys through the app's database; the CLI
      // opens another one, as a separate process would.
      store = await openDatabase(db.databaseUrl);
      app = await buildTinyApp({
        auth: {
          repository: store.apiKeys,
          subscribe: store.changes.subscribeApiKeys,
          lastUsedFlushIntervalMs: 100,
        },
      });
    });
    after(async () => {
      await app.close();
      await store.close();
      await db.cleanup();
    });

    const statusWith = async (key: string) =>
      (
        await app.inject({
          method: "POST",
          url: "/api/oracle/router",
          headers: { authorization: `Bearer ${key}` },
          payload: {},
        })
      ).statusCode;

    it("default: a created key works within 1 s and a revoked one is refused within 1 s", async () => {
      const created = await runKeys(db.databaseUrl, "create", "--name", "alice");
      assert.equal(created.code, 0, created.stderr);
      const key = created.lastLine;
      await timeUntil(async () => (await statusWith(key)) === 200, 1000);

      const revoked = await runKeys(db.databaseUrl, "revoke", "alice");
      assert.equal(revoked.code, 0, revoked.stderr);
      const ms = await timeUntil(async () => (await statusWith(key)) === 401, 1000);
      assert.ok(ms < 1000, `refused after ${Math.round(ms)} ms`);
      const response = await app.inject({
        method: "POST",
        url: "/api/oracle/router",
        headers: { authorization: key },
        payload: {},
      });
      assert.equal(response.json().code, 40102);
    });

    if (backend === "postgres") {
      it("behavior: with the 500 ms poll out of the way, NOTIFY applies a create or revoke within 500 ms", async () => {
        // A poll once a minute: only the notification can make these changes visible in time.
        const slowPoll = await buildTinyApp({
          auth: {
            repository: store.apiKeys,
            subscribe: store.changes.subscribeApiKeys,
            refreshIntervalMs: 60_000,
          },
        });
        try {
          const status = async (key: string) =>
            (
              await slowPoll.inject({
                method: "POST",
                url: "/api/oracle/router",
                headers: { authorization: key },
                payload: {},
              })
            ).statusCode;
          const created = await runKeys(db.databaseUrl, "create", "--name", "carol");
          assert.equal(created.code, 0, created.stderr);
          const key = created.lastLine;
          await timeUntil(async () => (await status(key)) === 200, 500);
          const revoked = await runKeys(db.databaseUrl, "revoke", "carol");
          assert.equal(revoked.code, 0, revoked.stderr);
          const ms = await timeUntil(async () => (await status(key)) === 401, 500);
          assert.ok(ms < 500, `refused after ${Math.round(ms)} ms`);
        } finally {
          await slowPoll.close();
        }
      });
    }

    it("behavior: uses are written to last_used_at in the background", async () => {
      const created = await runKeys(db.databaseUrl, "create", "--name", "bob");
      await timeUntil(async () => (await statusWith(created.lastLine)) === 200, 1000);
      await timeUntil(async () => {
        const listed = await runKeys(db.databaseUrl, "list");
        return /^bob\s+\S+\s+\S+ \S+\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+active$/m.test(
          listed.stdout,
        );
      }, 2000);
    });
  });
}
