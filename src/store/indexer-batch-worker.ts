/**
 * The SQLite indexer store's batch writer (a worker thread): its own connection to the database
 * file, on which batches run writeBatch while the main thread fetches and decodes the next ones.
 * Started by src/store/indexer-batch-writer.ts; one request at a time (the main thread
 * serialises all of the process's indexer transactions).
 *
 * A request carries the batches that queued up meanwhile (at most one per chain): they are
 * written in ONE transaction, each inside its own savepoint, in order. A batch that fails is
 * rolled back to its savepoint alone and reported; the others commit. Each batch stays atomic
 * (all of it or none) and sees the batches before it, exactly as separate transactions in that
 * order would; one commit instead of several writes the shared index pages once.
 *
 * workerData: { path, registry }. Requests: { id, batches } or { id, close: true }; replies:
 * { id, errors } (one entry per batch, undefined when committed) or { id, error }.
 */
import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "../errors.js";
import { createBridgeRegistry, type RegistrySource } from "../indexer/bridge-registry.js";
import type { TokenMetadata } from "../indexer/derive-transfer.js";
import { type IndexedBatch, writeBatch } from "../indexer/write-batch.js";
import { createIndexerRepository } from "./indexer-repository.js";
import { openIndexerSqlite, runSqliteTransaction } from "./indexer-sqlite-transaction.js";
import { createSqliteBackend } from "./sqlite/sqlite-backend.js";

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

const { path, registry: source } = workerData as BatchWorkerData;
const connection = openIndexerSqlite(path);
// Checkpoints run on their own thread (src/store/indexer-checkpoint-worker.ts), beside the writes.
connection.db.pragma("wal_autocheckpoint = 0");
const registry = createBridgeRegistry(source.chains, source.bridges);
const tokens = new Map<string, TokenMetadata>();
const tokenKey = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`;
const stored = await createIndexerRepository(
  createSqliteBackend(connection.prepare).sql,
  "sqlite",
).loadTokenMetadata();
for (const t of stored) tokens.set(tokenKey(t.chainId, t.address), t);
const context = {
  registry,
  token: (chainId: number, address: string) => tokens.get(tokenKey(chainId, address)),
};

async function writeBatches(batches: readonly IndexedBatch[]): Promise<(string | undefined)[]> {
  const { db } = connection;
  return runSqliteTransaction(connection, async (tx) => {
    const errors: (string | undefined)[] = [];
    for (const batch of batches) {
      for (const t of batch.tokens) tokens.set(tokenKey(t.chainId, t.address), t);
      db.exec("SAVEPOINT batch");
      try {
        await writeBatch(tx, batch, context);
        errors.push(undefined);
      } catch (error) {
        db.exec("ROLLBACK TO batch");
        errors.push(errorMessage(error));
      }
      db.exec("RELEASE batch");
    }
    return errors;
  });
}

parentPort!.on("message", async (request: BatchWorkerRequest) => {
  const reply: BatchWorkerReply = { id: request.id };
  try {
    if ("close" in request) connection.db.close();
    else reply.errors = await writeBatches(request.batches);
  } catch (error) {
    reply.error = errorMessage(error);
  }
  parentPort!.postMessage(reply);
});
