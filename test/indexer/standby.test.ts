/**
 * Two `bridge-oracle index` processes on one PostgreSQL database: one leads, the other waits
 * as a standby. At seeded random moments (during backfill: each round first adds transfers and
 * blocks, indexed in 2-block spans; or while following) the leader is killed with kill -9, or
 * its lock connection is ended on the server (a lost connection: the old leader then waits as
 * a standby itself). Each time the standby must take over within 10 s, resuming from the
 * committed cursors; a fresh process replaces a killed one as the standby. At the end the
 * database equals a clean index row for row. The takeover times are reported.
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
import { dumpCleanIndex, dumpDatabase, storedCursorsBelow } from "./helpers.js";
import {
  exited,
  startWatchedChild,
  type WatchedChild,
  waitFor,
  writeChildConfig,
} from "./index-child-process.js";
import { addRoundOfWork } from "./traffic.js";

const ROUNDS = Number(process.env.INDEXER_STANDBY_ROUNDS ?? 5);
const SEED = Number(process.env.INDEXER_STANDBY_SEED ?? 20261126);
const TAKEOVER_LIMIT_MS = 10_000;

interface Indexer extends WatchedChild {
  /** How many terms as leader it has started ("indexing ..." lines). */
  terms(): number;
}

function start(configPath: string, databaseUrl: string): Indexer {
  const indexer = startWatchedChild(configPath, databaseUrl);
  return Object.assign(indexer, {
    terms: () => indexer.output.split('"msg":"indexing ').length - 1,
  });
}

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

  it(`behavior: (postgres) the leader killed ${ROUNDS} times at seeded moments, a standby running: each takeover under 10 s, and the database equals a clean index`, async (t) => {
    const random = createPrng(SEED).float;
    const { alpha, beta } = devnet;
    const live = await setupIsolatedDatabase("postgres");
    dbs.push(live);
    const spawnOne = () => {
      const r = start(configPath, live.databaseUrl);
      running.push(r);
      return r;
    };
    let leader = spawnOne();
    await waitFor(
      () => leader.terms() === 1,
      () => leader.output,
    );
    let standby = spawnOne();
    await waitFor(
      () => standby.output.includes('"msg":"standby: '),
      () => standby.output,
    );
    const takeovers: number[] = [];
    const moments: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await addRoundOfWork(manifest, alpha, beta, round);
      // Somewhere in the backfill of that work, or later while following.
      await new Promise((r) => setTimeout(r, Math.floor(random() * 1500)));
      const lostConnection = random() < 0.3;
      const heads = [await height(alpha), await height(beta)];
      const backfilling = await storedCursorsBelow(live.databaseUrl, heads);
      moments.push(
        `${lostConnection ? "connection lost" : "kill -9"} ${backfilling ? "in backfill" : "following"}`,
      );
      const termsBefore = standby.terms();
      const killedAt = Date.now();
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
      await waitFor(
        () => standby.terms() > termsBefore,
        () => `round ${round}: no takeover\n${standby.output}`,
        30_000,
      );
      takeovers.push(Date.now() - killedAt);
      if (lostConnection) {
        // The old leader stops indexing and waits as the standby.
        await waitFor(
          () => leader.output.includes("lost the indexer lock's database connection"),
          () => leader.output,
        );
        [leader, standby] = [standby, leader];
      } else {
        const { signal } = await exited(leader.child);
        assert.equal(signal, "SIGKILL");
        leader = standby;
        standby = spawnOne();
        await waitFor(
          () => standby.output.includes('"msg":"standby: '),
          () => standby.output,
        );
      }
    }
    const sorted = [...takeovers].sort((a, b) => a - b);
    t.diagnostic(`rounds: ${moments.join("; ")}`);
    t.diagnostic(
      `takeovers (ms): ${takeovers.join(", ")}; min ${sorted[0]}, median ` +
        `${sorted[Math.floor(sorted.length / 2)]}, max ${sorted.at(-1)}`,
    );
    for (const ms of takeovers) assert.ok(ms < TAKEOVER_LIMIT_MS, `a takeover took ${ms} ms`);

    // Status shows the leader; then the leader catches up and both stop.
    const heads = [await height(alpha), await height(beta)];
    const store = await openDatabase(live.databaseUrl);
    try {
      const rows = await store.indexer.getIndexerStatus();
      assert.ok(rows.length > 0);
      for (const row of rows) assert.equal(row.leader, `${hostname()}:${leader.child.pid}`);
      const deadline = Date.now() + 45_000;
      for (;;) {
        const status = await store.indexer.getIndexerStatus();
        if (status.every((s, i) => s.cursorBlock >= heads[i]!)) break;
        assert.ok(Date.now() < deadline, `not caught up: ${JSON.stringify(status)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await store.close();
    }
    for (const r of [leader, standby]) r.child.kill("SIGTERM");
    for (const r of [leader, standby]) {
      const { code } = await exited(r.child);
      assert.equal(code, 0, r.output);
    }

    const expected = await dumpCleanIndex(manifest, "postgres");
    assert.ok(expected.transfers!.length >= 2 * ROUNDS);
    assert.deepEqual(await dumpDatabase(live.databaseUrl), expected);
  });

  it("error: (sqlite) a second index on the same file is refused, naming why", async () => {
    const db = await setupIsolatedDatabase("sqlite");
    dbs.push(db);
    const first = start(configPath, db.databaseUrl);
    running.push(first);
    await waitFor(
      () => first.terms() === 1,
      () => first.output,
    );
    const second = start(configPath, db.databaseUrl);
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
