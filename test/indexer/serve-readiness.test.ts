/**
 * `serve` on a database an indexer writes to: /readyz carries the chains' status (indexed
 * block, head, lag, state) and is 503 when a chain stopped or lags; without indexer rows it
 * is the database check alone.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { run as serve } from "../../src/cli/serve.js";
import { formatUtc } from "../../src/domain/utc-time.js";
import { openDatabase } from "../../src/store/index.js";
import type { IndexerChainRow } from "../../src/store/indexer-repository.js";
import { freePort } from "../setup/free-port.js";

const nowUtc = () => formatUtc(Math.floor(Date.now() / 1000));

function chainRow(over: Partial<IndexerChainRow>): IndexerChainRow {
  return {
    chainId: 71001,
    name: "alpha",
    startBlock: 1,
    cursorBlock: 40,
    cursorHash: `0x${"11".repeat(32)}`,
    headBlock: 42,
    targetBlock: 42,
    state: "following",
    error: "",
    updatedAt: nowUtc(),
    ...over,
  };
}

/** Runs serve on a database holding `rows`, returns /readyz's status and body. */
interface ReadyzBody {
  code: number;
  msg: string;
  data: {
    database?: string;
    indexer?: { ready: boolean; chains: Record<string, string | number>[] };
  };
}

async function readyz(rows: IndexerChainRow[]): Promise<{ status: number; body: ReadyzBody }> {
  const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-readyz-"));
  const databaseUrl = join(dir, "db.sqlite");
  try {
    const store = await openDatabase(databaseUrl);
    for (const row of rows) await store.transaction((tx) => tx.indexer.ensureChain(row));
    await store.close();
    const port = await freePort();
    let stop: (signal: string) => void = () => {};
    const exitCode = serve([], {
      // DEVNET_DIR without a manifest: no router, so its readiness check does not interfere.
      env: { PORT: String(port), DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", DEVNET_DIR: dir },
      stopSignal: new Promise((resolve) => {
        stop = resolve;
      }),
    });
    try {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        if (response !== undefined)
          return { status: response.status, body: (await response.json()) as ReadyzBody };
        if (Date.now() > deadline) throw new Error("serve did not answer /readyz");
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      stop("SIGTERM");
      assert.equal(await exitCode, 0);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("bridge-oracle serve: /readyz with an indexer", () => {
  it("default: includes every chain's indexed block, head, lag and state", async () => {
    const { status, body } = await readyz([
      chainRow({}),
      chainRow({ chainId: 71002, name: "beta", cursorBlock: 90, headBlock: 90 }),
    ]);
    assert.equal(status, 200);
    assert.equal(body.data.database, "ok");
    assert.equal(body.data.indexer?.ready, true);
    assert.deepEqual(
      body.data.indexer?.chains.map((c) => [c.chain, c.indexedBlock, c.head, c.lag, c.state]),
      [
        ["alpha", 40, 42, 2, "following"],
        ["beta", 90, 90, 0, "following"],
      ],
    );
  });
  it("error: a stopped chain makes /readyz 503 naming the chain and why", async () => {
    const { status, body } = await readyz([
      chainRow({ state: "stopped", error: "reorg deeper than finalityDepth 64" }),
    ]);
    assert.equal(status, 503);
    assert.equal(body.code, 50301);
    assert.match(body.msg, /indexer: chain alpha stopped: reorg deeper than finalityDepth 64/);
  });
  it("error: a chain far behind its head is not ready", async () => {
    const { status, body } = await readyz([
      chainRow({ cursorBlock: 10, headBlock: 500, targetBlock: 500 }),
    ]);
    assert.equal(status, 503);
    assert.match(body.msg, /chain alpha is 490 blocks behind its confirmed head/);
  });
  it("behavior: a caught-up chain with 60 confirmations is ready at lag 0", async () => {
    // head - confirmations = target = cursor: 60 blocks below the head, and caught up.
    const { status, body } = await readyz([
      chainRow({ cursorBlock: 440, headBlock: 500, targetBlock: 440 }),
    ]);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(
      body.data.indexer?.chains.map((c) => [c.indexedBlock, c.head, c.lag]),
      [[440, 500, 0]],
    );
  });
  it("behavior: without indexer rows readiness is the database's alone", async () => {
    const { status, body } = await readyz([]);
    assert.equal(status, 200);
    assert.equal(body.data.database, "ok");
    assert.equal("indexer" in body.data, false);
  });
});
