/**
 * The indexer behind RPC endpoints that fail a few percent of calls, answer 429 with
 * Retry-After, hold answers past the client timeout and refuse large eth_getLogs spans: the
 * database must still equal a clean index row by row, and no log line may carry the
 * credentials of the RPC URLs.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { createIndexer } from "../../src/indexer/create-indexer.js";
import { openDatabase } from "../../src/store/index.js";
import { setupTwoChainDevnet, type TwoChainDevnet } from "../setup/anvil.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { type FaultyRpcProxy, startFaultyRpcProxy } from "../setup/faulty-rpc-proxy.js";
import {
  chainHeads,
  configOf,
  dumpCleanIndex,
  dumpDatabase,
  memoryLogger,
  waitUntilCaughtUp,
} from "./helpers.js";
import { deliver, deliverOftPackets, sendOmni, sendTransfer } from "./traffic.js";

const SECRETS = ["s3cretUser", "s3cretPassw0rd", "KEY0123456789abcdefKEY", "apikeyVALUE123"];

describe("indexer: faulty RPC", () => {
  let devnet: TwoChainDevnet;
  let manifest: DevnetManifest;
  let proxies: FaultyRpcProxy[] = [];
  const dbs: IsolatedDatabase[] = [];

  before(async () => {
    devnet = await setupTwoChainDevnet();
    manifest = devnet.manifest;
    const { alpha, beta } = devnet;
    for (let i = 0; i < 4; i++) {
      const t = await sendTransfer(manifest, alpha, beta, (i % 3) as 0 | 1 | 2, 10n + BigInt(i));
      if (i !== 3) await deliver(manifest, t);
      await sendTransfer(manifest, beta, alpha, 1, 30n + BigInt(i), { userIndex: 5 });
      // OFT traffic: its messaging fee is one eth_getTransactionByHash per send, faulted too.
      await sendOmni(manifest, i % 2 === 0 ? alpha : beta, i % 2 === 0 ? beta : alpha, i);
    }
    await deliverOftPackets(manifest);
    await sendOmni(manifest, alpha, beta, 4); // stays Processing
    proxies = await Promise.all(
      manifest.chains.map((c, i) =>
        startFaultyRpcProxy({
          upstream: c.rpcUrl,
          seed: 7 + i,
          failRate: 0.04,
          rateLimitRate: 0.02,
          retryAfterSeconds: 1,
          timeoutRate: 0.02,
          delayMs: 900,
          maxLogRange: 5,
        }),
      ),
    );
  });
  after(async () => {
    for (const p of proxies) await p.close();
    for (const db of dbs) await db.cleanup();
    await devnet?.cleanup();
  });

  it("behavior: the database equals a clean index despite every kind of fault", async () => {
    const live = await setupIsolatedDatabase("sqlite");
    dbs.push(live);
    const rpcUrls: Record<number, string> = {};
    manifest.chains.forEach((c, i) => {
      const u = new URL(proxies[i]!.url);
      rpcUrls[c.chainId] =
        `http://${SECRETS[0]}:${SECRETS[1]}@${u.host}/v3/${SECRETS[2]}?apikey=${SECRETS[3]}`;
    });
    const config = { ...configOf(manifest, { rpcUrls, maxBlockRange: 50 }), rpcTimeoutMs: 400 };
    const store = await openDatabase(live.databaseUrl);
    const logger = memoryLogger();
    const indexer = createIndexer({ config, store, logger });
    const controller = new AbortController();
    const running = indexer.run(controller.signal);
    const heads = await chainHeads(manifest);
    try {
      await waitUntilCaughtUp(indexer, heads, 45_000);
    } finally {
      // Also when it failed: a running indexer would keep the test process alive for good.
      controller.abort();
      await running;
      await store.close();
    }

    assert.deepEqual(
      await dumpDatabase(live.databaseUrl),
      await dumpCleanIndex(manifest, "sqlite"),
    );

    // Every fault happened, and credentials went out as Basic auth.
    const total = proxies.reduce(
      (acc, p) => ({
        failed: acc.failed + p.stats.failed,
        rateLimited: acc.rateLimited + p.stats.rateLimited,
        delayed: acc.delayed + p.stats.delayed,
        rangeRefused: acc.rangeRefused + p.stats.rangeRefused,
      }),
      { failed: 0, rateLimited: 0, delayed: 0, rangeRefused: 0 },
    );
    for (const [fault, count] of Object.entries(total))
      assert.ok(count > 0, `no ${fault} fault happened`);
    const basic = `Basic ${Buffer.from(`${SECRETS[0]}:${SECRETS[1]}`).toString("base64")}`;
    assert.ok(
      proxies.every((p) => [...p.authorizations].every((a) => a === basic)),
      "proxies.every((p) => [...p.authorizations].every((a) => a === basic))",
    );
    // Nothing logged carries a secret (and the faults were logged).
    const text = logger.lines.join("\n");
    for (const secret of SECRETS)
      assert.ok(!text.includes(secret), `log leaks ${secret}:\n${text}`);
    assert.ok(
      logger.lines.some((l) => l.includes("span refused")),
      text,
    );
  });
});
