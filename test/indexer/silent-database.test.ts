/**
 * The indexer on PostgreSQL whose connections go silent mid-backfill (a proxy that stalls, a NAT
 * entry that was dropped): before the silence check the chain waited on its statement for good;
 * now the check drops each silent connection, the step fails and is retried on a new one, and
 * the database still equals a clean index row by row.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createIndexer } from "../../src/indexer/create-indexer.js";
import { openDatabase } from "../../src/store/index.js";
import { setupTwoChainDevnet, type TwoChainDevnet } from "../setup/anvil.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { postgresTarget, startTcpProxy } from "../setup/tcp-proxy.js";
import {
  chainHeads,
  configOf,
  dumpCleanIndex,
  dumpDatabase,
  memoryLogger,
  waitUntilCaughtUp,
} from "./helpers.js";
import { deliver, sendTransfer } from "./traffic.js";

describe("indexer: PostgreSQL connections that go silent", () => {
  let devnet: TwoChainDevnet;
  const dbs: IsolatedDatabase[] = [];

  before(async () => {
    devnet = await setupTwoChainDevnet();
    const { alpha, beta } = devnet;
    for (let i = 0; i < 4; i++) {
      const t = await sendTransfer(
        devnet.manifest,
        alpha,
        beta,
        (i % 3) as 0 | 1 | 2,
        10n + BigInt(i),
      );
      await deliver(devnet.manifest, t);
    }
  });
  after(async () => {
    for (const db of dbs) await db.cleanup();
    await devnet?.cleanup();
  });

  it("behavior: each silent connection is dropped, the step retried, and the index is exact", async () => {
    const { manifest } = devnet;
    const live = await setupIsolatedDatabase("postgres");
    dbs.push(live);
    const proxy = await startTcpProxy(postgresTarget(live.databaseUrl));
    // Short bounds so the check acts within a second (production: 30 s and 10 s).
    const store = await openDatabase(proxy.url(live.databaseUrl), {
      timeouts: { connectMs: 1000, silenceCheckMs: 400 },
    });
    const logger = memoryLogger();
    const indexer = createIndexer({
      config: configOf(manifest, { maxBlockRange: 2 }),
      store,
      logger,
    });
    const controller = new AbortController();
    const running = indexer.run(controller.signal);
    const heads = await chainHeads(manifest);
    try {
      // Freeze once the backfill has committed its first batches, with more to come.
      while (!indexer.status().some((s) => s.cursorBlock > 0)) {
        await new Promise((r) => setTimeout(r, 5));
      }
      assert.ok(
        indexer.status().every((s, i) => s.cursorBlock < heads[i]!),
        "the backfill is not over yet",
      );
      proxy.freeze(); // every connection open now goes silent; new ones pass
      await waitUntilCaughtUp(indexer, heads, 45_000, () => logger.lines.join("\n"));
    } finally {
      controller.abort();
      await proxy.close(); // ends any statement nothing dropped (when the test failed)
      await running;
      await store.close();
    }
    assert.ok(
      logger.lines.some((l) => /database connection went silent/.test(l)),
      `a dropped connection was logged:\n${logger.lines.join("\n")}`,
    );

    assert.deepEqual(
      await dumpDatabase(live.databaseUrl),
      await dumpCleanIndex(manifest, "postgres"),
    );
  });
});
