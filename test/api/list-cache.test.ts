/**
 * The list endpoint's response cache (src/api/response-cache.ts) over a real SQLite store: cached
 * answers are byte-identical to fresh ones, and no write is ever hidden longer than the store's
 * change visibility: writes through the API's own store show at once, writes by another
 * connection or process within changeVisibilityMs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import fc from "fast-check";
import pg from "pg";
import { createResponseCache } from "../../src/api/response-cache.js";
import { loadConfig } from "../../src/config/env.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { eventually } from "../setup/eventually.js";
import { makeProcessingTransfer, makeTransfer } from "../setup/transfer-fixtures.js";
import { buildTestApp } from "./setup.js";

const LIST = "/api/oracle/bridge-transactions";

describe("response cache (unit)", () => {
  it("behavior: an entry is served only while the counter it was read at is current", () => {
    const cache = createResponseCache({ maxChars: 1000 });
    assert.equal(cache.get("a", 1), undefined);
    cache.set("a", 1, "A1");
    assert.equal(cache.get("a", 1), "A1");
    assert.equal(cache.get("a", 2), undefined, "the counter moved: everything is stale");
    assert.equal(cache.get("a", 1), undefined, "and stays gone");
    // Read at 1 but stored after the counter moved to 2: never served.
    cache.get("b", 2);
    cache.set("b", 1, "B1");
    assert.equal(cache.get("b", 2), undefined);
    assert.equal(cache.get("b", 1), undefined);
  });

  it("boundary: the total size stays within maxChars, oldest entries evicted first", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "d", "e"), fc.nat(40), fc.boolean()), {
          maxLength: 80,
        }),
        (steps) => {
          const cache = createResponseCache({ maxChars: 100, maxEntryChars: 40 });
          const model = new Map<string, string>();
          for (const [key, length, isGet] of steps) {
            if (isGet) {
              const got = cache.get(key, 7);
              assert.equal(got, model.get(key));
            } else {
              const text = key.repeat(length);
              cache.get(key, 7);
              cache.set(key, 7, text);
              if (key.length + text.length <= 40) {
                model.delete(key);
                model.set(key, text);
                // Keys count as well as texts.
                let total = [...model].reduce((n, [k, t]) => n + k.length + t.length, 0);
                for (const [k, t] of model) {
                  if (total <= 100) break;
                  model.delete(k);
                  total -= k.length + t.length;
                }
              }
            }
            const stats = cache.stats();
            assert.ok(stats.chars <= 100, "stats.chars <= 100");
            assert.equal(stats.entries, model.size);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it("boundary: entries over maxEntryChars (long keys too) and a 0 budget are never cached", () => {
    const small = createResponseCache({ maxChars: 100, maxEntryChars: 10 });
    small.get("k", 1);
    small.set("k", 1, "x".repeat(10));
    assert.equal(small.get("k", 1), undefined);
    // A URL padded with ignored parameters counts against the budget like a long answer.
    const longKey = `k${"&pad=1".repeat(5)}`;
    small.set(longKey, 1, "x");
    assert.equal(small.get(longKey, 1), undefined);
    small.set("k", 1, "x".repeat(9));
    assert.equal(small.get("k", 1), "x".repeat(9));
    const off = createResponseCache({ maxChars: 0 });
    off.get("k", 1);
    off.set("k", 1, "x");
    assert.equal(off.get("k", 1), undefined);
  });
});

/** A write by a connection that is not the store's (no store code at all). */
async function rawUpdate(db: IsolatedDatabase, sql: string, messageId: string): Promise<void> {
  if (db.backend === "sqlite") {
    const raw = new Database(db.databaseUrl);
    try {
      raw.prepare(sql.replace("$1", "?")).run(messageId);
    } finally {
      raw.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: db.databaseUrl });
  await client.connect();
  try {
    await client.query(sql, [messageId]);
  } finally {
    await client.end();
  }
}

for (const backend of ["sqlite", "postgres"] as const)
  describe(`list endpoint with the response cache (${backend})`, () => {
    let db: IsolatedDatabase;
    let store: Store;
    const alice = makeTransfer();
    const url = `${LIST}?addressOrTxHash=${alice.from_address}&pageNo=1&pageSize=10`;
    const hashUrl = `${LIST}?addressOrTxHash=${alice.source_tx_hash}&pageNo=1&pageSize=10`;

    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await createStore({ databaseUrl: db.databaseUrl });
      await store.transfers.upsertTransfers([alice]);
    });
    after(async () => {
      await store.close();
      await db.cleanup();
    });

    async function withApp(
      env: Record<string, string>,
      fn: (app: Awaited<ReturnType<typeof buildTestApp>>["app"]) => Promise<void>,
    ) {
      const { app } = await buildTestApp(store, {
        config: loadConfig({ LOG_LEVEL: "warn", ...env }),
      });
      try {
        await fn(app);
      } finally {
        await app.close();
      }
    }

    it("default: a cached answer is byte-identical to a fresh one, headers included", async () => {
      await withApp({}, async (cached) => {
        await withApp({ LIST_CACHE_MB: "0" }, async (fresh) => {
          for (const path of [url, hashUrl, `${url}&sortName=sendAmount&sortOrder=ASC`]) {
            const first = await cached.inject({ url: path });
            const second = await cached.inject({ url: path });
            const uncached = await fresh.inject({ url: path });
            assert.equal(first.statusCode, 200, first.body);
            assert.equal(second.body, first.body);
            assert.equal(uncached.body, first.body);
            assert.equal(second.headers["content-type"], uncached.headers["content-type"]);
            assert.equal(second.headers["content-length"], uncached.headers["content-length"]);
          }
        });
      });
    });

    it("behavior: a write through the API's own store shows at once", async () => {
      await withApp({}, async (app) => {
        assert.equal((await app.inject({ url })).json().data.total, 1);
        await store.transfers.upsertTransfers([makeTransfer({ from_address: alice.from_address })]);
        assert.equal((await app.inject({ url })).json().data.total, 2);
        const updated = { ...alice, status: "Failed" as const, updated_at: "2026-06-01 00:00:00" };
        await store.transfers.upsertTransfers([updated]);
        const hash = (await app.inject({ url: hashUrl })).json().data;
        assert.equal(hash.data[0].status, "Failed");
      });
    });

    it("behavior: a write by another connection or process shows within its visibility bound", async () => {
      // SQLite: the polling interval of PRAGMA data_version; PostgreSQL: the NOTIFY round trip.
      const bound = store.changeVisibilityMs ?? 2000;
      assert.ok(bound <= 2000, "bound <= 2000");
      await withApp({}, async (app) => {
        // Until the store can tell changes apart, nothing is cached (PostgreSQL: LISTEN pending).
        await eventually(2000, async () => assert.notEqual(store.changeCounter?.(), undefined));
        const before = (await app.inject({ url })).json().data.total as number;
        assert.equal((await app.inject({ url })).json().data.total, before); // cached now
        // Another store (as the indexer's connection, or another process) adds a transfer.
        const other = await createStore({ databaseUrl: db.databaseUrl });
        try {
          const pending = makeProcessingTransfer({ from_address: alice.from_address });
          await other.transfers.upsertTransfers([pending]);
        } finally {
          await other.close();
        }
        await eventually(bound + 50, async () => {
          assert.equal((await app.inject({ url })).json().data.total, before + 1);
        });
        // And a raw connection's write (no store code at all) too.
        await rawUpdate(
          db,
          "UPDATE transfers SET status = 'Failed' WHERE message_id = $1",
          alice.message_id,
        );
        await eventually(bound + 50, async () => {
          assert.equal((await app.inject({ url: hashUrl })).json().data.data[0].status, "Failed");
        });
      });
    });

    it("error: bad queries are answered 400 every time, never from the cache", async () => {
      await withApp({}, async (app) => {
        for (let i = 0; i < 2; i++) {
          const response = await app.inject({
            url: `${LIST}?addressOrTxHash=${alice.from_address}&pageNo=0`,
          });
          assert.equal(response.statusCode, 400);
          assert.equal(response.json().code, 40001);
        }
      });
    });
  });
