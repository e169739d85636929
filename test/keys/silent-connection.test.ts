/**
 * The API-key cache on PostgreSQL when the network silently drops its connections (open, nothing
 * gets through): its poll must give up on the dead connection and read on a new one, and its
 * listener must count the dead connection as lost and listen again, so a created key still
 * arrives within about a second and closing does not hang.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { generateApiKey } from "../../src/keys/api-key.js";
import { createApiKeyCache } from "../../src/keys/api-key-cache.js";
import { openDatabase } from "../../src/store/index.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { eventually, within } from "../setup/eventually.js";
import { postgresTarget, startTcpProxy } from "../setup/tcp-proxy.js";

describe("API-key cache on PostgreSQL with its connections gone silent", () => {
  let db: IsolatedDatabase;
  before(async () => {
    db = await setupIsolatedDatabase("postgres");
  });
  after(async () => {
    await db.cleanup();
  });

  it("behavior: a key created after every connection went silent still arrives, and closing does not wait for them", async () => {
    // The keys CLI's side, straight to the database (migrates it).
    const cli = await openDatabase(db.databaseUrl);
    const proxy = await startTcpProxy(postgresTarget(db.databaseUrl));
    const warnings: string[] = [];
    const server = await openDatabase(proxy.url(db.databaseUrl), {
      timeouts: { connectMs: 500, queryMs: 300 },
      listenerHeartbeat: { intervalMs: 100, timeoutMs: 200 },
      logger: { info: () => {}, warn: (_fields, message) => warnings.push(message) },
    });
    const cache = createApiKeyCache({
      repository: server.apiKeys,
      subscribe: server.changes.subscribeApiKeys,
      refreshIntervalMs: 100,
    });
    let closing: Promise<void> | undefined;
    const closeCache = () => {
      closing ??= (async () => {
        await cache.close();
        await server.close();
      })();
      return closing;
    };
    try {
      await cache.start();
      const early = generateApiKey();
      await cli.apiKeys.createKey({ name: "early", ...early, createdAt: new Date() });
      await eventually(2000, () => assert.ok(cache.authenticate(early.key), "early key loaded"));

      proxy.freeze(); // the pool's connections and the listening one
      const late = generateApiKey();
      await cli.apiKeys.createKey({ name: "late", ...late, createdAt: new Date() });
      await eventually(3000, () => assert.ok(cache.authenticate(late.key), "late key loaded"));
      await eventually(2000, () =>
        assert.ok(
          warnings.some((w) => /API keys: lost the change notifications/.test(w)),
          `warnings: ${warnings.join("; ")}`,
        ),
      );
      await within(3000, "closing the cache and its repository", closeCache());
    } finally {
      await proxy.close(); // first: a close still waiting on a frozen connection returns
      await closeCache();
      await cli.close();
    }
  });
});
