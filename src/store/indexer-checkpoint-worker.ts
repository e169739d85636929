/**
 * WAL checkpoints of the indexer's SQLite file, on a thread of their own. The batch worker's
 * connection never checkpoints (wal_autocheckpoint = 0): a checkpoint copies thousands of pages
 * back into the database file and waits for two fsyncs, time during which the batch worker would
 * write nothing. Here it runs beside the writes instead (a PASSIVE checkpoint takes no writer
 * lock and waits for no one), asked for after each committed group of batches (the main thread
 * folds requests made while one runs into one more).
 *
 * workerData: { path }. Messages in: "checkpoint" or "close"; out: "done" after each.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openSqliteConnection } from "./sqlite/sqlite-store.js";

const db = openSqliteConnection((workerData as { path: string }).path, 10_000);
db.pragma("wal_autocheckpoint = 0");

parentPort!.on("message", (message: "checkpoint" | "close") => {
  try {
    if (message === "close") db.close();
    else db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // A busy or failed checkpoint is retried at the next request; the WAL only grows meanwhile.
  }
  parentPort!.postMessage("done");
});
