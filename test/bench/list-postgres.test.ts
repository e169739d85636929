/**
 * The list benchmark on PostgreSQL (`bench list --store postgres`) in miniature (1,000 records,
 * 1 s per scenario), so that it cannot rot unnoticed: it loads the data set into its own schema of
 * the test database, writes the "list (PostgreSQL)" section beside the SQLite one with the
 * server's version and settings and the load's rate, and reuses the loaded schema while the data
 * set's fingerprint matches. PostgreSQL comes from DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/test); without it these tests fail, they never skip.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runListBenchmark } from "../../bench/list.js";
import { ensureGeneratedData } from "../../bench/list-data.js";
import { datasetFingerprint, ensurePostgresDataset } from "../../bench/list-postgres.js";
import { captureStderr } from "../setup/capture-stderr.js";
import { connectAdmin, postgresTestUrl } from "../setup/database.js";

const RECORDS = 1000;

describe("bench list --store postgres", () => {
  const url = postgresTestUrl();
  const suffix = randomBytes(6).toString("hex");
  const schema = `bench_test_${suffix}`;
  const foreign = `bench_test_${suffix}_foreign`;
  const log = () => {};
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bench-list-postgres-"));
    await (await connectAdmin(url)).end(); // fails here, naming the URL, when PostgreSQL is absent
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    const admin = await connectAdmin(url);
    try {
      for (const name of [schema, foreign])
        await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
    } finally {
      await admin.end();
    }
  });

  async function marker(name: string): Promise<{ fingerprint: string; loaded_at: Date }[]> {
    const admin = await connectAdmin(url);
    try {
      const { rows } = await admin.query(
        `SELECT fingerprint, loaded_at FROM ${name}.bench_list_dataset`,
      );
      return rows;
    } finally {
      await admin.end();
    }
  }

  it("default: a miniature run loads its schema and writes its section, keeping the SQLite one", {
    timeout: 90_000,
  }, async () => {
    const results = join(dir, "RESULTS.md");
    await writeFile(results, "# Benchmark results\n\n## list\n\nkept\n");
    const code = await runListBenchmark([
      "--store",
      "postgres",
      "--records",
      String(RECORDS),
      "--duration",
      "1",
      "--connections",
      "2",
      "--cache-dir",
      join(dir, "cache"),
      "--results",
      results,
      "--database-url",
      url,
      "--schema",
      schema,
    ]);
    assert.equal(code, 0, "no non-2xx responses or errors");
    const text = await readFile(results, "utf8");
    assert.match(text, /## list\n\nkept\n/);
    const section = text.slice(text.indexOf("## list (PostgreSQL)"));
    assert.ok(section.startsWith("## list (PostgreSQL)\n"), "section written");
    assert.match(section, /- PostgreSQL \d+(\.\d+)? .*, on this machine \(TCP over loopback/);
    assert.match(section, new RegExp(`schema \`${schema}\` \\(the benchmark's own: `));
    assert.match(section, /settings: shared_buffers \d+[kMG]B, effective_cache_size /);
    assert.match(section, /fsync (on|off)/);
    // Loaded in this run: the import's time and rate, then the vacuum.
    const load = section.match(
      /- Generate: [^;]+; load \(`bridge-oracle import`'s path[^)]*\): (\d+\.\d) s, ([\d,]+) records\/s, then VACUUM \(ANALYZE\) \d+\.\d s\n/,
    );
    assert.ok(load, "load line");
    assert.ok(Number(load[2]!.replace(/,/g, "")) > 0, "records/s");
    assert.match(section, /- Data: 1,000 generated records in PostgreSQL; hot addresses: `0x/);
    assert.match(
      section,
      /- Import rate per 1,000,000 records \(records\/s;[^)]*\): 0-1,000: [\d,]+; the last at 100 % of the first's rate\./,
    );
    assert.match(
      section,
      /- Database size: [\d.]+ MB \(the schema's tables with their indexes and TOAST\), [\d.]+ MB per 1,000 records\./,
    );
    for (const [, total] of section.matchAll(/`0x[0-9a-fA-F]{40}` \(([\d,]+) transfers\)/g)) {
      assert.ok(Number(total!.replace(/,/g, "")) > 0, "hot address total");
    }
    assert.match(section, /during the measurement: \d+ \(the channel is the database's/);
    assert.match(section, /- Differs from the SQLite section: /);
    // Every scenario, cache on and off, against the same baseline: requests, and no failures.
    for (const row of [
      "mix",
      "mix, cache off",
      "canned: mix",
      "first pages",
      "first pages, cache off",
      "canned: first pages",
      "hash lookups",
      "hash lookups, cache off",
      "canned: hash lookups",
      "hello world",
      "hot first pages, cache off",
      "deep pages, cache off",
    ]) {
      const line = section.split("\n").find((l) => l.startsWith(`| ${row} |`));
      assert.ok(line !== undefined, row);
      const cells = line.split("|").map((c) => c.trim());
      assert.ok(Number(cells[2]!.replace(/,/g, "")) > 0, `${row}: req/s`);
      assert.ok(Number(cells[3]) > 0, `${row}: p50`);
      assert.equal(cells[6], "0 / 0", `${row}: non-2xx / errors`);
    }
    assert.match(section, /\| deep page \(100,000 rows in\) \| \d+\.\d\d \|/);
    assert.match(
      section,
      /hash lookup req\/s >= 50 % of hello world's \| \d+ % with the response cache/,
    );
    const [row] = await marker(schema);
    assert.equal(row?.fingerprint.startsWith(`records=${RECORDS} seed=1 jsonl-sha256=`), true);
  });

  it("behavior: the schema is reused while the fingerprint matches, loaded again when it does not", {
    timeout: 60_000,
  }, async () => {
    const cacheDir = join(dir, "cache");
    const first = await ensureGeneratedData({ records: RECORDS, seed: 1, cacheDir, log });
    await ensurePostgresDataset({ databaseUrl: url, schema, generated: first, log });
    const [loaded] = await marker(schema);
    assert.equal(loaded?.fingerprint, datasetFingerprint(first));

    const again = await ensurePostgresDataset({ databaseUrl: url, schema, generated: first, log });
    assert.equal(again.load.reused, true);
    assert.ok(again.load.recordsPerSecond > 0, "the first load's rate, from the marker");
    assert.deepEqual(await marker(schema), [loaded], "not loaded again");

    const other = await ensureGeneratedData({ records: RECORDS, seed: 2, cacheDir, log });
    assert.notEqual(datasetFingerprint(other), datasetFingerprint(first));
    const reloaded = await ensurePostgresDataset({
      databaseUrl: url,
      schema,
      generated: other,
      log,
    });
    assert.equal(reloaded.load.reused, false);
    const [now] = await marker(schema);
    assert.equal(now?.fingerprint, datasetFingerprint(other));
    // The API servers get the schema through the URL's search_path.
    assert.match(reloaded.databaseUrl, new RegExp(`search_path%3D${schema}`));
    const admin = await connectAdmin(url);
    try {
      const { rows } = await admin.query(
        `SELECT count(*)::int AS n FROM ${schema}.transfers WHERE message_id = $1`,
        [other.sample.hashes[0]],
      );
      assert.equal(rows[0].n, 1, "the other data set's records are there");
    } finally {
      await admin.end();
    }
  });

  it("error: a schema of that name with someone else's tables is refused and left alone", async () => {
    const admin = await connectAdmin(url);
    try {
      await admin.query(`CREATE SCHEMA ${foreign}`);
      await admin.query(`CREATE TABLE ${foreign}.kept (x int)`);
      await admin.query(`INSERT INTO ${foreign}.kept VALUES (7)`);
      const generated = await ensureGeneratedData({
        records: RECORDS,
        seed: 1,
        cacheDir: join(dir, "cache"),
        log,
      });
      await assert.rejects(
        ensurePostgresDataset({ databaseUrl: url, schema: foreign, generated, log }),
        /holds tables the benchmark did not create .*left alone; pass another --schema/,
      );
      const { rows } = await admin.query(`SELECT x FROM ${foreign}.kept`);
      assert.deepEqual(rows, [{ x: 7 }]);
    } finally {
      await admin.end();
    }
  });

  it("error: an unreachable server, or no postgres:// URL, exits 1 saying so", async () => {
    const unreachable = await captureStderr(() =>
      runListBenchmark(
        [
          "--store",
          "postgres",
          "--records",
          String(RECORDS),
          "--cache-dir",
          join(dir, "cache"),
          "--no-write",
          "--database-url",
          "postgres://bench:secret-password@127.0.0.1:1/none",
        ],
        {},
      ),
    );
    assert.equal(unreachable.value, 1);
    assert.match(
      unreachable.stderr,
      /PostgreSQL is not reachable at postgres:\/\/bench:\*\*\*@127/,
    );
    assert.doesNotMatch(unreachable.stderr, /secret-password/);

    const sqliteUrl = await captureStderr(() =>
      runListBenchmark(["--store", "postgres"], { DATABASE_URL: "./data/bridge-oracle.db" }),
    );
    assert.equal(sqliteUrl.value, 1);
    assert.match(sqliteUrl.stderr, /^--store postgres needs a postgres:\/\/ URL/);

    const sqliteOnly = await captureStderr(() => runListBenchmark(["--schema", "bench_x"], {}));
    assert.equal(sqliteOnly.value, 1);
    assert.match(sqliteOnly.stderr, /^--database-url and --schema apply to --store postgres/);

    const notOurs = await captureStderr(() =>
      runListBenchmark(["--store", "postgres", "--schema", "public"], { DATABASE_URL: url }),
    );
    assert.equal(notOurs.value, 1);
    assert.match(notOurs.stderr, /^--schema must start with bench_/);
  });
});
