/**
 * Stopping the indexer (SIGTERM in `bridge-oracle index`) while an RPC keeps answering 429
 * with a long Retry-After: the clients' retry waits end with the stop, so `run` returns within
 * about one RPC timeout instead of waiting the retries out.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseIndexerConfig } from "../../src/config/indexer-config.js";
import { createIndexer } from "../../src/indexer/create-indexer.js";
import { openDatabase } from "../../src/store/index.js";
import { setupIsolatedDatabase } from "../setup/database.js";
import { eventually } from "../setup/eventually.js";
import { startFaultyRpcProxy } from "../setup/faulty-rpc-proxy.js";
import { memoryLogger } from "./helpers.js";

describe("indexer: stopping", () => {
  it("behavior: a stop ends the RPC retry waits (429 with Retry-After 30 s)", async () => {
    const proxy = await startFaultyRpcProxy({
      upstream: "http://127.0.0.1:1",
      rateLimitRate: 1,
      retryAfterSeconds: 30,
    });
    const db = await setupIsolatedDatabase("sqlite");
    const store = await openDatabase(db.databaseUrl);
    try {
      const config = parseIndexerConfig({
        chains: [
          {
            name: "alpha",
            chainId: 71001,
            rpcUrl: proxy.url,
            bridges: { "0": "0x1111111111111111111111111111111111111111" },
            bridgeChainIds: { "0": "71001" },
          },
        ],
        indexer: { rpcTimeoutMs: 1000, pollIntervalMs: 20 },
      });
      const indexer = createIndexer({ config, store, logger: memoryLogger() });
      const controller = new AbortController();
      const running = indexer.run(controller.signal).catch(() => undefined);
      // Until the first call was refused: its 30 s wait (the Retry-After) begins with the answer.
      await eventually(10_000, () =>
        assert.ok(proxy.stats.rateLimited > 0, "the RPC refused calls"),
      );
      const stoppedAt = performance.now();
      controller.abort();
      await running;
      const ms = performance.now() - stoppedAt;
      assert.ok(ms < 5000, `run returned ${Math.round(ms)} ms after the stop`);
    } finally {
      await store.close();
      await db.cleanup();
      await proxy.close();
    }
  });
});
