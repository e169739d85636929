/**
 * The stream's promise across reconnections (docs/push.md): a client that drops its connection
 * at random moments and resumes with Last-Event-ID sees every matching change exactly once, in
 * sequence order, while a writer in another process (standing in for the indexer) creates,
 * delivers and removes transfers. On both stores; the drop schedule comes from fast-check.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { buildApp } from "../../src/api/app.js";
import { TRANSFER_STREAM_PATH } from "../../src/api/routes/transfer-stream.js";
import { loadConfig } from "../../src/config/env.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { setupIsolatedDatabase } from "../setup/database.js";
import { within } from "../setup/eventually.js";
import { listenOnLoopback } from "../setup/listen.js";
import { openSse, SSE_WAIT_MS, type SseEvent } from "../setup/sse-client.js";
import { evmAddress } from "../setup/transfer-fixtures.js";

const CHANGES_PER_RUN = 60;

/** Generous: starting the writer (a child process) and its writes take long when busy. */
const WRITER_WAIT_MS = 120_000;

/**
 * Starts the writer child: `started` resolves once its store is open (a child process
 * takes seconds to start on a busy machine), `done` when it has written everything and exited.
 */
function runWriter(databaseUrl: string, address: string, seed: number) {
  const child = spawn(
    process.execPath,
    [
      ...tsEntryArgs(join(import.meta.dirname, "stream-writer-child.ts")),
      databaseUrl,
      address,
      String(CHANGES_PER_RUN),
      String(seed),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  let started: () => void = () => {};
  const startedPromise = new Promise<void>((resolve) => {
    started = resolve;
  });
  const done = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("started")) started();
    });
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 && output.includes("done")
        ? resolve()
        : reject(new Error(`writer exited ${code}: ${output}`)),
    );
  });
  return { started: Promise.race([startedPromise, done]), done };
}

const dropArbitrary = fc.array(
  fc.record({
    /** Drop after this many change events (0: possibly before any arrives)... */
    events: fc.integer({ min: 0, max: 4 }),
    /** ...or after this many ms, whichever comes first. */
    ms: fc.integer({ min: 0, max: 60 }),
  }),
  { minLength: 5, maxLength: 30 },
);

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`transfer stream: resuming across random drops (${backend})`, () => {
    let db: Awaited<ReturnType<typeof setupIsolatedDatabase>>;
    let store: Store;
    let app: FastifyInstance;
    let base: string;
    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await createStore({ databaseUrl: db.databaseUrl });
      app = await buildApp({
        config: loadConfig({ LOG_LEVEL: "silent", STREAM_MAX_PER_CLIENT: "0" }),
        store,
        stream: { heartbeatMs: 40 },
      });
      base = (await listenOnLoopback(app)).baseUrl;
    });
    after(async () => {
      if (app !== undefined) await within(SSE_WAIT_MS, "app.close()", app.close());
      if (store !== undefined) await within(SSE_WAIT_MS, "store.close()", store.close());
      if (db !== undefined) await within(SSE_WAIT_MS, "removing the database", db.cleanup());
    });

    it("behavior: every matching change exactly once, in seq order, written by another process", async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          dropArbitrary,
          fc.integer({ min: 1, max: 2 ** 31 }),
          async (drops, seed) => {
            const address = evmAddress(`resume-${backend}-${++run}-${seed}`);
            const latestSeq = () =>
              within(SSE_WAIT_MS, "the change log's latest seq", store.transferChanges.latestSeq());
            const start = await latestSeq();
            let writerDone = false;
            const writer = runWriter(db.databaseUrl, address, seed);
            void writer.done.then(
              () => {
                writerDone = true;
              },
              () => {},
            );
            await within(WRITER_WAIT_MS, "the writer process starting", writer.started);
            const url = `${base}${TRANSFER_STREAM_PATH}?addressOrTxHash=${address}`;
            const received: SseEvent[] = [];
            let last = String(start);
            let finalSeq = Number.POSITIVE_INFINITY;
            const deadline = Date.now() + WRITER_WAIT_MS;
            for (let i = 0; Number(last) < finalSeq; i++) {
              const drop = drops[i % drops.length] ?? { events: 1, ms: 10 };
              const connection = await openSse(url, { "last-event-id": last });
              assert.equal(connection.status, 200);
              const changes = () =>
                connection.events.filter((e) => e.event === "transfer" || e.event === "removed");
              await Promise.race([
                connection
                  .waitFor(() => changes().length >= Math.max(1, drop.events), 5000)
                  .catch(() => {}),
                new Promise((resolve) => setTimeout(resolve, drop.ms)),
                connection.ended,
              ]);
              connection.close();
              received.push(...changes());
              assert.ok(!connection.events.some((e) => e.event === "reset"), "no reset");
              last = connection.lastEventId() ?? last;
              if (writerDone && finalSeq === Number.POSITIVE_INFINITY) {
                finalSeq = await latestSeq();
              }
              if (i > 2000 || Date.now() > deadline) {
                throw new Error(
                  `no end after ${i + 1} connections: at ${last} of ${finalSeq} (writer done: ${writerDone})`,
                );
              }
            }
            await within(WRITER_WAIT_MS, "the writer process finishing", writer.done);
            const expected = await within(
              SSE_WAIT_MS,
              "reading the expected changes",
              store.transferChanges.changesSince(start, {
                match: { kind: "evmAddress", value: address.toLowerCase() },
                limit: 1000,
              }),
            );
            assert.ok(expected.changes.length > 5, "the writer wrote matching changes");
            assert.deepEqual(
              received.map((e) => Number(e.id)),
              expected.changes.map((c) => c.seq),
            );
            assert.deepEqual(
              received.map((e) => e.data),
              expected.changes.map((c) => c.recordJson),
            );
          },
        ),
        // One run per store: each starts a child process, seconds on a busy machine.
        { numRuns: 1 },
      );
    });
  });
}
