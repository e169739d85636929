/**
 * The DatabaseTransaction handed to `transaction(work)`: the repositories (repositories.ts)
 * bound to one connection inside an open transaction.
 * Nested transaction() calls and each upsertTransfers() run in a SAVEPOINT, so a failed step
 * can be caught and the outer transaction continued without partial writes of that step.
 * Savepoints of one scope run one at a time (a queue), so concurrent calls inside one
 * transaction cannot interleave their SAVEPOINT/RELEASE pairs. A scope refuses use after its
 * transaction ended.
 */

import { createListIndexes } from "./address-list-indexes.js";
import type { TransferBackend } from "./backend.js";
import { withHistoryUnlogged } from "./change-log-horizon.js";
import type { DatabaseTransaction } from "./database-types.js";
import { createTransferDerivation } from "./derive-transfers.js";
import { createRepositories } from "./repositories.js";
import { createTransferWrites } from "./transfer-writes.js";
import type { Store } from "./types.js";

/** One connection inside an open transaction. */
export interface TransactionConnection {
  exec(statement: string): Promise<void>;
  /** A backend on this connection whose every call first runs `assertOpen`. */
  backend(assertOpen: () => void): TransferBackend;
}

/** Runs tasks one after another, in call order, whatever each one's outcome. */
export function createSerialQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task, task);
    tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  };
}

export interface ScopeOptions {
  kind: Store["kind"];
  connection: TransactionConnection;
  /** 1 for the outermost transaction; names the savepoints of this scope. */
  depth: number;
  ping: Store["ping"];
}

export async function runInScope<T>(
  options: ScopeOptions,
  work: (tx: DatabaseTransaction, backend: TransferBackend) => Promise<T>,
): Promise<T> {
  const { connection, depth } = options;
  let open = true;
  const assertOpen = () => {
    if (!open) throw new Error("this transaction has ended; use the store it was started from");
  };
  const backend = connection.backend(assertOpen);
  const queue = createSerialQueue();
  const savepoint = <R>(task: () => Promise<R>): Promise<R> =>
    queue(async () => {
      assertOpen();
      const name = `bridge_oracle_sp_${depth}`;
      await connection.exec(`SAVEPOINT ${name}`);
      try {
        const result = await task();
        await connection.exec(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        await connection.exec(`ROLLBACK TO SAVEPOINT ${name}`);
        await connection.exec(`RELEASE SAVEPOINT ${name}`);
        throw error;
      }
    });
  const tx: DatabaseTransaction = {
    kind: options.kind,
    ...createRepositories({
      kind: options.kind,
      replicaReads: backend,
      requests: backend.sql,
      background: backend.sql,
      atomically: (fn) => savepoint(() => fn(backend)),
    }),
    transferWrites: createTransferWrites(backend),
    transferDerivation: createTransferDerivation(backend, options.kind),
    withHistoryUnlogged: (work, blocks) =>
      withHistoryUnlogged(backend.sql, options.kind, blocks, work),
    listIndexes: createListIndexes(backend.sql, options.kind),
    transaction: (inner) =>
      savepoint(() => runInScope({ ...options, depth: depth + 1 }, (child) => inner(child))),
    ping: options.ping,
    close: async () => {
      throw new Error("close() the store the transaction was started from, not the transaction");
    },
  };
  try {
    return await work(tx, backend);
  } finally {
    open = false;
  }
}
