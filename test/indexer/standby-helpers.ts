/**
 * Tools of the standby tests (standby.test.ts, standby-partition.test.ts): `bridge-oracle index`
 * children, each under a name of its own; a record of which process wrote each change to the
 * chain rows (every write transaction of the indexer changes one), to check that an old leader
 * commits nothing after its successor's first write; and the end of a run: caught up, stopped,
 * equal to a clean index.
 */
import assert from "node:assert/strict";
import pg from "pg";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { openDatabase } from "../../src/store/index.js";
import { waitForValue } from "../setup/eventually.js";
import { dumpCleanIndex, dumpDatabase } from "./helpers.js";
import { exited, startWatchedChild, type WatchedChild, waitFor } from "./index-child-process.js";

export interface Indexer extends WatchedChild {
  /** The application_name of its pool connections (PostgreSQL), as the write record shows it. */
  name: string;
  /** How many terms as leader it has started ("indexing ..." lines). */
  terms(): number;
  /** How many times it has started waiting as a standby. */
  waits(): number;
}

function count(text: string, what: string): number {
  return text.split(what).length - 1;
}

/** `bridge-oracle index` on `databaseUrl`, its PostgreSQL connections named `name`. */
export function startIndexer(configPath: string, databaseUrl: string, name: string): Indexer {
  let url = databaseUrl;
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const parsed = new URL(databaseUrl);
    parsed.searchParams.set("application_name", name);
    url = parsed.toString();
  }
  const watched = startWatchedChild(configPath, url);
  return Object.assign(watched, {
    name,
    terms: () => count(watched.output, '"msg":"indexing '),
    waits: () => count(watched.output, '"msg":"standby: '),
  });
}

/** Starts the leader (`spawn()` must lead) and then the standby (it must wait). */
export async function startLeaderAndStandby(
  spawn: () => Indexer | Promise<Indexer>,
): Promise<[Indexer, Indexer]> {
  const leader = await spawn();
  await waitFor(
    () => leader.terms() === 1,
    () => leader.output,
  );
  const standby = await spawn();
  await waitFor(
    () => standby.waits() === 1,
    () => standby.output,
  );
  return [leader, standby];
}

export interface Takeover {
  /** From the cut to the standby's "indexing" line, ms. */
  leadMs: number;
  /** From the cut to its first recorded write, ms. */
  firstWriteMs: number;
  /** That write's id in the record. */
  firstWrite: number;
}

/**
 * After the leader was cut off at `cutAt` (Date.now()), with `baseline` the last write then and
 * `termsBefore` the standby's terms then: waits until the standby leads, and then writes.
 */
export async function awaitTakeover(options: {
  databaseUrl: string;
  standby: Indexer;
  termsBefore: number;
  baseline: number;
  cutAt: number;
  round: number;
}): Promise<Takeover> {
  const { standby, cutAt } = options;
  await waitFor(
    () => standby.terms() > options.termsBefore,
    () => `round ${options.round}: no takeover\n${standby.output}`,
    30_000,
  );
  const leadMs = Date.now() - cutAt;
  const firstWrite = await waitForValue(
    () => firstWriteOf(options.databaseUrl, standby.name, options.baseline),
    30_000,
    20,
  );
  return { leadMs, firstWriteMs: Date.now() - cutAt, firstWrite };
}

async function withClient<T>(databaseUrl: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Migrates the (PostgreSQL) database and records from now on, in `test_writes`, the writer of
 * each statement changing the chain rows: the application_name without the pool's `#n` suffix.
 */
export async function recordWrites(databaseUrl: string): Promise<void> {
  await (await openDatabase(databaseUrl)).close();
  await withClient(databaseUrl, (c) =>
    c.query(
      "CREATE TABLE test_writes (id bigserial PRIMARY KEY, writer text NOT NULL);" +
        " CREATE FUNCTION test_record_write() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN" +
        " INSERT INTO test_writes (writer)" +
        " VALUES (split_part(current_setting('application_name'), ' #', 1)); RETURN NULL; END $$;" +
        " CREATE TRIGGER test_record_write AFTER INSERT OR UPDATE ON indexer_chains" +
        " FOR EACH STATEMENT EXECUTE FUNCTION test_record_write()",
    ),
  );
}

/** The id of the last recorded write (0 before any). */
export function lastWriteId(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (c) =>
    Number((await c.query("SELECT coalesce(max(id), 0) AS id FROM test_writes")).rows[0].id),
  );
}

/** The first write of `writer` after write `afterId`, undefined when none yet. */
export function firstWriteOf(
  databaseUrl: string,
  writer: string,
  afterId: number,
): Promise<number | undefined> {
  return withClient(databaseUrl, async (c) => {
    const { rows } = await c.query(
      "SELECT min(id) AS id FROM test_writes WHERE writer = $1 AND id > $2",
      [writer, afterId],
    );
    return rows[0].id === null ? undefined : Number(rows[0].id);
  });
}

/** How many writes of `writer` came after write `afterId`. */
export function writesOf(databaseUrl: string, writer: string, afterId: number): Promise<number> {
  return withClient(databaseUrl, async (c) => {
    const { rows } = await c.query(
      "SELECT count(*) AS n FROM test_writes WHERE writer = $1 AND id > $2",
      [writer, afterId],
    );
    return Number(rows[0].n);
  });
}

/**
 * The end of a run: the database's cursors reach `heads` (through whichever process leads),
 * every process exits 0 on SIGTERM, and the database equals a clean index of the same chains,
 * row for row (with at least `minTransfers` transfers).
 */
export async function assertCatchesUpToCleanIndex(options: {
  manifest: DevnetManifest;
  databaseUrl: string;
  heads: readonly number[];
  processes: readonly Indexer[];
  minTransfers: number;
}): Promise<void> {
  const store = await openDatabase(options.databaseUrl);
  try {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const status = await store.indexer.getIndexerStatus();
      if (status.every((s, i) => s.cursorBlock >= options.heads[i]!)) break;
      assert.ok(Date.now() < deadline, `not caught up: ${JSON.stringify(status)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await store.close();
  }
  for (const p of options.processes) p.child.kill("SIGTERM");
  for (const p of options.processes) {
    const { code } = await exited(p.child);
    assert.equal(code, 0, p.output);
  }
  const expected = await dumpCleanIndex(options.manifest, "postgres");
  assert.ok(
    expected.transfers!.length >= options.minTransfers,
    "expected.transfers!.length >= options.minTransfers",
  );
  assert.deepEqual(await dumpDatabase(options.databaseUrl), expected);
}

/** Minimum, median and maximum of `ms`. */
function spread(ms: readonly number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  return `min ${sorted[0]}, median ${sorted[Math.floor(sorted.length / 2)]}, max ${sorted.at(-1)}`;
}

/** The takeover times as diagnostic lines, then each must be under `limitMs` to the first write. */
export function reportTakeovers(
  t: { diagnostic(message: string): void },
  takeovers: readonly Takeover[],
  limitMs: number,
): void {
  const lead = takeovers.map((x) => x.leadMs);
  const write = takeovers.map((x) => x.firstWriteMs);
  t.diagnostic(`takeovers (ms, to leading): ${lead.join(", ")}; ${spread(lead)}`);
  t.diagnostic(`to the first write (ms): ${write.join(", ")}; ${spread(write)}`);
  for (const ms of write) assert.ok(ms < limitMs, `a takeover took ${ms} ms`);
}
