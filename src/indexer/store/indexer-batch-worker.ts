/**
 * The SQLite indexer store's batch worker (a worker thread, used on machines with more than two
 * cores, see src/indexer/store/open-indexer-store.ts): its own connection to the database file, on which
 * groups of batches are written (writeBatchGroup) while the main thread fetches and decodes the
 * next ones. Started by src/indexer/store/indexer-batch-writer.ts; one request at a time (the main thread
 * serialises all of the process's indexer transactions).
 *
 * workerData: { path, registry }. Requests: { id, batches } or { id, close: true }; replies:
 * { id, errors } (one entry per batch, undefined when committed) or { id, error }.
 */
import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "../../errors.js";
import type { RegistrySource } from "../bridge-registry.js";
import type { IndexedBatch } from "../write-batch.js";
import {
  createBatchContext,
  openIndexerSqlite,
  writeBatchGroup,
} from "./indexer-sqlite-transaction.js";

export interface BatchWorkerData {
  path: string;
  registry: RegistrySource;
}

export type BatchWorkerRequest =
  | { id: number; batches: IndexedBatch[] }
  | { id: number; close: true };

export interface BatchWorkerReply {
  id: number;
  /** Per batch: why it was rolled back, or undefined when it is committed. */
  errors?: (string | undefined)[];
  /** The whole request failed (nothing of it is committed). */
  error?: string;
}

const { path, registry } = workerData as BatchWorkerData;
const connection = openIndexerSqlite(path);
const context = await createBatchContext(connection, registry);

parentPort!.on("message", async (request: BatchWorkerRequest) => {
  const reply: BatchWorkerReply = { id: request.id };
  try {
    if ("close" in request) connection.db.close();
    else reply.errors = await writeBatchGroup(connection, request.batches, context);
  } catch (error) {
    reply.error = errorMessage(error);
  }
  parentPort!.postMessage(reply);
});
