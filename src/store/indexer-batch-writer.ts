/**
 * Main-thread side of the SQLite batch worker (src/store/indexer-batch-worker.ts): starts it,
 * hands it the batches that queued up since its last request (one transaction for all of them,
 * a savepoint each) and settles each batch's promise from the reply. A worker that dies (an
 * uncaught error, out of memory) fails its pending batches and is replaced on the next request;
 * its open transaction, if any, was never committed, so nothing is lost.
 */
import { Worker } from "node:worker_threads";
import { errorMessage } from "../errors.js";
import type { RegistrySource } from "../indexer/bridge-registry.js";
import type { IndexedBatch } from "../indexer/write-batch.js";
import type {
  BatchWorkerData,
  BatchWorkerReply,
  BatchWorkerRequest,
} from "./indexer-batch-worker.js";

export interface BatchWriter {
  /** Resolves once the batch is committed; rejects when it was rolled back. */
  write(batch: IndexedBatch): Promise<void>;
  /** Closes the worker's connection and ends the worker. */
  close(): Promise<void>;
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

interface Waiting {
  batch: IndexedBatch;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * `serialise` runs a task after every task given to it before (the store's transaction queue),
 * so the worker's transactions never overlap the main connection's.
 */
export function startBatchWriter(
  path: string,
  registry: RegistrySource,
  serialise: <T>(task: () => Promise<T>) => Promise<T>,
): BatchWriter {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, (reply: BatchWorkerReply) => void>();
  let waiting: Waiting[] = [];
  const checkpoints = startCheckpointer(path);

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

  async function flush(): Promise<void> {
    const group = waiting;
    waiting = [];
    const reply = await request({ batches: group.map((w) => w.batch) }).catch(
      (error: unknown): BatchWorkerReply => ({ id: 0, error: errorMessage(error) }),
    );
    let committed = false;
    group.forEach((w, i) => {
      const error = reply.error ?? reply.errors?.[i];
      committed ||= error === undefined;
      if (error === undefined) w.resolve();
      else w.reject(new Error(error));
    });
    if (committed) checkpoints.request();
  }

  return {
    write(batch) {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ batch, resolve, reject });
        // The first batch to wait queues a flush; later ones join it until it starts.
        if (waiting.length === 1) void serialise(flush);
      });
    },
    async close() {
      const running = worker;
      if (running !== undefined) {
        await request({ close: true });
        worker = undefined;
        await running.terminate();
      }
      await checkpoints.close();
    },
  };
}

/**
 * The checkpoint worker (src/store/indexer-checkpoint-worker.ts), started on the first request.
 * At most one checkpoint runs; requests made meanwhile make one more run after it.
 */
function startCheckpointer(path: string) {
  let worker: Worker | undefined;
  /** Settles each message sent, in order (the worker answers every message). */
  const replies: (() => void)[] = [];
  let running: Promise<void> | undefined;
  let again = false;

  function post(message: "checkpoint" | "close"): Promise<void> {
    if (worker === undefined) {
      const started = spawnWorker("indexer-checkpoint-worker", { path });
      started.on("message", () => {
        replies.shift()?.();
        if (replies.length === 0) started.unref();
      });
      // A checkpointer that dies is replaced at the next request; the WAL only grows meanwhile.
      started.on("error", () => undefined);
      started.on("exit", () => {
        if (worker === started) worker = undefined;
        for (const settle of replies.splice(0)) settle();
      });
      worker = started;
    }
    const target = worker;
    target.ref();
    return new Promise((resolve) => {
      replies.push(resolve);
      target.postMessage(message);
    });
  }

  function request(): void {
    if (running !== undefined) {
      again = true;
      return;
    }
    running = post("checkpoint").then(() => {
      running = undefined;
      if (again) {
        again = false;
        request();
      }
    });
  }

  return {
    request,
    async close() {
      again = false;
      while (running !== undefined) await running;
      const current = worker;
      if (current === undefined) return;
      await post("close");
      worker = undefined;
      await current.terminate();
    },
  };
}
