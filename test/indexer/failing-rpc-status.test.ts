/**
 * A chain whose RPC fails shows it in its row: `index --status` and /readyz say the chain is
 * not ready and why (the RPC error), instead of a fresh "starting" row with lag 0 reading as
 * ready. The next successful step clears the error. The RPC is a stub chain of ten empty blocks
 * that can be switched to answering 503.
 */
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, it } from "node:test";
import { summariseIndexerStatus } from "../../src/api/indexer-readiness.js";
import { createChainClient } from "../../src/chain/create-chain-client.js";
import { parseIndexerConfig } from "../../src/config/indexer-config.js";
import { createIndexer } from "../../src/indexer/create-indexer.js";
import { openDatabase } from "../../src/store/index.js";
import { setupIsolatedDatabase } from "../setup/database.js";
import { eventually, waitForValue } from "../setup/eventually.js";
import { memoryLogger } from "./helpers.js";

const CHAIN_ID = 71001;
const HEAD = 10;
const hashOf = (n: number) => `0x${(n + 1).toString(16).padStart(64, "0")}`;

/**
 * A JSON-RPC chain of HEAD empty blocks; `failing` makes every call a 503; `hold()` keeps every
 * call arriving from then on unanswered until `release()` (a slow node), `heldSince` being when
 * the first of them arrived.
 */
async function startStubChain() {
  const state = { failing: true, calls: 0, heldSince: undefined as number | undefined };
  let held: Promise<void> | undefined;
  let release = () => {};
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      state.calls++;
      if (held !== undefined) {
        state.heldSince ??= Date.now();
        await held;
      }
      if (state.failing) {
        res.statusCode = 503;
        res.end("unavailable");
        return;
      }
      const { id, method, params } = JSON.parse(body) as {
        id: number;
        method: string;
        params: unknown[];
      };
      let result: unknown;
      if (method === "eth_chainId") result = `0x${CHAIN_ID.toString(16)}`;
      else if (method === "eth_blockNumber") result = `0x${HEAD.toString(16)}`;
      else if (method === "eth_getLogs") result = [];
      else if (method === "eth_getBlockByNumber") {
        const n = Number(params[0]);
        result =
          n > HEAD
            ? null
            : {
                number: `0x${n.toString(16)}`,
                hash: hashOf(n),
                parentHash: n === 0 ? `0x${"0".repeat(64)}` : hashOf(n - 1),
                timestamp: `0x${(1_700_000_000 + n).toString(16)}`,
              };
      }
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    state,
    url,
    hold() {
      held ??= new Promise((resolve) => {
        release = resolve;
      });
    },
    release() {
      release();
      held = undefined;
      state.heldSince = undefined;
    },
    close: () => {
      release();
      return new Promise((r) => server.close(r));
    },
  };
}

/** An indexer config of one chain, alpha, on the stub chain at `rpcUrl`, polled every 20 ms. */
function stubChainConfig(rpcUrl: string) {
  return parseIndexerConfig({
    chains: [
      {
        name: "alpha",
        chainId: CHAIN_ID,
        rpcUrl,
        confirmations: 0,
        bridges: { "0": "0x1111111111111111111111111111111111111111" },
        bridgeChainIds: { "0": String(CHAIN_ID) },
      },
    ],
    indexer: { pollIntervalMs: 20 },
  });
}

/** Polls `read` until `done` holds (10 s at most), returning the last value read. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 200 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

/** A stub chain, an isolated SQLite store and an abort controller for `test`; all closed after. */
async function withStubIndexer(
  test: (fixture: {
    stub: Awaited<ReturnType<typeof startStubChain>>;
    store: Awaited<ReturnType<typeof openDatabase>>;
    controller: AbortController;
  }) => Promise<void>,
): Promise<void> {
  const stub = await startStubChain();
  const db = await setupIsolatedDatabase("sqlite");
  const store = await openDatabase(db.databaseUrl);
  const controller = new AbortController();
  try {
    await test({ stub, store, controller });
  } finally {
    controller.abort();
    await store.close();
    await db.cleanup();
    await stub.close();
  }
}

describe("indexer: a failing RPC in the chain's status", () => {
  it("behavior: a step that runs long (a slow or retried RPC) keeps the row's updated_at moving", async () => {
    // Regression: a step retrying an RPC that never answered took about 65 s without writing
    // the row, so status alternated between "retrying" and "has not been updated for 63 s"
    // (not running) for a live indexer.
    await withStubIndexer(async ({ stub, store, controller }) => {
      stub.state.failing = false;
      const config = stubChainConfig(stub.url);
      const indexer = createIndexer({ config, store, logger: memoryLogger(), heartbeatMs: 100 });
      const running = indexer.run(controller.signal);
      const row = async () => (await store.indexer.getIndexerStatus())[0];
      await until(row, (r) => r?.state === "following" && r.cursorBlock === HEAD);

      // No call is answered any more: the next step waits on it (eth_blockNumber) for good.
      stub.hold();
      const slowFrom = await waitForValue(async () => stub.state.heldSince);
      // While it waits, the heartbeat moves updated_at (whole seconds: a second past slowFrom
      // is a stamp at least 1 s into the wait); no error: the call has not timed out (10 s).
      await eventually(8000, async () => {
        const during = await row();
        const updatedMs = Date.parse(`${during?.updatedAt.replace(" ", "T")}Z`);
        assert.equal(during?.error, "");
        assert.ok(
          updatedMs >= slowFrom + 1000,
          `updated_at ${during?.updatedAt} is not after the slow step began (${new Date(slowFrom).toISOString()})`,
        );
      });
      stub.release();
      controller.abort();
      await running;
    });
  });

  it("error: a step that does not finish is reported as stuck, not kept ready by the heartbeat", async () => {
    // Regression: a step waiting on a connection that went silent (then: a stalled PostgreSQL
    // proxy, before the silence check; still: whatever has no verdict or bound) never finished,
    // and the heartbeat kept the row fresh, so --status and /readyz showed the chain
    // "following, lag 0" and ready for good. Here the wait is a slow RPC; the stuck bound is
    // shortened to 500 ms.
    await withStubIndexer(async ({ stub, store, controller }) => {
      stub.state.failing = false;
      const logger = memoryLogger();
      const config = stubChainConfig(stub.url);
      const indexer = createIndexer({ config, store, logger, heartbeatMs: 100, stuckStepMs: 500 });
      const running = indexer.run(controller.signal);
      const rows = () => store.indexer.getIndexerStatus();
      await until(rows, (r) => r[0]?.state === "following" && r[0].cursorBlock === HEAD);

      stub.hold();
      const stuck = await until(rows, (r) => r[0]?.error !== "");
      const summary = summariseIndexerStatus(stuck);
      assert.equal(summary.ready, false);
      assert.match(summary.reason, /chain alpha is retrying: a step has been running for \d+ s/);
      assert.ok(
        logger.lines.some((line) => line.includes("a step has been running for")),
        'logger.lines.some((line) => line.includes("a step has been running for"))',
      );

      stub.release();
      const cleared = await until(rows, (r) => r[0]?.error === "");
      assert.equal(summariseIndexerStatus(cleared).ready, true);
      controller.abort();
      await running;
    });
  });

  it("error: a chain whose RPC has not answered is not ready and names the RPC error; the first good step clears it", async () => {
    // Regression: the row stayed "starting" with lag 0 and no error, so /readyz answered ready
    // for a chain that had indexed nothing.
    await withStubIndexer(async ({ stub, store, controller }) => {
      const config = stubChainConfig(stub.url);
      const client = createChainClient({
        rpcUrl: stub.url,
        chainId: CHAIN_ID,
        retry: { attempts: 1 },
      });
      const indexer = createIndexer({
        config,
        store,
        logger: memoryLogger(),
        clients: new Map([[CHAIN_ID, client]]),
      });
      const running = indexer.run(controller.signal);
      const summary = async () => summariseIndexerStatus(await store.indexer.getIndexerStatus());

      const failing = await until(summary, (s) => (s.chains[0]?.error ?? "") !== "");
      assert.equal(failing.ready, false);
      assert.equal(failing.chains[0]?.state, "starting");
      assert.match(
        failing.reason,
        /^chain alpha is starting: chain 71001.s RPC: eth_chainId failed \(HTTP 503; the indexer log has the details\)$/,
      );
      assert.equal(indexer.status()[0]?.error, failing.chains[0]?.error);
      assert.doesNotMatch(JSON.stringify(failing), /127\.0\.0\.1|unavailable/);

      stub.state.failing = false;
      const healthy = await until(summary, (s) => s.ready);
      assert.equal(healthy.ready, true, healthy.reason);
      assert.equal(healthy.chains[0]?.state, "following");
      assert.equal(healthy.chains[0]?.indexedBlock, HEAD);
      assert.equal(healthy.chains[0]?.error, "");
      assert.equal(indexer.status()[0]?.error, "");

      // An outage while following: the row says the chain is retrying, and why.
      stub.state.failing = true;
      const retrying = await until(summary, (s) => !s.ready);
      assert.equal(retrying.chains[0]?.state, "following");
      assert.match(
        retrying.reason,
        /^chain alpha is retrying: chain 71001's RPC: .* failed \(HTTP 503;/,
      );
      // What /readyz shows anyone: no RPC URL, nothing the node sent back.
      assert.doesNotMatch(JSON.stringify(retrying), /127\.0\.0\.1|unavailable/);
      controller.abort();
      await running;
    });
  });
});
