/**
 * The address lists' indexes and the bulk path (src/store/address-list-indexes.ts,
 * src/store/bulk-load.ts), on both backends: the one definition matches what the migrations
 * create; an import into empty lists builds the sort indexes after its load and leaves the
 * same lists; an import killed mid-load leaves a database whose next open has every index and
 * whose lists are correct; an open during a load neither waits for it nor builds them.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import BetterSqlite from "better-sqlite3";
import pg from "pg";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import {
  ADDRESS_LIST_INDEXES,
  BULK_LOAD_LOCK_CLASS,
} from "../../src/store/address-list-indexes.js";
import { createStore, type Database } from "../../src/store/index.js";
import { SORT_FIELDS, type SortField, type Store } from "../../src/store/types.js";
import { createTransferGenerator } from "../../src/transfers/generate.js";
import { importTransfersFile } from "../../src/transfers/import-file.js";
import { writeJsonl } from "../../src/transfers/write-jsonl.js";
import { type DatabaseBackend, setupIsolatedDatabase } from "../setup/database.js";
import { referenceSort } from "./reference.js";

/** Each list index's definition as the database holds it, normalised by the database. */
async function indexDefinitions(
  backend: DatabaseBackend,
  url: string,
): Promise<Map<string, string>> {
  if (backend === "sqlite") {
    const db = new BetterSqlite(url, { readonly: true });
    try {
      const names = db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'address_transfers'",
        )
        .all() as { name: string }[];
      return new Map(
        names.map(({ name }) => [name, JSON.stringify(db.pragma(`index_xinfo(${name})`))]),
      );
    } finally {
      db.close();
    }
  }
  return withPg(url, async (client) => {
    const { rows } = await client.query<{ indexname: string; indexdef: string }>(
      "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()" +
        " AND tablename = 'address_transfers'",
    );
    return new Map(rows.map((r) => [r.indexname, r.indexdef]));
  });
}

async function withPg<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function withStore<T>(url: string, work: (store: Database) => Promise<T>): Promise<T> {
  const store = await createStore({ databaseUrl: url });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Every sort of `address`'s list, both directions, two pages, against a plain sort. */
async function assertLists(
  store: Store,
  records: readonly BridgeTransaction[],
  address: string,
): Promise<void> {
  const key = address.toLowerCase();
  const mine = records
    .map((record, order) => ({ record, order }))
    .filter(
      ({ record }) =>
        record.from_address.toLowerCase() === key || record.to_address.toLowerCase() === key,
    );
  for (const sortField of SORT_FIELDS) {
    for (const sortOrder of ["asc", "desc"] as const) {
      const expected = referenceSort(mine, sortField, sortOrder).map((r) => r.message_id);
      for (const offset of [0, 150]) {
        const page = await store.transfers.listTransfers({
          match: { kind: "evmAddress", value: key },
          offset,
          limit: 100,
          sortField,
          sortOrder,
        });
        assert.equal(page.total, mine.length, `total of ${sortField}`);
        assert.deepEqual(
          page.items.map((r) => r.message_id),
          expected.slice(offset, offset + 100),
          `${sortField} ${sortOrder} offset ${offset}`,
        );
      }
    }
  }
}

/** The total of `address`'s list (a first page of 10). */
async function listTotal(store: Store, address: string, sortField: SortField): Promise<number> {
  const page = await store.transfers.listTransfers({
    match: { kind: "evmAddress", value: address.toLowerCase() },
    offset: 0,
    limit: 10,
    sortField,
    sortOrder: "desc",
  });
  return page.total;
}

/** Whether an import in another process holds the bulk path's lock (PostgreSQL). */
async function bulkLockHeld(url: string): Promise<boolean> {
  return withPg(url, async (client) => {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted" +
        " AND objsubid = 2 AND classid::bigint = $1" +
        " AND objid::bigint = (hashtext(current_schema())::bigint & 4294967295)",
      [BULK_LOAD_LOCK_CLASS],
    );
    return Number(rows[0]?.n) > 0;
  });
}

/** Whether another connection holds SQLite's write lock (the import's transaction). */
function sqliteWriteLocked(path: string): boolean {
  const db = new BetterSqlite(path, { timeout: 0 });
  try {
    db.exec("BEGIN IMMEDIATE");
    db.exec("ROLLBACK");
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_BUSY") return true;
    throw error;
  } finally {
    db.close();
  }
}

async function waitFor(what: string, condition: () => Promise<boolean>, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

for (const backend of ["sqlite", "postgres"] as DatabaseBackend[]) {
  describe(`address list indexes and the bulk path (${backend})`, () => {
    let dir: string;
    let records: BridgeTransaction[];
    let hot: readonly string[];
    let small: string;
    let large: string;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), "bridge-oracle-bulk-"));
      const generator = createTransferGenerator({ count: 3000, seed: 7 });
      hot = generator.hotAddresses;
      records = [...generator.records()];
      small = join(dir, "small.jsonl");
      await writeJsonl(small, records);
      // Long enough to be killed mid-load.
      large = join(dir, "large.jsonl");
      await writeJsonl(large, createTransferGenerator({ count: 30_000, seed: 8 }).records());
    });
    after(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("the one definition is what the migrations create, and what the repair recreates", async () => {
      const database = await setupIsolatedDatabase(backend);
      try {
        await withStore(database.databaseUrl, async () => undefined);
        const migrated = await indexDefinitions(backend, database.databaseUrl);
        assert.deepEqual(
          [...migrated.keys()].sort(),
          ADDRESS_LIST_INDEXES.map((index) => index.name).sort(),
        );
        // Every one dropped: the next open recreates them, identical.
        const drop = ADDRESS_LIST_INDEXES.map((index) => `DROP INDEX ${index.name}`);
        if (backend === "sqlite") {
          const db = new BetterSqlite(database.databaseUrl);
          for (const statement of drop) db.exec(statement);
          db.close();
        } else {
          await withPg(database.databaseUrl, (client) => client.query(drop.join("; ")));
        }
        assert.equal((await indexDefinitions(backend, database.databaseUrl)).size, 0);
        await withStore(database.databaseUrl, async () => undefined);
        assert.deepEqual(await indexDefinitions(backend, database.databaseUrl), migrated);
      } finally {
        await database.cleanup();
      }
    });

    it("an import into empty lists builds the sort indexes after it; a second one keeps them", async () => {
      const database = await setupIsolatedDatabase(backend);
      try {
        await withStore(database.databaseUrl, async (store) => {
          const migrated = await indexDefinitions(backend, database.databaseUrl);
          const first = await importTransfersFile({ path: small, store });
          assert.equal(first.inserted, 3000);
          assert.equal(first.deferredIndexes, true);
          assert.deepEqual(await indexDefinitions(backend, database.databaseUrl), migrated);
          for (const address of hot) await assertLists(store, records, address);
          const again = await importTransfersFile({ path: small, store });
          assert.equal(again.unchanged, 3000);
          assert.equal(again.deferredIndexes, false);
          assert.deepEqual(await indexDefinitions(backend, database.databaseUrl), migrated);
        });
      } finally {
        await database.cleanup();
      }
    });

    it("an import killed mid-load leaves every index and correct lists at the next open", async () => {
      const database = await setupIsolatedDatabase(backend);
      const url = database.databaseUrl;
      let child: ChildProcess | undefined;
      try {
        await withStore(url, async () => undefined);
        const migrated = await indexDefinitions(backend, url);
        const entry = tsEntryArgs(join(import.meta.dirname, "..", "start", "cli-entry.ts"));
        child = spawn(process.execPath, [...entry, "import", large], {
          env: { ...process.env, DATABASE_URL: url },
          stdio: "ignore",
        });
        const exited = new Promise<NodeJS.Signals | null>((resolve) =>
          child!.on("exit", (_code, signal) => resolve(signal)),
        );
        if (backend === "postgres") {
          await waitFor("the bulk load", () => bulkLockHeld(url));
          // The sort indexes are gone meanwhile; an open neither waits for the load nor
          // builds them (the load does, before its commit).
          const deferred = ADDRESS_LIST_INDEXES.filter((index) => index.deferrable);
          assert.ok(deferred.length >= 5, "five sort indexes are deferred");
          const during = await indexDefinitions(backend, url);
          for (const index of deferred) assert.equal(during.has(index.name), false);
          const opened = Date.now();
          await withStore(url, async (store) => {
            assert.equal(await listTotal(store, hot[0]!, "send_amount"), 0);
          });
          assert.ok(Date.now() - opened < 10_000, "the open did not wait for the load");
          assert.equal((await indexDefinitions(backend, url)).size, during.size);
        } else {
          // The migrations' write transaction is short; the load's holds the lock throughout.
          await waitFor("the load's transaction", async () => sqliteWriteLocked(url));
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
        child.kill("SIGKILL");
        assert.equal(await exited, "SIGKILL", "the import ended before it was killed");
        if (backend === "postgres") {
          await waitFor("the killed session's end", async () => !(await bulkLockHeld(url)));
        }
        await withStore(url, async (store) => {
          assert.deepEqual(await indexDefinitions(backend, url), migrated);
          const total = await listTotal(store, hot[0]!, "created_at");
          assert.equal(total, 0, "nothing of the killed import is visible");
          // And a whole import afterwards leaves correct lists.
          const summary = await importTransfersFile({ path: small, store });
          assert.equal(summary.inserted, 3000);
          for (const address of hot) await assertLists(store, records, address);
        });
        assert.deepEqual(await indexDefinitions(backend, url), migrated);
      } finally {
        child?.kill("SIGKILL");
        await database.cleanup();
      }
    });
  });
}
