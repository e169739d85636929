/**
 * Reorganisations made with anvil's evm_snapshot / evm_revert: the orphaned blocks hold a send
 * in some cases and a delivery in others. After the indexer follows the new chain, its database
 * must equal a clean index of the canonical chains row by row. A reorg deeper than the
 * configured finality stops the chain's indexer loudly.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { summariseIndexerStatus } from "../../src/api/indexer-readiness.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { WrongChainError } from "../../src/indexer/chain-indexer.js";
import { ReorgTooDeepError } from "../../src/indexer/find-common-ancestor.js";
import { type ChainConnection, setupTwoChainDevnet, type TwoChainDevnet } from "../setup/anvil.js";
import type { DatabaseBackend, IsolatedDatabase } from "../setup/database.js";
import { height, mine, revertTo, snapshot, startRpcProxy } from "./chain-control.js";
import {
  configOf,
  dumpCleanIndex,
  dumpDatabase,
  indexUntilIdle,
  openIsolatedIndexer,
  openTestIndexer,
} from "./helpers.js";
import { deliver, deliverOftPackets, sendOmni, sendTransfer } from "./traffic.js";

interface ReorgCase {
  depth: number;
  removes: "send" | "delivery";
  backend: "sqlite" | "postgres";
  /** Whose transfer the orphaned blocks hold: the reference bridge's (default) or an OFT's. */
  protocol?: "layerzero-oft";
}

const CASES: ReorgCase[] = [
  { depth: 1, removes: "delivery", backend: "sqlite" },
  { depth: 3, removes: "send", backend: "sqlite" },
  { depth: 3, removes: "send", backend: "postgres" },
  { depth: 10, removes: "send", backend: "sqlite" },
  { depth: 10, removes: "delivery", backend: "postgres" },
  { depth: 64, removes: "delivery", backend: "sqlite" },
  { depth: 3, removes: "send", backend: "sqlite", protocol: "layerzero-oft" },
  { depth: 5, removes: "delivery", backend: "postgres", protocol: "layerzero-oft" },
];

describe("indexer: reorganisations", () => {
  let devnet: TwoChainDevnet;
  let manifest: DevnetManifest;
  let alpha: ChainConnection;
  let beta: ChainConnection;
  const cleanups: (() => Promise<void>)[] = [];

  before(async () => {
    devnet = await setupTwoChainDevnet();
    ({ manifest, alpha, beta } = devnet);
    assert.ok(manifest.layerzero !== undefined, "the devnet runs LayerZero");
    // Some history every case starts from.
    const t = await sendTransfer(manifest, alpha, beta, 1, 100n);
    await deliver(manifest, t);
    await sendTransfer(manifest, beta, alpha, 2, 9n);
  });
  after(async () => {
    for (const c of cleanups.reverse()) await c();
    await devnet?.cleanup();
  });

  const indexer = (backend: DatabaseBackend, finalityDepth = 64) =>
    openIsolatedIndexer(backend, configOf(manifest, { finalityDepth }), cleanups);

  async function assertEqualsCleanIndex(live: IsolatedDatabase, backend: DatabaseBackend) {
    assert.deepEqual(await dumpDatabase(live.databaseUrl), await dumpCleanIndex(manifest, backend));
  }

  for (const c of CASES) {
    const what = c.protocol === undefined ? c.removes : `${c.protocol} ${c.removes}`;
    it(`behavior: a reorg of depth ${c.depth} removing a ${what} (${c.backend})`, async () => {
      const { ix, db } = await indexer(c.backend);
      await indexUntilIdle(ix.indexer.chains);
      let messageId: string;
      let reorged: ChainConnection;
      if (c.removes === "send") {
        reorged = alpha;
        const id = await snapshot(alpha);
        const start = await height(alpha);
        if (c.protocol === "layerzero-oft") {
          messageId = await sendOmni(manifest, alpha, beta, 5);
        } else {
          const t = await sendTransfer(manifest, alpha, beta, 1, 7n, { userIndex: 5 });
          messageId = t.sent.messageId.toLowerCase();
        }
        await mine(alpha, start + c.depth - (await height(alpha)));
        assert.equal(await height(alpha), start + c.depth);
        await indexUntilIdle(ix.indexer.chains);
        assert.equal(
          (await ix.store.indexer.getTransfers([messageId])).get(messageId)?.status,
          "Processing",
        );
        await revertTo(alpha, id);
      } else {
        reorged = beta;
        const oft = c.protocol === "layerzero-oft";
        const t = oft
          ? undefined
          : await sendTransfer(manifest, alpha, beta, 1, 8n, { userIndex: 6 });
        messageId =
          t === undefined
            ? await sendOmni(manifest, alpha, beta, 6)
            : t.sent.messageId.toLowerCase();
        await indexUntilIdle(ix.indexer.chains);
        const id = await snapshot(beta);
        const start = await height(beta);
        if (t === undefined) await deliverOftPackets(manifest);
        else await deliver(manifest, t);
        await mine(beta, start + c.depth - (await height(beta)));
        assert.equal(await height(beta), start + c.depth);
        await indexUntilIdle(ix.indexer.chains);
        assert.equal(
          (await ix.store.indexer.getTransfers([messageId])).get(messageId)?.status,
          "Success",
        );
        await revertTo(beta, id);
      }
      // The canonical chain: other content, one block longer than the orphaned branch.
      await sendTransfer(manifest, reorged, reorged === alpha ? beta : alpha, 2, 5n, {
        userIndex: 7,
      });
      await mine(reorged, 1 + c.depth - 2);
      await indexUntilIdle(ix.indexer.chains);
      const after = (await ix.store.indexer.getTransfers([messageId])).get(messageId);
      if (c.removes === "send") assert.equal(after, undefined);
      else assert.equal(after?.status, "Processing");
      assert.ok(
        ix.logger.lines.some((l) => l.includes("reorg: rolled back")),
        ix.logger.lines.join("\n"),
      );
      await assertEqualsCleanIndex(db, c.backend);
    });
  }

  it("behavior: a rollback leaves the cursor and the stored block hashes at the canonical ancestor", async () => {
    // Checked right after the rollback step, before later batches overwrite the cursor and the
    // block hashes: the next batch's parent-hash check needs the ancestor's hash, and hashes of
    // orphaned blocks must not stay behind for a later reorg check to compare.
    const { ix } = await indexer("sqlite");
    await indexUntilIdle(ix.indexer.chains);
    const id = await snapshot(alpha);
    await sendTransfer(manifest, alpha, beta, 1, 3n, { userIndex: 5 });
    await mine(alpha, 3);
    await indexUntilIdle(ix.indexer.chains);
    const orphanedTop = await height(alpha);
    await revertTo(alpha, id);
    await sendTransfer(manifest, alpha, beta, 2, 4n, { userIndex: 7 });
    await mine(alpha, 4);
    const ixAlpha = ix.indexer.chains.find((c) => c.status().chainId === alpha.chain.chainId)!;
    let outcome = await ixAlpha.step();
    for (let i = 0; i < 5 && outcome !== "reorg"; i++) outcome = await ixAlpha.step();
    assert.equal(outcome, "reorg");
    const row = (await ix.store.indexer.getChain(alpha.chain.chainId))!;
    assert.ok(row.cursorBlock < orphanedTop, "row.cursorBlock < orphanedTop");
    const canonical = await alpha.client.getBlock({ blockNumber: BigInt(row.cursorBlock) });
    assert.equal(row.cursorHash, canonical.hash);
    const [highest] = await ix.store.indexer.blocksDescending(alpha.chain.chainId, orphanedTop, 1);
    assert.deepEqual(
      { number: highest?.number, hash: highest?.hash },
      { number: row.cursorBlock, hash: canonical.hash },
    );
  });

  it("error: a reorg deeper than finalityDepth stops the chain loudly", async () => {
    const { ix, db } = await indexer("sqlite", 5);
    await indexUntilIdle(ix.indexer.chains);
    const id = await snapshot(alpha);
    await sendTransfer(manifest, alpha, beta, 1, 2n, { userIndex: 5 });
    await mine(alpha, 8);
    await indexUntilIdle(ix.indexer.chains);
    await revertTo(alpha, id);
    await mine(alpha, 12);
    const [ixAlpha] = ix.indexer.chains;
    await assert.rejects(ixAlpha!.run(new AbortController().signal), (error: unknown) => {
      assert.ok(error instanceof ReorgTooDeepError, "error instanceof ReorgTooDeepError");
      assert.match(error.message, /chain alpha: reorg deeper than finalityDepth 5/);
      return true;
    });
    const [status] = await ix.store.indexer.getIndexerStatus();
    assert.equal(status?.state, "stopped");
    assert.match(status?.error ?? "", /reorg deeper than finalityDepth/);
    assert.ok(
      ix.logger.lines.some((l) => l.startsWith("error chain alpha: reorg deeper")),
      'ix.logger.lines.some((l) => l.startsWith("error chain alpha: reorg deeper"))',
    );
    void db;
  });

  it("error: a reorg deeper than finalityDepth during a backfill's eth_getLogs stops the chain instead of hiding under the new chain", async () => {
    const base = await height(alpha);
    const id = await snapshot(alpha);
    await sendTransfer(manifest, alpha, beta, 1, 3n, { userIndex: 6 });
    await mine(alpha, 30);
    // A proxy in front of alpha that, on the first eth_getLogs reaching past base + 15, answers
    // with the logs it got and only then reorganises the node (revert to base, 60 new blocks):
    // the logs are of the orphaned chain, every header read afterwards is of the new one.
    let reorganised = false;
    const proxy = await startRpcProxy(alpha.chain.rpcUrl, async (calls, _answers, send) => {
      const late = calls.some(
        (c) =>
          c.method === "eth_getLogs" &&
          Number((c.params?.[0] as { toBlock?: string } | undefined)?.toBlock ?? 0) > base + 15,
      );
      if (late && !reorganised) {
        reorganised = true;
        await send({ jsonrpc: "2.0", id: 1, method: "evm_revert", params: [id] });
        await send({ jsonrpc: "2.0", id: 2, method: "anvil_mine", params: ["0x3c"] });
      }
    });
    try {
      const config = configOf(manifest, {
        finalityDepth: 5,
        maxBlockRange: 10,
        rpcUrls: { [alpha.chain.chainId]: proxy.url },
      });
      const { ix } = await openIsolatedIndexer("sqlite", config, cleanups);
      const [ixAlpha] = ix.indexer.chains;
      const controller = new AbortController();
      const outcome = await Promise.race([
        ixAlpha!.run(controller.signal).then(
          () => "returned",
          (error: unknown) => error,
        ),
        new Promise((resolve) => setTimeout(() => resolve("still running"), 30_000)),
      ]);
      controller.abort();
      assert.ok(reorganised, "the proxy reorganised the chain");
      assert.ok(
        outcome instanceof ReorgTooDeepError,
        `expected a loud stop, got ${String(outcome)}`,
      );
      const [status] = await ix.store.indexer.getIndexerStatus();
      assert.equal(status?.state, "stopped");
    } finally {
      await proxy.close();
    }
  });

  it("behavior: an RPC that falls behind the indexed block is waited for, not taken for a reorg", async () => {
    // A proxy that, when lagging, reports the head 5 blocks low and has no block above it.
    let lagging = false;
    const proxy = await startRpcProxy(alpha.chain.rpcUrl, async (calls, answers) => {
      if (!lagging) return;
      const real = await height(alpha);
      calls.forEach((call, k) => {
        const out = answers[k]!;
        if (call.method === "eth_blockNumber") out.result = `0x${(real - 5).toString(16)}`;
        if (call.method === "eth_getBlockByNumber" && Number(call.params?.[0]) > real - 5) {
          out.result = null;
        }
      });
    });
    try {
      const config = configOf(manifest, {
        rpcUrls: { [alpha.chain.chainId]: proxy.url },
      });
      const { ix, db } = await openIsolatedIndexer("sqlite", config, cleanups);
      await indexUntilIdle(ix.indexer.chains);
      const before = await dumpDatabase(db.databaseUrl);
      lagging = true;
      const [ixAlpha] = ix.indexer.chains;
      for (let i = 0; i < 5; i++) await ixAlpha!.step();
      lagging = false;
      await indexUntilIdle(ix.indexer.chains);
      assert.ok(
        !ix.logger.lines.some((l) => l.includes("reorg")),
        ix.logger.lines.filter((l) => l.includes("reorg")).join("\n"),
      );
      assert.deepEqual(await dumpDatabase(db.databaseUrl), before);
    } finally {
      await proxy.close();
    }
  });

  it("behavior: a shorter replacement chain (its head below the indexed block) is rolled back at once, not waited for", async () => {
    // Regression: with no block at the cursor the idle poll waited, so a reset node (a restarted
    // devnet) showed the orphaned transfers as following and ready until it grew past the cursor.
    const { ix, db } = await indexer("sqlite");
    await indexUntilIdle(ix.indexer.chains);
    const id = await snapshot(alpha);
    const t = await sendTransfer(manifest, alpha, beta, 1, 4n, { userIndex: 5 });
    const messageId = t.sent.messageId.toLowerCase();
    await mine(alpha, 6);
    await indexUntilIdle(ix.indexer.chains);
    assert.ok(
      (await ix.store.indexer.getTransfers([messageId])).has(messageId),
      "(await ix.store.indexer.getTransfers([messageId])).has(messageId)",
    );
    const cursor = (await ix.store.indexer.getChain(alpha.chain.chainId))!.cursorBlock;
    await revertTo(alpha, id);
    await mine(alpha, 2);
    assert.ok((await height(alpha)) < cursor, "the new chain is shorter than the indexed one");
    await indexUntilIdle(ix.indexer.chains);
    assert.equal((await ix.store.indexer.getTransfers([messageId])).get(messageId), undefined);
    assert.ok(
      ix.logger.lines.some((l) => l.includes("reorg: rolled back")),
      ix.logger.lines.join("\n"),
    );
    await assertEqualsCleanIndex(db, "sqlite");
  });

  it("error: a node below every stored block is not ready and says why, instead of following", async () => {
    // finalityDepth 3: block hashes more than 3 below the cursor are pruned, so a node reset to
    // far below the cursor cannot be compared with anything stored.
    const { ix } = await indexer("sqlite", 3);
    await indexUntilIdle(ix.indexer.chains);
    const id = await snapshot(alpha);
    await mine(alpha, 12);
    await indexUntilIdle(ix.indexer.chains);
    await revertTo(alpha, id);
    await indexUntilIdle(ix.indexer.chains);
    const rows = await ix.store.indexer.getIndexerStatus();
    const summary = summariseIndexerStatus(rows);
    assert.equal(summary.ready, false);
    assert.match(
      summary.reason,
      /chain alpha is retrying: the node's head \d+ is below the indexed block \d+ and below every stored block hash/,
    );
    assert.equal(ix.indexer.chains[0]!.status().state, "following");
  });

  it("error: an rpcUrl serving another chain stops that chain loudly, its head kept", async () => {
    // First indexed with the right rpcUrl, as when an operator later points it elsewhere.
    const { ix: before, db } = await indexer("sqlite");
    await indexUntilIdle(before.indexer.chains);
    const known = await before.store.indexer.getChain(alpha.chain.chainId);
    assert.ok(
      known !== undefined && known.headBlock > 0,
      "known !== undefined && known.headBlock > 0",
    );
    const config = configOf(manifest, { rpcUrls: { [alpha.chain.chainId]: beta.chain.rpcUrl } });
    const ix = await openTestIndexer(db.databaseUrl, config);
    cleanups.push(async () => {
      await ix.store.close();
    });
    const [ixAlpha] = ix.indexer.chains;
    await assert.rejects(ixAlpha!.run(new AbortController().signal), (error: unknown) => {
      assert.ok(error instanceof WrongChainError, "error instanceof WrongChainError");
      assert.match(
        error.message,
        /chain alpha: its rpcUrl serves chain id 71002, not the configured 71001/,
      );
      return true;
    });
    const [status] = await ix.store.indexer.getIndexerStatus();
    assert.equal(status?.state, "stopped");
    // It stopped before reading a head of its own: the row keeps the last one known, so
    // --status and bridge_oracle_indexer_head_block do not drop to 0.
    assert.equal(status?.headBlock, known.headBlock);
    assert.equal(status?.cursorBlock, known.cursorBlock);
  });
});
