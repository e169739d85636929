/**
 * The indexer's transactional access to the database: its own connection (SQLite) or pool
 * (PostgreSQL) on which a batch writes raw events, block hashes, the cursor AND the derived
 * transfers in one transaction. Built from the store's own pieces (migrations via createStore,
 * createSqliteBackend / createPostgresBackend, createTransferRepository), because the Store
 * interface does not expose its SQL executor inside transaction(); once it does, this module
 * becomes a thin adapter over Store.transaction.
 */
import pg from "pg";
import type { IndexerStore, IndexerTransaction } from "../indexer/indexer-store.js";
import type { TransferBackend } from "./backend.js";
import { databaseKind } from "./database-url.js";
import { createStore } from "./index.js";
import { createIndexerRepository } from "./indexer-repository.js";
import { createPostgresBackend } from "./postgres/postgres-backend.js";
import { createSerialQueue } from "./scoped-store.js";
import { createSqliteBackend, createStatementCache } from "./sqlite/sqlite-backend.js";
import { openSqliteConnection } from "./sqlite/sqlite-store.js";
import { createTransferWrites } from "./transfer-writes.js";

export interface OpenIndexerStoreOptions {
  /** Same as DATABASE_URL: postgres://... or a SQLite file path. */
  databaseUrl: string;
}

export interface ClosableIndexerStore extends IndexerStore {
  readonly kind: "sqlite" | "postgres";
  close(): Promise<void>;
}

function transactionOn(backend: TransferBackend, kind: "sqlite" | "postgres"): IndexerTransaction {
  return {
    indexer: createIndexerRepository(backend.sql, kind),
    // Already inside the batch's transaction: the writes are atomic with everything else.
    transfers: createTransferWrites(backend),
  };
}

export async function openIndexerStore(
  options: OpenIndexerStoreOptions,
): Promise<ClosableIndexerStore> {
  // Runs the migrations (the store's and ours) exactly as `serve` would.
  const migrated = await createStore({ databaseUrl: options.databaseUrl });
  await migrated.close();
  return databaseKind(options.databaseUrl) === "postgres"
    ? openPostgres(options.databaseUrl)
    : openSqlite(options.databaseUrl);
}

function openSqlite(databaseUrl: string): ClosableIndexerStore {
  const path = databaseUrl.startsWith("file:") ? databaseUrl.slice("file:".length) : databaseUrl;
  if (path === ":memory:" || path === "") {
    throw new Error("the indexer needs a database file (or PostgreSQL), not :memory:");
  }
  // The store's own pragmas, 512 MB page-cache ceiling included: with the default 2 MB, a
  // backfill's random-key inserts into the transfer and address indexes thrash the cache.
  const db = openSqliteConnection(path, 10_000);
  // A backfill batch dirties thousands of pages; checkpointing every 1,000 (the default) copies
  // the same index pages back to the file over and over. 10,000 pages (~40 MB of WAL) between
  // checkpoints coalesces those writes; readers are unaffected.
  db.pragma("wal_autocheckpoint = 10000");
  const prepare = createStatementCache(db);
  const root = createSqliteBackend(prepare);
  const queue = createSerialQueue();
  return {
    kind: "sqlite",
    indexer: createIndexerRepository(root.sql, "sqlite"),
    transaction: (work) =>
      queue(async () => {
        let open = true;
        const backend = createSqliteBackend(prepare, () => {
          if (!open) throw new Error("indexer transaction has ended");
        });
        db.exec("BEGIN IMMEDIATE");
        try {
          const result = await work(transactionOn(backend, "sqlite"));
          db.exec("COMMIT");
          return result;
        } catch (error) {
          if (db.inTransaction) db.exec("ROLLBACK");
          throw error;
        } finally {
          open = false;
        }
      }),
    async close() {
      await queue(async () => undefined);
      db.close();
    },
  };
}

function openPostgres(databaseUrl: string): ClosableIndexerStore {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  pool.on("error", () => undefined); // an idle client dropping: the next query reconnects
  return {
    kind: "postgres",
    indexer: createIndexerRepository(createPostgresBackend(pool).sql, "postgres"),
    async transaction(work) {
      const client = await pool.connect();
      let open = true;
      let broken = false;
      const backend = createPostgresBackend(client, () => {
        if (!open) throw new Error("indexer transaction has ended");
      });
      try {
        await client.query("BEGIN");
        const result = await work(transactionOn(backend, "postgres"));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
        throw error;
      } finally {
        open = false;
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
