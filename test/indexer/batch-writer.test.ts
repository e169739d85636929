/**
 * The SQLite store's grouped batch writes, on the main thread's connection and on the batch
 * worker: batches queued together are written in one transaction. A batch that fails (here:
 * its cursor moved) is rolled back alone, none of its rows stay, and the batches beside it
 * commit (the group is written again, one transaction per batch).
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import type { Hex } from "viem";
import { createBridgeRegistry } from "../../src/indexer/bridge-registry.js";
import { openIndexerStore } from "../../src/indexer/store/open-indexer-store.js";
import type { IndexedBatch } from "../../src/indexer/write-batch.js";
import type { BridgeEvent } from "../../src/store/bridge-event.js";
import { setupIsolatedDatabase } from "../setup/database.js";

const BRIDGE = "0x1111111111111111111111111111111111111111" as const;
const registry = createBridgeRegistry(
  [
    { name: "alpha", chainId: 71001, nativeSymbol: "ETH" },
    { name: "beta", chainId: 71002, nativeSymbol: "ETH" },
  ],
  [
    { kind: 1, chainId: 71001, address: BRIDGE, bridgeChainId: "101" },
    { kind: 1, chainId: 71002, address: BRIDGE, bridgeChainId: "102" },
  ],
);

const hex32 = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;

/** A batch of one delivery (no send stored: the event waits, no record is written). */
function batch(chainId: number, fromCursor: number, tag: number): IndexedBatch {
  const event: BridgeEvent = {
    chainId,
    blockNumber: fromCursor + 1,
    blockHash: hex32(tag),
    blockTime: 1_700_000_000,
    txHash: hex32(1000 + tag),
    logIndex: 0,
    address: BRIDGE,
    kind: 1,
    name: "TransferDelivered",
    messageId: hex32(2000 + tag),
    args: { messageId: hex32(2000 + tag), receiveAmount: "5" },
  };
  return {
    chainId,
    chainName: chainId === 71001 ? "alpha" : "beta",
    fromCursor,
    next: {
      cursorBlock: fromCursor + 1,
      cursorHash: hex32(tag),
      headBlock: fromCursor + 1,
      targetBlock: fromCursor + 1,
      state: "following",
      updatedAt: "2026-11-21 12:00:00",
    },
    events: [event],
    blocks: [{ number: fromCursor + 1, hash: hex32(tag), parentHash: hex32(tag + 1) }],
    pruneBelow: 0,
    tokens: [],
    now: "2026-11-21 12:00:00",
  };
}

for (const batchWorker of [false, true]) {
  describe(`indexer: SQLite grouped batch writes (${batchWorker ? "worker thread" : "main thread"})`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    });

    it("behavior: a failing batch of a group rolls back alone; the others commit", async () => {
      const db = await setupIsolatedDatabase("sqlite");
      cleanups.push(db.cleanup);
      const store = await openIndexerStore({ databaseUrl: db.databaseUrl, batchWorker });
      cleanups.push(() => store.close());
      for (const [chainId, name] of [
        [71001, "alpha"],
        [71002, "beta"],
      ] as const) {
        await store.transaction((tx) =>
          tx.indexer.ensureChain({
            chainId,
            name,
            startBlock: 10,
            cursorBlock: 9,
            cursorHash: "",
            headBlock: 0,
            targetBlock: 0,
            state: "starting",
            error: "",
            updatedAt: "2026-11-21 11:00:00",
          }),
        );
      }
      assert.ok(store.commitBatch !== undefined, "the SQLite store groups batches itself");
      // Queued together: alpha's is valid, beta's expects a cursor beta is not at.
      const results = await Promise.allSettled([
        store.commitBatch(batch(71001, 9, 1), registry.source),
        store.commitBatch(batch(71002, 41, 2), registry.source),
        store.commitBatch(batch(71001, 10, 3), registry.source),
      ]);
      assert.equal(results[0]!.status, "fulfilled");
      assert.equal(results[1]!.status, "rejected");
      assert.match(
        String((results[1] as PromiseRejectedResult).reason),
        /chain beta: cursor moved by another writer/,
      );
      // Alpha's second batch continues from its first: the group's batches see each other.
      assert.equal(results[2]!.status, "fulfilled");

      const file = new Database(db.databaseUrl, { readonly: true });
      try {
        assert.deepEqual(
          file.prepare("SELECT chain_id, cursor_block FROM indexer_chains ORDER BY chain_id").all(),
          [
            { chain_id: 71001, cursor_block: 11 },
            { chain_id: 71002, cursor_block: 9 },
          ],
        );
        assert.deepEqual(
          file.prepare("SELECT chain_id, block_number FROM raw_events ORDER BY block_number").all(),
          [
            { chain_id: 71001, block_number: 10 },
            { chain_id: 71001, block_number: 11 },
          ],
        );
        assert.deepEqual(
          file.prepare("SELECT chain_id FROM indexer_blocks ORDER BY block_number").all(),
          [{ chain_id: 71001 }, { chain_id: 71001 }],
        );
      } finally {
        file.close();
      }
    });
  });
}
