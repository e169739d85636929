/**
 * Two `bridge-oracle index` processes on one PostgreSQL database: one leads, the other waits
 * as a standby. At seeded random moments (during backfill: each round first adds transfers and
 * blocks, indexed in 2-block spans; or while following) the leader is killed with kill -9, or
 * its lock session is ended on the server (a lost connection: the old leader then waits as a
 * standby itself); both happen in every run. Each time the standby must lead and write within
 * 10 s, resuming from the committed cursors, and the old leader must commit nothing after the
 * new one's first write (a trigger records who writes); a fresh process replaces a killed one
 * as the standby. At the end the database equals a clean index row for row. The takeover times
 * are reported. ("Machine gone" is standby-partition.test.ts.)
 * On SQLite a second `index` on the same file is refused with a message saying why.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { hostname } from "node:os";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { openDatabase } from "../../src/store/index.js";
import { createPrng } from "../../src/transfers/prng.js";
import { setupTwoChainDevnet, type TwoChainDevnet } from "../setup/anvil.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { height } from "./chain-control.js";
import { storedCursorsBelow } from "./helpers.js";
import { exited, waitFor, writeChildConfig } from "./index-child-process.js";
import {
  assertCatchesUpToCleanIndex,
  awaitTakeover,
  type Indexer,
  lastWriteId,
  recordWrites,
  reportTakeovers,
  startIndexer,
  startLeaderAndStandby,
  type Takeover,
  writesOf,
} from "./standby-helpers.js";
import { addRoundOfWork } from "./traffic.js";

const ROUNDS = Number(process.env.INDEXER_STANDBY_ROUNDS ?? 5);
const SEED = Number(process.env.INDEXER_STANDBY_SEED ?? 20261126);
const TAKEOVER_LIMIT_MS = 10_000;

describe("indexer: a standby takes over", () => {
  let devnet: TwoChainDevnet;
  let manifest: DevnetManifest;
  let dir: string;
  let configPath: string;
  const dbs: IsolatedDatabase[] = [];
  const running: Indexer[] = [];

  before(async () => {
    devnet = await setupTwoChainDevnet();
    manifest = devnet.manifest;
    ({ dir, configPath } = await writeChildConfig(manifest, "bridge-oracle-standby-"));
  });
  after(async () => {
    for (const r of running) if (r.child.exitCode === null) r.child.kill("SIGKILL");
    for (const db of dbs) await db.cleanup();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    await devnet?.cleanup();
  });

  it(`behavior: (postgres) the leader killed or cut off ${ROUNDS} times at seeded moments, a standby running: each takeover under 10 s, nothing of the old leader committed after the new one's first write, and the database equals a clean index`, async (t) => {
    const random = createPrng(SEED).float;
    const { alpha, beta } = devnet;
    const live = await setupIsolatedDatabase("postgres");
    dbs.push(live);
    await recordWrites(live.databaseUrl);
    const spawnOne = () => {
      const r = startIndexer(configPath, live.databaseUrl, `standby-test-${running.length}`);
      running.push(r);
      return r;
    };
    let [leader, standby] = await startLeaderAndStandby(spawnOne);
    const takeovers: Takeover[] = [];
    const moments: string[] = [];
    /** The previous leader and its successor's first write, checked before the next round. */
    let handedOver: { old: Indexer; firstWrite: number } | undefined;
    const assertFenced = async () => {
      if (handedOver === undefined) return;
      const late = await writesOf(live.databaseUrl, handedOver.old.name, handedOver.firstWrite);
      assert.equal(
        late,
        0,
        `${handedOver.old.name} wrote after its successor\n${handedOver.old.output}`,
      );
    };
    for (let round = 0; round < ROUNDS; round++) {
      await addRoundOfWork(manifest, alpha, beta, round);
      // Somewhere in the backfill of that work, or later while following.
      await new Promise((r) => setTimeout(r, Math.floor(random() * 1500)));
      // Both kinds in every run: the first two rounds, then seeded.
      const lostConnection = round < 2 ? round === 1 : random() < 0.3;
      const heads = [await height(alpha), await height(beta)];
      const backfilling = await storedCursorsBelow(live.databaseUrl, heads);
      moments.push(
        `${lostConnection ? "connection lost" : "kill -9"} ${backfilling ? "in backfill" : "following"}`,
      );
      await assertFenced();
      const baseline = await lastWriteId(live.databaseUrl);
      const termsBefore = standby.terms();
      const waitsBefore = leader.waits();
      const cutAt = Date.now();
      if (lostConnection) {
        // The server ends the leader's lock session, as when its connection is lost.
        const admin = new pg.Client({ connectionString: live.databaseUrl });
        await admin.connect();
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
          [`bridge-oracle index leader ${hostname()}:${leader.child.pid}`],
        );
        await admin.end();
      } else {
        leader.child.kill("SIGKILL");
      }
      const takeover = await awaitTakeover({
        databaseUrl: live.databaseUrl,
        standby,
        termsBefore,
        baseline,
        cutAt,
        round,
      });
      takeovers.push(takeover);
      handedOver = { old: leader, firstWrite: takeover.firstWrite };
      if (lostConnection) {
        // The old leader stops indexing and waits as the standby.
        await waitFor(
          () => leader.waits() > waitsBefore,
          () => leader.output,
        );
        assert.match(leader.output, /lost the indexer lock's database connection/);
        [leader, standby] = [standby, leader];
      } else {
        const { signal } = await exited(leader.child);
        assert.equal(signal, "SIGKILL");
        leader = standby;
        standby = spawnOne();
        await waitFor(
          () => standby.waits() === 1,
          () => standby.output,
        );
      }
    }
    t.diagnostic(`rounds: ${moments.join("; ")}`);
    reportTakeovers(t, takeovers, TAKEOVER_LIMIT_MS);

    // Status shows the leader; then the leader catches up, both stop, and the index is exact.
    const heads = [await height(alpha), await height(beta)];
    const store = await openDatabase(live.databaseUrl);
    try {
      const rows = await store.indexer.getIndexerStatus();
      assert.ok(rows.length > 0, "rows.length > 0");
      for (const row of rows) assert.equal(row.leader, `${hostname()}:${leader.child.pid}`);
    } finally {
      await store.close();
    }
    await assertCatchesUpToCleanIndex({
      manifest,
      databaseUrl: live.databaseUrl,
      heads,
      processes: [leader, standby],
      minTransfers: 2 * ROUNDS,
    });
    await assertFenced();
  });

  it("error: (sqlite) a second index on the same file is refused, naming why", async () => {
    const db = await setupIsolatedDatabase("sqlite");
    dbs.push(db);
    const first = startIndexer(configPath, db.databaseUrl, "first");
    running.push(first);
    await waitFor(
      () => first.terms() === 1,
      () => first.output,
    );
    const second = startIndexer(configPath, db.databaseUrl, "second");
    running.push(second);
    assert.equal((await exited(second.child)).code, 1, second.output);
    assert.match(
      second.output,
      /another `bridge-oracle index` is indexing .*SQLite takes one indexer per database file/,
    );
    first.child.kill("SIGTERM");
    assert.equal((await exited(first.child)).code, 0, first.output);
  });
});
