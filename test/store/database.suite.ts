/**
 * The database object (src/store/database.ts): its repositories at the root and bound to one
 * transaction, registered once per backend by sqlite.test.ts and postgres.test.ts.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { type Database, openDatabase } from "../../src/store/index.js";
import type { IndexerChainRow } from "../../src/store/indexer-repository.js";
import { type DatabaseBackend, setupIsolatedDatabase } from "../setup/database.js";
import { evmAddress, makeTransfer } from "../setup/transfer-fixtures.js";

const unique = (label: string) => `${label}-${randomBytes(6).toString("hex")}`;

let nextChainId = 9_000_000;
function chainRow(): IndexerChainRow {
  nextChainId += 1 + Math.floor(Math.random() * 1000);
  return {
    chainId: nextChainId,
    name: unique("chain"),
    startBlock: 1,
    cursorBlock: 0,
    cursorHash: "",
    headBlock: 0,
    targetBlock: 0,
    state: "starting",
    error: "",
    updatedAt: "2026-01-01 00:00:00",
  };
}

function newKey(name: string) {
  return {
    name,
    prefix: name.slice(0, 8),
    hash: randomBytes(32).toString("hex"),
    createdAt: new Date("2026-01-01T00:00:00Z"),
  };
}

export function registerDatabaseSuite(backend: DatabaseBackend): void {
  describe(`database object (${backend})`, () => {
    let isolated: Awaited<ReturnType<typeof setupIsolatedDatabase>>;
    let db: Database;

    before(async () => {
      isolated = await setupIsolatedDatabase(backend);
      db = await openDatabase(isolated.databaseUrl);
    });
    after(async () => {
      await db?.close();
      await isolated?.cleanup();
    });

    it("default: the root repositories read what they wrote", async () => {
      const chain = chainRow();
      await db.indexer.ensureChain(chain);
      assert.deepEqual(await db.indexer.getChain(chain.chainId), chain);
      const status = await db.indexerStatus.getIndexerStatus();
      assert.ok(
        status.some((row) => row.chainId === chain.chainId && row.lag === 0),
        "status.some((row) => row.chainId === chain.chainId && row.lag === 0)",
      );
      const key = await db.apiKeys.createKey(newKey(unique("root")));
      assert.ok(
        (await db.apiKeys.listKeys()).some((k) => k.id === key.id),
        "(await db.apiKeys.listKeys()).some((k) => k.id === key.id)",
      );
    });

    it("behavior: a rolled back transaction leaves nothing in any repository", async () => {
      const chain = chainRow();
      const keyName = unique("doomed");
      const viaRepository = makeTransfer({ from_address: evmAddress(unique("a")) });
      const viaWrites = makeTransfer({ from_address: evmAddress(unique("b")) });
      await assert.rejects(
        db.transaction(async (tx) => {
          await tx.transfers.upsertTransfers([viaRepository]);
          await tx.transferWrites.upsertTransfers([viaWrites]);
          await tx.indexer.ensureChain(chain);
          await tx.apiKeys.createKey(newKey(keyName));
          throw new Error("batch failed");
        }),
        /batch failed/,
      );
      assert.equal(await db.transfers.getTransfer(viaRepository.message_id), undefined);
      assert.equal(await db.transfers.getTransfer(viaWrites.message_id), undefined);
      assert.equal(await db.indexer.getChain(chain.chainId), undefined);
      const status = await db.indexerStatus.getIndexerStatus();
      assert.ok(
        !status.some((row) => row.chainId === chain.chainId),
        "!status.some((row) => row.chainId === chain.chainId)",
      );
      assert.ok(
        !(await db.apiKeys.listKeys()).some((k) => k.name === keyName),
        "!(await db.apiKeys.listKeys()).some((k) => k.name === keyName)",
      );
    });

    it("behavior: the bound repositories share the transaction; the root sees it at commit", async () => {
      const chain = chainRow();
      const record = makeTransfer({ from_address: evmAddress(unique("c")) });
      const keyName = unique("shared");
      await db.transaction(async (tx) => {
        await tx.transferWrites.upsertTransfers([record]);
        await tx.indexer.ensureChain(chain);
        await tx.apiKeys.createKey(newKey(keyName));
        // Every bound repository sees the others' uncommitted writes ...
        assert.deepEqual(await tx.transfers.getTransfer(record.message_id), record);
        const status = await tx.indexerStatus.getIndexerStatus();
        assert.ok(
          status.some((row) => row.chainId === chain.chainId),
          "status.some((row) => row.chainId === chain.chainId)",
        );
        assert.ok(
          (await tx.apiKeys.listKeys()).some((k) => k.name === keyName),
          "(await tx.apiKeys.listKeys()).some((k) => k.name === keyName)",
        );
        // ... and the root repositories, on other connections, do not yet.
        assert.equal(await db.transfers.getTransfer(record.message_id), undefined);
        assert.equal(await db.indexer.getChain(chain.chainId), undefined);
        assert.ok(
          !(await db.apiKeys.listKeys()).some((k) => k.name === keyName),
          "!(await db.apiKeys.listKeys()).some((k) => k.name === keyName)",
        );
      });
      assert.deepEqual(await db.transfers.getTransfer(record.message_id), record);
      assert.deepEqual(await db.indexer.getChain(chain.chainId), chain);
      assert.ok(
        (await db.apiKeys.listKeys()).some((k) => k.name === keyName),
        "(await db.apiKeys.listKeys()).some((k) => k.name === keyName)",
      );
    });

    it("behavior: a nested transaction rolls back alone", async () => {
      const outer = chainRow();
      const inner = chainRow();
      await db.transaction(async (tx) => {
        await tx.indexer.ensureChain(outer);
        await assert.rejects(
          tx.transaction(async (nested) => {
            await nested.indexer.ensureChain(inner);
            throw new Error("step failed");
          }),
          /step failed/,
        );
      });
      assert.deepEqual(await db.indexer.getChain(outer.chainId), outer);
      assert.equal(await db.indexer.getChain(inner.chainId), undefined);
    });

    it("behavior: a root write while a transaction is open is not rolled back with it", async () => {
      const keyName = unique("beside");
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started: () => void = () => {};
      const open = new Promise<void>((resolve) => {
        started = resolve;
      });
      const doomed = db.transaction(async (tx) => {
        await tx.indexer.ensureChain(chainRow());
        started();
        await held;
        throw new Error("rolled back");
      });
      await open;
      // Issued from outside the transaction while it is open (SQLite: queued behind it).
      const created = db.apiKeys.createKey(newKey(keyName));
      release();
      await assert.rejects(doomed, /rolled back/);
      await created;
      assert.ok(
        (await db.apiKeys.listKeys()).some((k) => k.name === keyName),
        "(await db.apiKeys.listKeys()).some((k) => k.name === keyName)",
      );
    });

    it("error: a bound repository refuses use after its transaction ended", async () => {
      let escaped: Parameters<Parameters<Database["transaction"]>[0]>[0] | undefined;
      await db.transaction(async (tx) => {
        escaped = tx;
      });
      await assert.rejects(escaped!.indexer.getChain(1), /transaction has ended/);
      await assert.rejects(escaped!.apiKeys.listKeys(), /transaction has ended/);
    });
  });
}
