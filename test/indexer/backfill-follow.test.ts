/**
 * The indexer against real anvil chains running the devnet contracts: backfill of transfers
 * made before it started, then following new ones; every field of every record compared with
 * what the contracts emitted; pairing in both arrival orders. Runs on SQLite and PostgreSQL.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parseEventLogs } from "viem";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import {
  type ChainConnection,
  connectChain,
  setupDevnet,
  type TestDevnet,
} from "../setup/anvil.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { expectedRecord, type Outcome } from "./expected-record.js";
import {
  configOf,
  dumpDatabase,
  indexUntilIdle,
  openTestIndexer,
  type TestIndexer,
} from "./helpers.js";
import { deliver, type MadeTransfer, refund, sendTransfer } from "./traffic.js";

function receiveAmountOf(
  manifest: DevnetManifest,
  receipt: Parameters<typeof parseEventLogs>[0]["logs"],
) {
  const [log] = parseEventLogs({
    abi: manifest.abis.bridge,
    logs: receipt,
    eventName: "TransferDelivered",
  });
  return (log as unknown as { args: { receiveAmount: bigint } }).args.receiveAmount;
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`indexer: backfill and follow (${backend})`, () => {
    let devnet: TestDevnet;
    let manifest: DevnetManifest;
    let db: IsolatedDatabase;
    let alpha: ChainConnection;
    let beta: ChainConnection;
    let gamma: ChainConnection;
    let ix: TestIndexer;

    before(async () => {
      devnet = await setupDevnet();
      manifest = devnet.manifest;
      [alpha, beta, gamma] = ["alpha", "beta", "gamma"].map((n) => connectChain(manifest, n)) as [
        ChainConnection,
        ChainConnection,
        ChainConnection,
      ];
      db = await setupIsolatedDatabase(backend);
      ix = await openTestIndexer(db.databaseUrl, configOf(manifest, { maxBlockRange: 7 }));
    });
    after(async () => {
      await ix?.store.close();
      await db?.cleanup();
      await devnet?.cleanup();
    });

    async function assertRecord(t: MadeTransfer, outcome: Outcome) {
      const stored = (await ix.store.indexer.getTransfers([t.sent.messageId])).get(
        t.sent.messageId.toLowerCase(),
      );
      assert.ok(stored, `no record for ${t.sent.messageId}`);
      const { created_at, updated_at, ...fields } = stored;
      assert.deepEqual(fields, await expectedRecord(manifest, t, outcome));
      assert.match(created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      assert.ok(updated_at >= created_at, "updated_at >= created_at");
    }

    it("default: backfills every kind and outcome, then follows new transfers", async () => {
      const t1 = await sendTransfer(manifest, alpha, beta, 1, 1000n);
      const d1 = await deliver(manifest, t1);
      const t2 = await sendTransfer(manifest, alpha, gamma, 0, 250n, {
        userIndex: 2,
        recipientIndex: 3,
      });
      const t3 = await sendTransfer(manifest, beta, gamma, 2, 77n, { userIndex: 4 });
      const d3 = await deliver(manifest, t3);
      const t4 = await sendTransfer(manifest, gamma, alpha, 1, 10n, { failing: true });
      const f4 = await deliver(manifest, t4);
      await refund(manifest, t4);

      await indexUntilIdle(ix.indexer.chains);
      await assertRecord(t1, {
        status: "Success",
        receipt: d1,
        receiveAmount: receiveAmountOf(manifest, d1.logs),
      });
      await assertRecord(t2, { status: "Processing" });
      await assertRecord(t3, {
        status: "Success",
        receipt: d3,
        receiveAmount: receiveAmountOf(manifest, d3.logs),
      });
      await assertRecord(t4, { status: "Failed", receipt: f4 });

      // Following: a new send is Processing, its delivery makes it Success.
      const t5 = await sendTransfer(manifest, alpha, beta, 2, 5n);
      await indexUntilIdle(ix.indexer.chains);
      await assertRecord(t5, { status: "Processing" });
      const d5 = await deliver(manifest, t5);
      const d2 = await deliver(manifest, t2);
      await indexUntilIdle(ix.indexer.chains);
      await assertRecord(t5, {
        status: "Success",
        receipt: d5,
        receiveAmount: receiveAmountOf(manifest, d5.logs),
      });
      await assertRecord(t2, {
        status: "Success",
        receipt: d2,
        receiveAmount: receiveAmountOf(manifest, d2.logs),
      });

      const status = await ix.store.indexer.getIndexerStatus();
      assert.deepEqual(
        status.map((s) => [s.name, s.state, s.lag]),
        [
          ["alpha", "following", 0],
          ["beta", "following", 0],
          ["gamma", "following", 0],
        ],
      );
      for (const s of status) {
        const head = Number(await connectChain(manifest, s.name).client.getBlockNumber());
        assert.equal(s.cursorBlock, head);
      }
    });

    it("behavior: a delivery indexed before its send is applied when the send arrives", async () => {
      const t = await sendTransfer(manifest, alpha, beta, 1, 3n);
      const d = await deliver(manifest, t);
      const [ixAlpha, ixBeta] = ix.indexer.chains;
      while ((await ixBeta!.step()) !== "idle") {}
      assert.equal((await ix.store.indexer.getTransfers([t.sent.messageId])).size, 0);
      const raw = await ix.store.indexer.eventsOfMessages([t.sent.messageId.toLowerCase()]);
      assert.deepEqual(
        raw.map((e) => e.name),
        ["TransferDelivered"],
      );
      while ((await ixAlpha!.step()) !== "idle") {}
      await assertRecord(t, {
        status: "Success",
        receipt: d,
        receiveAmount: receiveAmountOf(manifest, d.logs),
      });
    });

    it("behavior: replaying every batch changes nothing, not even updated_at", async () => {
      const before = await dumpDatabase(db.databaseUrl, { timestamps: true });
      await ix.store.transaction(async (tx) => {
        for (const s of await tx.indexer.getIndexerStatus()) {
          await tx.indexer.moveCursor(s.chainId, s.cursorBlock, {
            cursorBlock: s.startBlock - 1,
            cursorHash: "",
            headBlock: s.headBlock,
            targetBlock: s.targetBlock,
            state: "backfill",
            updatedAt: s.updatedAt,
          });
        }
      });
      await indexUntilIdle(ix.indexer.chains);
      assert.deepEqual(await dumpDatabase(db.databaseUrl, { timestamps: true }), before);
    });
  });
}
