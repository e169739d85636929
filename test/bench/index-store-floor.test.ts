import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { INDEXER_TABLES, measureStoreFloor } from "../../bench/index-store-floor.js";
import { createStore } from "../../src/store/index.js";
import { createTransferGenerator } from "../../src/transfers/generate.js";

function tableCounts(path: string): Record<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    return Object.fromEntries(
      INDEXER_TABLES.map((t) => [
        t,
        (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n,
      ]),
    );
  } finally {
    db.close();
  }
}

describe("index benchmark: store floor", () => {
  let dir: string;
  let source: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "store-floor-"));
    source = join(dir, "index.db");
    const store = await createStore({ databaseUrl: source });
    await store.transfers.upsertTransfers([
      ...createTransferGenerator({ count: 300, seed: 7 }).records(),
    ]);
    await store.close();
    const db = new Database(source);
    const insert = db.prepare(
      "INSERT INTO raw_events VALUES (1, ?, 0, ?, '0xb', 0, '0xa', 0, 'TransferSent', ?, '{}', 'reference', 'sent')",
    );
    for (let i = 0; i < 50; i++) insert.run(`0x${i}`, i, `0xm${i}`);
    db.prepare(
      "INSERT INTO indexer_blocks VALUES (1, 1, '0xb', '0xa'), (1, 2, '0xc', '0xb')",
    ).run();
    db.close();
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("behavior: copies every row of every indexer table, in both forms, and cleans up", async () => {
    const counts = tableCounts(source);
    assert.ok(
      counts.transfers === 300 && counts.address_transfers! >= 300,
      "counts.transfers === 300 && counts.address_transfers! >= 300",
    );
    const target = join(dir, "copy.db");
    const result = await measureStoreFloor(source, target);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    assert.equal(result.rows, total);
    assert.ok(
      result.indexesInPlaceMs > 0 && result.indexesAfterMs > 0,
      "result.indexesInPlaceMs > 0 && result.indexesAfterMs > 0",
    );
    assert.equal(existsSync(target), false);
    assert.deepEqual(tableCounts(source), counts);
  });
});
