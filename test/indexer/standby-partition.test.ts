/**
 * "Machine gone": the leading `bridge-oracle index` is cut off from PostgreSQL as by a network
 * partition. Each process reaches the database through a TCP proxy of its own; the leader's
 * proxy freezes its connections (its lock connection and its pool's: nothing gets through,
 * nothing is closed) and swallows new ones. Every other round freezes the leader inside a
 * transaction holding the indexer write lock (its statements are held back in the proxy until
 * it does), the others at a seeded moment. The server must end the silent sessions, and the
 * standby lead and write within 10 s. Then the partition heals (the frozen connections reset,
 * new ones pass, as when the server has ended the sessions behind them): the old leader must
 * commit nothing after its successor's first write, and wait as the standby. At the end the
 * database equals a clean index row for row. The takeover times are reported.
 */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { INDEXER_LOCK_KEY } from "../../src/store/indexer-repository.js";
import { createPrng } from "../../src/transfers/prng.js";
import { setupTwoChainDevnet, type TwoChainDevnet } from "../setup/anvil.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { waitForValue } from "../setup/eventually.js";
import { postgresTarget, startTcpProxy, type TcpProxy } from "../setup/tcp-proxy.js";
import { height } from "./chain-control.js";
import { waitFor, writeChildConfig } from "./index-child-process.js";
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

const ROUNDS = Number(process.env.INDEXER_PARTITION_ROUNDS ?? 3);
const SEED = Number(process.env.INDEXER_PARTITION_SEED ?? 20261127);
const TAKEOVER_LIMIT_MS = 10_000;

/** Transactions of `writer` holding the indexer write lock now. */
async function writeLockHeld(admin: pg.Client, writer: string): Promise<boolean> {
  const { rows } = await admin.query(
    "SELECT count(*) AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid" +
      " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1" +
      " AND l.objid = hashtext(current_schema())::oid AND l.objsubid = 2" +
      " AND split_part(a.application_name, ' #', 1) = $2",
    [INDEXER_LOCK_KEY, writer],
  );
  return Number(rows[0].n) > 0;
}

describe("indexer: a standby takes over from a leader cut off by a partition", () => {
  let devnet: TwoChainDevnet;
  let manifest: DevnetManifest;
  let dir: string;
  let configPath: string;
  const dbs: IsolatedDatabase[] = [];
  const running: Indexer[] = [];
  const proxies = new Map<Indexer, TcpProxy>();

  before(async () => {
    devnet = await setupTwoChainDevnet();
    manifest = devnet.manifest;
    ({ dir, configPath } = await writeChildConfig(manifest, "bridge-oracle-partition-"));
  });
  after(async () => {
    for (const r of running) if (r.child.exitCode === null) r.child.kill("SIGKILL");
    for (const proxy of proxies.values()) await proxy.close();
    for (const db of dbs) await db.cleanup();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    await devnet?.cleanup();
  });

  it(`behavior: (postgres) the leader partitioned ${ROUNDS} times, inside a write or at seeded moments: the standby leads and writes within 10 s, the old leader commits nothing after that and waits once healed, and the database equals a clean index`, async (t) => {
    const random = createPrng(SEED).float;
    const { alpha, beta } = devnet;
    const live = await setupIsolatedDatabase("postgres");
    dbs.push(live);
    await recordWrites(live.databaseUrl);
    const admin = new pg.Client({ connectionString: live.databaseUrl });
    await admin.connect();
    t.after(() => admin.end());
    const spawnOne = async () => {
      const proxy = await startTcpProxy(postgresTarget(live.databaseUrl));
      const name = `partition-test-${running.length}`;
      const r = startIndexer(configPath, proxy.url(live.databaseUrl), name);
      running.push(r);
      proxies.set(r, proxy);
      return r;
    };
    let [leader, standby] = await startLeaderAndStandby(spawnOne);
    const takeovers: Takeover[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await addRoundOfWork(manifest, alpha, beta, round);
      const proxy = proxies.get(leader)!;
      const insideWrite = round % 2 === 0;
      if (insideWrite) {
        // Hold the leader's statements back and look: frozen now, a transaction holding the
        // write lock stays open on the server with nothing more coming.
        await waitForValue(
          async () => {
            proxy.holdUploads(true);
            if (await writeLockHeld(admin, leader.name)) return true;
            proxy.holdUploads(false);
            await new Promise((r) => setTimeout(r, Math.floor(random() * 30)));
            return undefined;
          },
          20_000,
          0,
        );
      } else {
        await new Promise((r) => setTimeout(r, Math.floor(random() * 1500)));
      }
      const baseline = await lastWriteId(live.databaseUrl);
      const termsBefore = standby.terms();
      const waitsBefore = leader.waits();
      const cutAt = Date.now();
      proxy.freeze();
      proxy.swallow(true);
      const takeover = await awaitTakeover({
        databaseUrl: live.databaseUrl,
        standby,
        termsBefore,
        baseline,
        cutAt,
        round,
      });
      takeovers.push(takeover);

      // The partition heals: the connections frozen so far reset, new ones pass.
      await proxy.down();
      proxy.swallow(false);
      await proxy.up();
      await waitFor(
        () => leader.waits() > waitsBefore,
        () => `round ${round}: the old leader does not wait again\n${leader.output}`,
      );
      assert.match(leader.output, /lost the indexer lock's database connection/);
      // Its term is over: whatever it would still have written, it has tried by now.
      const late = await writesOf(live.databaseUrl, leader.name, takeover.firstWrite);
      assert.equal(
        late,
        0,
        `round ${round}: the old leader wrote after the new one\n${leader.output}`,
      );
      [leader, standby] = [standby, leader];
    }
    reportTakeovers(t, takeovers, TAKEOVER_LIMIT_MS);

    await assertCatchesUpToCleanIndex({
      manifest,
      databaseUrl: live.databaseUrl,
      heads: [await height(alpha), await height(beta)],
      processes: [leader, standby],
      minTransfers: 2 * ROUNDS,
    });
  });
});
