/**
 * A miniature run of the indexer benchmark (a few dozen transfers, two latency samples) so that
 * it cannot rot unnoticed: the devnet is generated, the ceiling, the raw-log and raw-events
 * floors and the indexer each see every event, the store floor copies what the indexer stored,
 * and the "index" section is written with all its rows; with `--store both`, the PostgreSQL
 * backfill too, into the benchmark's own schema, which is gone afterwards.
 */
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runIndexBenchmark } from "../../bench/index.js";
import { PONDER_DATABASE } from "../../bench/index-ponder.js";
import { INDEX_BENCH_SCHEMA } from "../../bench/index-postgres.js";
import { connectAdmin, postgresTestUrl } from "../setup/database.js";

/** The devnets' manifest directories in the temporary folder (the benchmark's own prefix). */
async function devnetDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith("bridge-oracle-bench-index-"));
}

/** The events column of a results table row starting with `row`, in `section`. */
function eventsOf(section: string, row: string): string {
  const line = section.split("\n").find((l) => l.startsWith(`| ${row}`));
  assert.ok(line !== undefined, row);
  return line.split("|")[2]!.trim();
}

describe("bench index", () => {
  it("a short run writes the index section with equal event counts in every row", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bench-index-test-"));
    try {
      const results = join(dir, "RESULTS.md");
      await writeFile(results, "# Benchmark results\n\n## list\n\nkept\n");
      const dirsBefore = await devnetDirs();
      const code = await runIndexBenchmark([
        "--transfers",
        "60",
        "--per-block",
        "20",
        "--latency-samples",
        "2",
        "--no-ponder",
        "--results",
        results,
      ]);
      assert.equal(code, 0);
      const text = await readFile(results, "utf8");
      assert.match(text, /## list\n\nkept/);
      assert.match(text, /## index/);
      const counts = [
        "bare eth_getLogs (ceiling)",
        "raw-log floor",
        "raw-events floor",
        "indexer backfill",
      ].map((row) => {
        const line = text.split("\n").find((l) => l.startsWith(`| ${row}`));
        assert.ok(line !== undefined, row);
        return line.split("|")[2]!.trim();
      });
      // 60 sends and their deliveries and refunds: more than 60 events, the same in each row.
      assert.ok(Number(counts[0]!.replace(/,/g, "")) > 60, counts[0]);
      assert.deepEqual(counts, [counts[0], counts[0], counts[0], counts[0]]);
      assert.match(
        text,
        /Raw-log floor \/ ceiling: \d+\.\d %: storing what eth_getLogs returned, .* took \d+\.\d\d s of the target's \d+\.\d\d s\./,
      );
      assert.match(text, /- Raw-log floor: the least any indexer that keeps the raw logs must do/);
      assert.match(
        text,
        /Raw-events floor \/ ceiling: \d+\.\d %; indexer \/ raw-events floor: \d+\.\d %/,
      );
      assert.match(text, /- Raw-events floor: the least this indexer's own code does/);
      assert.match(
        text,
        /\| store floor \(SQLite alone writing the backfill's rows\) \| [\d,]+ \|/,
      );
      assert.match(text, /Store floor \/ ceiling: \d+\.\d %; indexer \/ store floor: \d+\.\d %/);
      assert.match(text, /- Store floor: SQLite alone writing the rows .*: [\d,]+ rows\)/);
      assert.match(
        text,
        /CPU steal \(time given to other guests, \/proc\/stat\) \d+\.\d % during the backfill/,
      );
      assert.match(text, /2 of 2 samples/);
      // The run's devnet left nothing behind in the temporary folder.
      assert.deepEqual(await devnetDirs(), dirsBefore);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("--store both: our PostgreSQL backfill and Ponder on PGlite and PostgreSQL see every event and record the same records, and leave nothing behind", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bench-index-test-"));
    try {
      const results = join(dir, "RESULTS.md");
      // Ponder is installed into data/bench/ on first use (a failed npm install fails the test).
      const code = await runIndexBenchmark([
        "--transfers",
        "200",
        "--per-block",
        "20",
        "--latency-samples",
        "1",
        "--store",
        "both",
        "--database-url",
        postgresTestUrl(),
        "--results",
        results,
      ]);
      assert.equal(code, 0);
      const text = await readFile(results, "utf8");
      const [rest, peer] = text.split(/^## index: against Ponder$/m);
      assert.ok(peer !== undefined, "no Ponder section");
      const [sqlite, postgres] = rest!.split(/^## index \(PostgreSQL\)$/m);
      assert.ok(postgres !== undefined, "no PostgreSQL section");
      assert.match(sqlite!, /## index\n/);
      const ceiling = eventsOf(sqlite!, "bare eth_getLogs (ceiling)");
      assert.ok(Number(ceiling.replace(/,/g, "")) > 40, ceiling);
      assert.equal(eventsOf(sqlite!, "indexer backfill"), ceiling);
      assert.equal(eventsOf(postgres, "bare eth_getLogs (ceiling)"), ceiling);
      assert.equal(eventsOf(postgres, "indexer backfill into PostgreSQL"), ceiling);
      assert.match(
        postgres,
        /Indexer \/ ceiling: \*\*\d+\.\d %\*\* \(target >= 10 %: (met|NOT met);/,
      );
      assert.match(
        sqlite!,
        /Indexer \/ ceiling: \*\*\d+\.\d %\*\* \(target >= 15 %: (met|NOT met);/,
      );
      assert.match(postgres, /- PostgreSQL \d+[.\d]* .*schema `bench_index`/);
      assert.match(postgres, /The database server's processes used \d+\.\d\d s of CPU/);
      assert.match(postgres, /1 of 1 samples/);
      assert.doesNotMatch(postgres, /raw-events floor|store floor/);
      // The peer: both of Ponder's runs hold our 200 records, field for field, and are timed.
      assert.match(
        peer,
        /On the embedded store \(SQLite vs PGlite\): ours took \d+\.\d\d s, Ponder \d+\.\d\d s: ours is \*\*\d+\.\d\dx\*\* as fast\./,
      );
      assert.match(
        peer,
        /On the PostgreSQL: ours took \d+\.\d\d s, Ponder \d+\.\d\d s: ours is \*\*\d+\.\d\dx\*\* as fast \(target >= 2x: (met|NOT met)\)\./,
      );
      assert.equal(peer.match(/the same 200 records, field for field/g)?.length, 2, peer);
      for (const run of [
        "ours, SQLite",
        "ours, PostgreSQL",
        "Ponder 1.0.0, PGlite (embedded)",
        "Ponder 1.0.0, PostgreSQL",
      ]) {
        // records, database size and size per 1,000 records in each run's row
        assert.match(
          peer,
          new RegExp(
            `\\| ${run.replace(/[()]/g, "\\$&")} \\| \\d+\\.\\d\\d s \\| [\\d,]+ \\| 200 \\| [\\d.]+ MB \\| [\\d.]+ MB \\|`,
          ),
        );
      }
      assert.match(peer, /\| bare eth_getLogs \(ceiling\) \| \d+\.\d\d s \|/);
      // The curve: one segment of at most 20,000 transfers, timed on both stores.
      assert.match(peer, /\| 0-200 \| \d+\.\d\d s \| [\d,]+ \| \d+\.\d\d s \| [\d,]+ \|/);
      // Nothing is left in the database.
      const admin = await connectAdmin(postgresTestUrl());
      try {
        const { rows } = await admin.query(
          "SELECT count(*) AS n FROM pg_namespace WHERE nspname = $1",
          [INDEX_BENCH_SCHEMA],
        );
        assert.equal(Number(rows[0].n), 0);
        const ponderDatabases = await admin.query(
          "SELECT count(*) AS n FROM pg_database WHERE datname = $1",
          [PONDER_DATABASE],
        );
        assert.equal(Number(ponderDatabases.rows[0].n), 0);
      } finally {
        await admin.end();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("error: a bench_index schema holding someone else's tables is refused and kept", async () => {
    const admin = await connectAdmin(postgresTestUrl());
    try {
      await admin.query(`DROP SCHEMA IF EXISTS ${INDEX_BENCH_SCHEMA} CASCADE`);
      await admin.query(`CREATE SCHEMA ${INDEX_BENCH_SCHEMA}`);
      await admin.query(`CREATE TABLE ${INDEX_BENCH_SCHEMA}.theirs (id int)`);
      await assert.rejects(
        runIndexBenchmark([
          ...["--transfers", "10", "--per-block", "10", "--latency-samples", "0"],
          ...["--store", "postgres", "--database-url", postgresTestUrl(), "--no-write"],
          "--no-ponder",
        ]),
        /schema bench_index holds tables that are not this service's/,
      );
      const { rows } = await admin.query("SELECT to_regclass($1) IS NOT NULL AS kept", [
        `${INDEX_BENCH_SCHEMA}.theirs`,
      ]);
      assert.equal(rows[0].kept, true);
    } finally {
      await admin.query(`DROP SCHEMA IF EXISTS ${INDEX_BENCH_SCHEMA} CASCADE`);
      await admin.end();
    }
  });

  it("error: --store postgres without a PostgreSQL URL is refused before any work", async () => {
    const saved = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      const code = await runIndexBenchmark(["--store", "postgres", "--no-write"]);
      assert.equal(code, 1);
    } finally {
      if (saved !== undefined) process.env.DATABASE_URL = saved;
    }
  });
});
