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
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { openDatabase } from "../../src/store/index.js";
import { createPrng } from "../../src/transfers/prng.js";
import { connectChain, setupDevnet, type TestDevnet } from "../setup/anvil.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { height, mine } from "./chain-control.js";
import { configOf, dumpDatabase, indexUntilIdle, openTestIndexer } from "./helpers.js";
import { exited, startChild, waitFor } from "./index-child-process.js";
import { deliver, sendTransfer } from "./traffic.js";

const ROUNDS = Number(process.env.INDEXER_STANDBY_ROUNDS ?? 5);
const SEED = Number(process.env.INDEXER_STANDBY_SEED ?? 20261126);
const TAKEOVER_LIMIT_MS = 10_000;

interface Indexer {
  child: ChildProcess;
  output: string;
  /** How many terms as leader it has started ("indexing ..." lines). */
  terms(): number;
}

function start(configPath: string, databaseUrl: string): Indexer {
  const child = startChild(configPath, databaseUrl);
  const indexer: Indexer = {
    child,
    output: "",
    terms: () => indexer.output.split('"msg":"indexing ').length - 1,
  };
  child.stdout?.on("data", (d) => {
    indexer.output += String(d);
  });
  child.stderr?.on("data", (d) => {
    indexer.output += String(d);
  });
  return indexer;
}

describe("indexer: a standby takes over", () => {
  let devnet: TestDevnet;
  let manifest: DevnetManifest;
  let dir: string;
  let configPath: string;
  const dbs: IsolatedDatabase[] = [];
  const running: Indexer[] = [];

  before(async () => {
    devnet = await setupDevnet({ names: ["alpha", "beta"] });
    manifest = devnet.manifest;
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-standby-"));
    configPath = join(dir, "indexer.json");
    const config = {
      chains: manifest.chains.map((c) => ({ ...c, finalityDepth: 64 })),
      indexer: { pollIntervalMs: 20, maxBlockRange: 2 },
    };
    await writeFile(configPath, JSON.stringify(config));
  });
  after(async () => {
    for (const r of running) if (r.child.exitCode === null) r.child.kill("SIGKILL");
    for (const db of dbs) await db.cleanup();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    await devnet?.cleanup();
  });

  it(`behavior: (postgres) the leader killed ${ROUNDS} times at seeded moments, a standby running: each takeover under 10 s, and the database equals a clean index`, async (t) => {
    const random = createPrng(SEED).float;
    const alpha = connectChain(manifest, "alpha");
    const beta = connectChain(manifest, "beta");
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
      // New work: transfers both ways, one delivered, then blocks (about 6 batches per chain).
      const out = await sendTransfer(manifest, alpha, beta, (round % 3) as 0 | 1 | 2, 10n, {
        userIndex: round % 8,
      });
      const back = await sendTransfer(manifest, beta, alpha, 1, 20n, {
        userIndex: (round + 3) % 8,
      });
      await deliver(manifest, round % 2 === 0 ? out : back);
      await mine(alpha, 12);
      await mine(beta, 12);
      // Somewhere in the backfill of that work, or later while following.
      await new Promise((r) => setTimeout(r, Math.floor(random() * 1500)));
      const lostConnection = random() < 0.3;
      const cursors = (await dumpDatabase(live.databaseUrl)).cursors as { cursor_block: string }[];
      const heads = [await height(alpha), await height(beta)];
      const backfilling = cursors.some((c, n) => Number(c.cursor_block) < heads[n]!);
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

    const clean = await setupIsolatedDatabase("postgres");
    dbs.push(clean);
    const fresh = await openTestIndexer(clean.databaseUrl, configOf(manifest));
    await indexUntilIdle(fresh.indexer.chains);
    await fresh.store.close();
    const expected = await dumpDatabase(clean.databaseUrl);
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
