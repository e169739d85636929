/**
 * The SQLite indexer store's batch writes: batches that queue up while the previous group is
 * being written go out together (writeBatchGroup: one transaction; after a failure, one each),
 * either on the main thread's connection or on a worker thread
 * (src/indexer/store/indexer-batch-worker.ts) with a connection of its own, so that fetching and
 * decoding the next batches overlaps with writing.
 *
 * A worker that dies (an uncaught error, out of memory) fails its pending group and is replaced
 * on the next one; its open transaction, if any, was never committed, so nothing is lost.
 */
import { Worker } from "node:worker_threads";
import { errorMessage } from "../../errors.js";
import type { RegistrySource } from "../bridge-registry.js";
import type { IndexedBatch } from "../write-batch.js";
import type {
  BatchWorkerData,
  BatchWorkerReply,
  BatchWorkerRequest,
} from "./indexer-batch-worker.js";
import {
  type BatchContext,
  createBatchContext,
  type IndexerSqliteConnection,
  writeBatchGroup,
} from "./indexer-sqlite-transaction.js";

export interface BatchWriter {
  /** Resolves once the batch is committed; rejects when it was rolled back. */
  write(batch: IndexedBatch): Promise<void>;
  /** Ends the worker, if any (after the queued groups). */
  close(): Promise<void>;
}

export interface BatchWriterOptions {
  /** The database file; the main thread's connection to it. */
  path: string;
  connection: IndexerSqliteConnection;
  registry: RegistrySource;
  /**
   * Runs a task after every task given to it before (the store's transaction queue), so group
   * writes never overlap the main connection's transactions.
   */
  serialise: <T>(task: () => Promise<T>) => Promise<T>;
  /** Write on a worker thread (true) or on the main thread's connection. */
  worker: boolean;
}

interface GroupRunner {
  /** Per batch: why it was rolled back, or undefined when committed. */
  run(batches: IndexedBatch[]): Promise<(string | undefined)[]>;
  close(): Promise<void>;
}

interface Waiting {
  batch: IndexedBatch;
  resolve: () => void;
  reject: (error: Error) => void;
}

export function createBatchWriter(options: BatchWriterOptions): BatchWriter {
  const runner = options.worker
    ? workerRunner(options.path, options.registry)
    : inProcessRunner(options.connection, options.registry);
  let waiting: Waiting[] = [];

  async function flush(): Promise<void> {
    // One turn of the event loop first: other chains' batches whose data just arrived join.
    await new Promise((resolve) => setImmediate(resolve));
    const group = waiting;
    waiting = [];
    const errors = await runner
      .run(group.map((w) => w.batch))
      .catch((error: unknown) => group.map(() => errorMessage(error)));
    group.forEach((w, i) => {
      const error = errors[i];
      if (error === undefined) w.resolve();
      else w.reject(new Error(error));
    });
  }

  return {
    write(batch) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ batch, resolve, reject });
        // The first batch to wait queues a flush; later ones join it until it starts.
        if (waiting.length === 1) void options.serialise(flush);
      });
    },
    close: () => runner.close(),
  };
}

function inProcessRunner(
  connection: IndexerSqliteConnection,
  registry: RegistrySource,
): GroupRunner {
  let context: Promise<BatchContext> | undefined;
  return {
    async run(batches) {
      context ??= createBatchContext(connection, registry);
      return writeBatchGroup(connection, batches, await context);
    },
    close: async () => undefined,
  };
}

/**
 * A worker whose entry is `name` in this folder: the compiled .js, or under tsx (tests, benches
 * run from sources) the .ts, loaded through tsx's loader (a worker does not inherit
 * `--import tsx`).
 */
function spawnWorker(name: string, data: unknown): Worker {
  const fromSources = import.meta.url.endsWith(".ts");
  const entry = new URL(`./${name}.${fromSources ? "ts" : "js"}`, import.meta.url);
  if (!fromSources) return new Worker(entry, { workerData: data });
  const tsx = import.meta.resolve("tsx/esm/api");
  const bootstrap =
    `import(${JSON.stringify(tsx)})` +
    `.then((api) => { api.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: data });
}

function workerRunner(path: string, registry: RegistrySource): GroupRunner {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, (reply: BatchWorkerReply) => void>();

  function failAll(error: string) {
    for (const settle of pending.values()) settle({ id: 0, error });
    pending.clear();
    worker = undefined;
  }

  function current(): Worker {
    if (worker !== undefined) return worker;
    const started = spawnWorker("indexer-batch-worker", {
      path,
      registry,
    } satisfies BatchWorkerData);
    started.on("message", (reply: BatchWorkerReply) => {
      const settle = pending.get(reply.id);
      if (settle === undefined) return;
      pending.delete(reply.id);
      // Idle, it must not keep the process alive (a store someone forgot to close).
      if (pending.size === 0) started.unref();
      settle(reply);
    });
    started.on("error", (error) => {
      if (worker === started) failAll(`indexer batch worker failed: ${error.message}`);
    });
    started.on("exit", (code) => {
      if (worker === started) failAll(`indexer batch worker exited (code ${code})`);
    });
    worker = started;
    return started;
  }

  function request(body: { batches: IndexedBatch[] } | { close: true }): Promise<BatchWorkerReply> {
    const target = current();
    const id = nextId++;
    target.ref();
    return new Promise((resolve) => {
      pending.set(id, resolve);
      target.postMessage({ ...body, id } satisfies BatchWorkerRequest);
    });
  }

  return {
    async run(batches) {
      const reply = await request({ batches });
      if (reply.error !== undefined) throw new Error(reply.error);
      return reply.errors ?? batches.map(() => "indexer batch worker: no reply");
    },
    async close() {
      const running = worker;
      if (running === undefined) return;
      await request({ close: true });
      worker = undefined;
      await running.terminate();
    },
  };
}
