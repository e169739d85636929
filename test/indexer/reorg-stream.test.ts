/**
 * The stream through a chain reorganisation (docs/push.md), the indexer writing on its own
 * connection and the API streaming on another: a reorg that orphans a delivery shows the record
 * back in Processing; one that orphans the send shows it `removed`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/api/app.js";
import { TRANSFER_STREAM_PATH } from "../../src/api/routes/transfer-stream.js";
import { loadConfig } from "../../src/config/env.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { createStore } from "../../src/store/index.js";
import type { Store } from "../../src/store/types.js";
import { type ChainConnection, setupTwoChainDevnet, type TwoChainDevnet } from "../setup/anvil.js";
import { listenOnLoopback } from "../setup/listen.js";
import { openSse, type SseConnection } from "../setup/sse-client.js";
import { height, mine, revertTo, snapshot } from "./chain-control.js";
import { configOf, indexUntilIdle, openIsolatedIndexer } from "./helpers.js";
import { deliver, sendTransfer } from "./traffic.js";

const statusOf = (data: string) => JSON.parse(data).status as string;

describe("stream: reorganisations", () => {
  let devnet: TwoChainDevnet;
  let manifest: DevnetManifest;
  let alpha: ChainConnection;
  let beta: ChainConnection;
  const cleanups: (() => Promise<void>)[] = [];

  before(async () => {
    devnet = await setupTwoChainDevnet();
    ({ manifest, alpha, beta } = devnet);
  });
  after(async () => {
    for (const c of cleanups.reverse()) await c();
    await devnet?.cleanup();
  });

  async function setup(backend: "sqlite" | "postgres") {
    const { ix, db } = await openIsolatedIndexer(backend, configOf(manifest), cleanups);
    const store: Store = await createStore({ databaseUrl: db.databaseUrl });
    const app: FastifyInstance = await buildApp({
      config: loadConfig({ LOG_LEVEL: "silent" }),
      store,
    });
    const { baseUrl } = await listenOnLoopback(app);
    const streams: SseConnection[] = [];
    cleanups.push(async () => {
      for (const s of streams) s.close();
      await app.close();
      await store.close();
    });
    await indexUntilIdle(ix.indexer.chains);
    const follow = async (addressOrTxHash: string) => {
      const stream = await openSse(
        `${baseUrl}${TRANSFER_STREAM_PATH}?addressOrTxHash=${addressOrTxHash}`,
      );
      streams.push(stream);
      await stream.waitFor((e) => e.event === "ready");
      return stream;
    };
    return { ix, follow };
  }

  it("behavior: a reorg that orphans the delivery streams the record back in Processing (sqlite)", async () => {
    const { ix, follow } = await setup("sqlite");
    const t = await sendTransfer(manifest, alpha, beta, 1, 8n, { userIndex: 6 });
    const stream = await follow(t.sent.messageId);
    await indexUntilIdle(ix.indexer.chains);
    await stream.waitFor((e) => e.event === "transfer" && statusOf(e.data) === "Processing");
    const id = await snapshot(beta);
    const start = await height(beta);
    await deliver(manifest, t);
    await mine(beta, 2);
    await indexUntilIdle(ix.indexer.chains);
    await stream.waitFor((e) => e.event === "transfer" && statusOf(e.data) === "Success");
    const seen = stream.events.length;
    await revertTo(beta, id);
    // The canonical chain: longer than the orphaned branch, without the delivery.
    await mine(beta, start + 5 - (await height(beta)));
    await indexUntilIdle(ix.indexer.chains);
    const reverted = await stream.waitFor((e) => e.event === "transfer", 10_000, seen);
    const statuses = stream.events
      .filter((e) => e.event === "transfer")
      .map((e) => statusOf(e.data));
    assert.deepEqual(statuses, ["Processing", "Success", "Processing"]);
    const record = JSON.parse(reverted.data);
    assert.equal(record.status, "Processing");
    assert.equal(record.dest_tx_hash, "");
    assert.equal(record.end_time, "");
  });

  it("behavior: a reorg that orphans the send streams `removed` (postgres)", async () => {
    const { ix, follow } = await setup("postgres");
    const id = await snapshot(alpha);
    const start = await height(alpha);
    const t = await sendTransfer(manifest, alpha, beta, 1, 7n, { userIndex: 5 });
    const stream = await follow(t.sent.messageId);
    await mine(alpha, 2);
    await indexUntilIdle(ix.indexer.chains);
    await stream.waitFor((e) => e.event === "transfer" && statusOf(e.data) === "Processing");
    await revertTo(alpha, id);
    await mine(alpha, start + 5 - (await height(alpha)));
    await indexUntilIdle(ix.indexer.chains);
    const removed = await stream.waitFor((e) => e.event === "removed");
    assert.equal(JSON.parse(removed.data).message_id, t.sent.messageId.toLowerCase());
    assert.deepEqual(
      stream.events.filter((e) => e.event !== "ready").map((e) => e.event),
      ["transfer", "removed"],
    );
  });
});
