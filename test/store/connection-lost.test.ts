/**
 * PostgreSQL going away (a restart, a failover, a network cut) while a pooled connection is
 * checked out for a transaction: that transaction fails and the caller retries, but the
 * process lives on. pg emits the connection's error as an 'error' event on the checked-out
 * client, which has no listener of pg-pool's then; without one of ours Node ends the process
 * (the indexer died this way within a second of the database restarting).
 * Needs PostgreSQL at DATABASE_URL; fails, never skips, when it is not reachable.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createStore, openDatabase } from "../../src/store/index.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { eventually } from "../setup/eventually.js";
import { trackPgConnections } from "../setup/postgres-observers.js";
import { postgresTarget, startTcpProxy } from "../setup/tcp-proxy.js";

/** Errors that would have ended the process, caught for the test's duration. */
function catchUncaught(): { errors: unknown[]; stop(): void } {
  const errors: unknown[] = [];
  const listener = (error: unknown) => errors.push(error);
  process.on("uncaughtException", listener);
  return { errors, stop: () => process.off("uncaughtException", listener) };
}

/** Runs a transaction that holds its connection until `release` resolves. */
async function holdTransaction(
  transaction: (work: () => Promise<void>) => Promise<void>,
): Promise<{ started: Promise<void>; release(): void; done: Promise<unknown> }> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started = () => {};
  const startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = transaction(async () => {
    started();
    await held;
  }).then(
    () => "committed",
    (error: unknown) => error,
  );
  return { started: startedPromise, release, done };
}

describe("PostgreSQL connection lost during a transaction", () => {
  let db: IsolatedDatabase;
  before(async () => {
    db = await setupIsolatedDatabase("postgres");
  });
  after(async () => {
    await db.cleanup();
  });

  for (const kind of ["indexer store", "API store"] as const) {
    it(`error: the ${kind}'s transaction fails, the process does not crash, the next one works`, async () => {
      const proxy = await startTcpProxy(postgresTarget(db.databaseUrl));
      const url = proxy.url(db.databaseUrl);
      const connections = trackPgConnections();
      const store =
        kind === "indexer store"
          ? await openDatabase(url)
          : await createStore({ databaseUrl: url });
      const transaction = (work: () => Promise<void>) =>
        store.transaction(async () => {
          await work();
        });
      const uncaught = catchUncaught();
      try {
        const tx = await holdTransaction(transaction);
        await tx.started;
        await proxy.down(); // the server closes every connection
        // Released only once pg saw the close: on a client checked out and idle, the failure
        // that used to end the process.
        await eventually(5000, () => assert.equal(connections.open(), 0));
        tx.release();
        const outcome = await tx.done;
        assert.deepEqual(uncaught.errors, [], "a lost connection must not be an uncaught error");
        assert.ok(outcome instanceof Error, `the transaction fails, got ${String(outcome)}`);

        await proxy.up();
        assert.equal(await transaction(async () => {}).then(() => "committed"), "committed");
      } finally {
        connections.stop();
        uncaught.stop();
        await store.close();
        await proxy.close();
      }
    });
  }
});
