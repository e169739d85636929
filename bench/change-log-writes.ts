/**
 * What the change log's triggers (docs/push.md) cost a bulk write on SQLite: N generated records
 * written through `import`'s path (tx.transferWrites.upsertTransfers) into a fresh database
 * file, with and without the triggers, each batch its own transaction (the indexer's case) or
 * all in one (`import`'s all-or-nothing). Prints the time of every batch and the process's CPU
 * time (on a busy machine the wall time mostly measures the wait for a core).
 *
 *   node --import tsx bench/change-log-writes.ts [--records 10000] [--batch 2000] [--savepoint]
 *
 * --savepoint writes each batch through tx.transfers.upsertTransfers instead, in a savepoint of
 * its own: the shape in which each insert costs more than the one before (docs/push.md).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { BridgeTransaction } from "../src/domain/bridge-transaction.js";
import { type DatabaseTransaction, openDatabase } from "../src/store/index.js";
import { openSqliteConnection } from "../src/store/sqlite/sqlite-database.js";
import { createTransferGenerator } from "../src/transfers/generate.js";
import { integerOption } from "./options.js";

const TRIGGERS = ["transfers_log_insert", "transfers_log_update", "transfers_log_delete"];

interface Variant {
  triggers: boolean;
  oneTransaction: boolean;
  savepoint: boolean;
}

/** Milliseconds per batch, in all and of CPU of one variant, in a database file of its own. */
async function measure(variant: Variant, batches: BridgeTransaction[][]) {
  const dir = mkdtempSync(join(tmpdir(), "change-log-writes-"));
  const path = join(dir, "store.db");
  try {
    // Migrate, then drop the triggers on a connection of our own before the store reopens.
    await (await openDatabase(path)).close();
    if (!variant.triggers) {
      const db = openSqliteConnection(path);
      for (const name of TRIGGERS) db.exec(`DROP TRIGGER ${name}`);
      db.close();
    }
    const store = await openDatabase(path);
    const upsert = (tx: DatabaseTransaction, batch: BridgeTransaction[]) =>
      (variant.savepoint ? tx.transfers : tx.transferWrites).upsertTransfers(batch);
    const times: number[] = [];
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    let wallMs = 0;
    let cpuMs = 0;
    try {
      const writeAll = async (write: (batch: BridgeTransaction[]) => Promise<unknown>) => {
        for (const batch of batches) {
          const started = performance.now();
          await write(batch);
          times.push(performance.now() - started);
        }
      };
      if (variant.oneTransaction) {
        await store.transaction((tx) => writeAll((batch) => upsert(tx, batch)));
      } else {
        await writeAll((batch) => store.transaction((tx) => upsert(tx, batch)));
      }
      // Both include the last COMMIT (outside every batch's time in one transaction).
      wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      cpuMs = (cpu.user + cpu.system) / 1000;
    } finally {
      await store.close();
    }
    return { times, wallMs, cpuMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      records: { type: "string", default: "10000" },
      batch: { type: "string", default: "2000" },
      savepoint: { type: "boolean", default: false },
    },
  });
  const records = integerOption("records", values.records, 1, 10_000_000);
  const batchSize = integerOption("batch", values.batch, 1, 100_000);
  const savepoint = values.savepoint;
  const all = [...createTransferGenerator({ count: records, seed: 7 }).records()];
  const batches: BridgeTransaction[][] = [];
  for (let at = 0; at < all.length; at += batchSize) batches.push(all.slice(at, at + batchSize));

  const load = () =>
    loadavg()
      .map((n) => n.toFixed(2))
      .join(" ");
  const shape = savepoint ? ", a savepoint per batch" : "";
  console.log(`${records} records in batches of ${batchSize}${shape}; load average ${load()}`);
  for (const oneTransaction of [false, true]) {
    // With and without the triggers back to back, so a change in the load hits both.
    for (const triggers of [true, false]) {
      const {
        times,
        wallMs: wall,
        cpuMs,
      } = await measure({ triggers, oneTransaction, savepoint }, batches);
      const name = `${oneTransaction ? "one transaction" : "per batch"}, triggers ${triggers ? "on" : "off"}`;
      console.log(
        `${name.padEnd(30)} ${(wall / 1000).toFixed(2)} s (${((wall * 1000) / records).toFixed(0)} us/record),` +
          ` CPU ${(cpuMs / 1000).toFixed(2)} s; batches (ms): ${times.map((t) => t.toFixed(0)).join(" ")}`,
      );
    }
  }
  console.log(`load average ${load()}`);
}

await main();
