/**
 * `kill -9` of an indexer process at seeded random moments (mid-batch included: batches are
 * tiny, so the process is almost always inside one), each followed by a restart; before each
 * start the chains get new transfers and blocks, so in a long loop the later kills too can land
 * while there is work to do (about half do; the others hit an indexer following the head). At
 * the end the database must equal a clean index row by row.
 * CI runs a short loop on SQLite and one on PostgreSQL; `npm run test:crash-loop -- --loops N
 * [--seed S] [--store sqlite|postgres|both]` (scripts/crash-loop.mjs: INDEXER_KILL_LOOPS,
 * INDEXER_KILL_SEED, INDEXER_KILL_STORES) a long one. Also: SIGTERM stops the CLI cleanly with
 * exit 0.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { createPrng } from "../../src/transfers/prng.js";
import { setupTwoChainDevnet, type TwoChainDevnet } from "../setup/anvil.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { waitForValue } from "../setup/eventually.js";
import { height, mine } from "./chain-control.js";
import {
  configOf,
  dumpCleanIndex,
  dumpDatabase,
  indexUntilIdle,
  openTestIndexer,
  readCursors,
  storedCursorsBelow,
} from "./helpers.js";
import {
  exited,
  spawnIndexChild,
  startChild,
  startWatchedChild,
  waitFor,
  writeChildConfig,
} from "./index-child-process.js";
import { addRoundOfWork, deliver, deliverOftPackets, sendOmni, sendTransfer } from "./traffic.js";

const LOOPS = Number(process.env.INDEXER_KILL_LOOPS ?? 4);
const SEED = Number(process.env.INDEXER_KILL_SEED ?? 20261121);
/** The stores the loop runs on, one after the other on the same chains (`npm test`: both). */
const STORES = (process.env.INDEXER_KILL_STORES ?? "sqlite,postgres").split(",") as (
  | "sqlite"
  | "postgres"
)[];

describe("indexer: crashes and restarts", () => {
  let devnet: TwoChainDevnet;
  let manifest: DevnetManifest;
  let dir: string;
  let configPath: string;
  const dbs: IsolatedDatabase[] = [];

  before(async () => {
    devnet = await setupTwoChainDevnet();
    manifest = devnet.manifest;
    const { alpha, beta } = devnet;
    for (let i = 0; i < 6; i++) {
      const t = await sendTransfer(manifest, alpha, beta, (i % 3) as 0 | 1 | 2, 10n + BigInt(i), {
        userIndex: i % 4,
      });
      if (i % 2 === 0) await deliver(manifest, t);
      const back = await sendTransfer(manifest, beta, alpha, 1, 20n + BigInt(i), {
        userIndex: 4 + (i % 4),
      });
      await deliver(manifest, back);
      // An OFT send (LayerZero) each way; the odd rounds' deliveries happen here.
      await sendOmni(manifest, i % 2 === 0 ? alpha : beta, i % 2 === 0 ? beta : alpha, i);
      if (i % 2 === 1) await deliverOftPackets(manifest);
      // Spread the events over many blocks: many small batches, so kills land inside backfill.
      await mine(alpha, 12);
      await mine(beta, 12);
    }
    ({ dir, configPath } = await writeChildConfig(manifest, "bridge-oracle-crash-"));
  });
  after(async () => {
    for (const db of dbs) await db.cleanup();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    await devnet?.cleanup();
  });

  for (const store of STORES)
    it(`behavior: (${store}) kill -9 at ${LOOPS} seeded random moments, then a restart, equals a clean index`, async (t) => {
      const random = createPrng(SEED).float;
      const { alpha, beta } = devnet;
      let killedMidBackfill = 0;
      const live = await setupIsolatedDatabase(store);
      dbs.push(live);
      for (let i = 0; i < LOOPS; i++) {
        // New work for this round (the first starts on the set-up's blocks).
        if (i > 0) await addRoundOfWork(manifest, alpha, beta, i);
        const heads = [await height(alpha), await height(beta)];
        const indexer = startWatchedChild(configPath, live.databaseUrl);
        const { child } = indexer;
        // Kill somewhere in the indexing that follows start-up (start-up alone takes ~1 s).
        await waitFor(
          () => indexer.output.includes('"msg":"indexing '),
          () => indexer.output,
        );
        await new Promise((r) => setTimeout(r, Math.floor(random() * 300)));
        child.kill("SIGKILL");
        const { signal, code } = await exited(child);
        assert.ok(
          signal === "SIGKILL" || code === 0,
          `child ${i}: ${code} ${signal}\n${indexer.output}`,
        );
        if (await storedCursorsBelow(live.databaseUrl, heads)) killedMidBackfill++;
      }
      t.diagnostic(`${killedMidBackfill} of ${LOOPS} kills landed before the indexer caught up`);
      assert.ok(LOOPS < 2 || killedMidBackfill > 0, "no kill landed before the indexer caught up");
      // The last restart runs to the head in-process.
      const restarted = await openTestIndexer(live.databaseUrl, configOf(manifest));
      await indexUntilIdle(restarted.indexer.chains);
      await restarted.store.close();

      const expected = await dumpCleanIndex(manifest, store);
      assert.ok(expected.transfers!.length >= 12, "expected.transfers!.length >= 12");
      const oft = (expected.transfers as { protocol: string; status: string }[]).filter(
        (r) => r.protocol === "layerzero-oft",
      );
      assert.ok(
        oft.length >= 6 + LOOPS - 1 && oft.some((r) => r.status === "Success"),
        `OFT transfers in the comparison: ${JSON.stringify(oft.map((r) => r.status))}`,
      );
      assert.deepEqual(await dumpDatabase(live.databaseUrl), expected);
    });

  it("default: SIGTERM finishes the current batch and exits 0", async () => {
    const db = await setupIsolatedDatabase("sqlite");
    dbs.push(db);
    const child = startChild(configPath, db.databaseUrl);
    let logOut = "";
    let stderr = "";
    child.stdout?.on("data", (d) => {
      logOut += String(d);
    });
    child.stderr?.on("data", (d) => {
      stderr += String(d);
    });
    // Signal only once the CLI is indexing (its handlers are installed by then) and each chain
    // has committed a batch (the backfill of many 2-block batches is under way).
    await waitFor(
      () => logOut.includes('"msg":"indexing '),
      () => logOut + stderr,
    );
    await waitForValue(async () => {
      const cursors = await readCursors(db.databaseUrl);
      const started = cursors.length === 2 && cursors.every((c) => c.cursorBlock >= c.startBlock);
      return started || undefined;
    }, 45_000);
    child.kill("SIGTERM");
    const { code } = await exited(child);
    assert.equal(code, 0, logOut + stderr);
    const log = logOut
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    // The signal's line, then the last line (a retry in flight may log in between).
    const signalled = log.findIndex(
      (l) => l.level === 30 && l.msg === "SIGTERM: finishing the current batch, then stopping",
    );
    assert.ok(signalled >= 0, JSON.stringify(log));
    assert.deepEqual([log.at(-1)?.level, log.at(-1)?.msg], [30, "stopped"]);
    assert.ok(signalled < log.length - 1, "signalled < log.length - 1");

    // --status reads what the stopped process left in the database.
    const status = spawnIndexChild(["--status", "--database", db.databaseUrl]);
    let stdout = "";
    status.stdout?.on("data", (d) => {
      stdout += String(d);
    });
    const done = await exited(status);
    const summary = JSON.parse(stdout) as {
      ready: boolean;
      chains: { chain: string; indexedBlock: number }[];
    };
    assert.deepEqual(
      summary.chains.map((c) => c.chain),
      ["alpha", "beta"],
    );
    assert.ok(
      summary.chains.every((c) => c.indexedBlock >= 0),
      "summary.chains.every((c) => c.indexedBlock >= 0)",
    );
    assert.equal(done.code, summary.ready ? 0 : 1);
  });

  it("error: a missing or invalid config file is named and exits 1", async () => {
    const missing = spawnIndexChild(["--config", join(dir, "nope.json")]);
    let stderr = "";
    missing.stderr?.on("data", (d) => {
      stderr += String(d);
    });
    assert.equal((await exited(missing)).code, 1);
    assert.match(stderr, /nope\.json: cannot read the file/);
  });
});
