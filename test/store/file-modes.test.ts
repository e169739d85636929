/**
 * A fresh SQLite database is private to its owner (issue #41): its data directory 0700, the
 * database and its -wal and -shm files 0600, under the usual umask 022, whether the store, `serve`
 * or `index` creates it (`start` is checked in test/start/start.test.ts). An existing, looser
 * file is left as it is, with a warning.
 */
import assert from "node:assert/strict";
import { chmodSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, afterEach, before, beforeEach, describe, it } from "node:test";
import { run as runIndex } from "../../src/cli/index-chains.js";
import { run as runServe } from "../../src/cli/serve.js";
import { openSqliteDatabase } from "../../src/store/sqlite/sqlite-database.js";
import { captureStderr } from "../setup/capture-stderr.js";
import { waitForValue } from "../setup/eventually.js";
import { freePort } from "../setup/free-port.js";
import { writeRefusedChainConfig } from "../setup/refused-chain.js";

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** The modes of a database's directory and files, as octal strings. */
function modesOf(databasePath: string) {
  return {
    directory: mode(join(databasePath, "..")),
    database: mode(databasePath),
    wal: mode(`${databasePath}-wal`),
    shm: mode(`${databasePath}-shm`),
  };
}

const PRIVATE = { directory: "700", database: "600", wal: "600", shm: "600" };

describe("SQLite file modes (#41)", () => {
  let dir: string;
  let umask: number;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-modes-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    umask = process.umask(0o022); // the usual one, under which the files were 0644 before
  });
  afterEach(() => {
    process.umask(umask);
  });

  it("default: the store creates its directory 0700 and the database, -wal and -shm 0600", async () => {
    const path = join(dir, "store", "data", "bridge-oracle.db");
    const database = await openSqliteDatabase({ path });
    try {
      await database.apiKeys.listKeys(); // the WAL and shared memory exist once read
      assert.deepEqual(modesOf(path), PRIVATE);
    } finally {
      await database.close();
    }
  });

  it("behavior: an existing looser database is kept as it is, with a warning naming the fix", async () => {
    const path = join(dir, "loose", "bridge-oracle.db");
    await (await openSqliteDatabase({ path })).close();
    chmodSync(path, 0o644);
    const warnings: string[] = [];
    const database = await openSqliteDatabase({
      path,
      logger: { info: () => {}, warn: (_fields, message) => void warnings.push(message) },
    });
    await database.close();
    assert.equal(mode(path), "644");
    assert.equal(warnings.length, 1, warnings.join("\n"));
    assert.match(warnings[0] as string, /mode 644: other local accounts .* chmod 600/);
  });

  it("default: `serve` on a fresh database", async () => {
    const path = join(dir, "serve", "data", "bridge-oracle.db");
    const port = await freePort();
    const exitCode = runServe([], {
      env: { PORT: String(port), DATABASE_URL: path, DEVNET_DIR: dir, LOG_LEVEL: "silent" },
    });
    try {
      await waitForValue(async () => {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`);
        return response.status === 200 ? true : undefined;
      });
      assert.deepEqual(modesOf(path), PRIVATE);
    } finally {
      process.kill(process.pid, "SIGTERM");
      assert.equal(await exitCode, 0);
    }
  });

  it("default: `index` on a fresh database (its lock file too)", async () => {
    const path = join(dir, "index", "data", "bridge-oracle.db");
    const config = await writeRefusedChainConfig(join(dir, "refused.json"));
    const lines: string[] = [];
    let stop: (signal: string) => void = () => {};
    const stopSignal = new Promise<string>((resolve) => {
      stop = resolve;
    });
    const done = captureStderr(() =>
      runIndex(
        ["--config", config, "--database", path],
        {},
        {
          logDestination: { write: (line) => void lines.push(line) },
          stopSignal,
        },
      ),
    );
    try {
      // The chain's RPC refuses connections: the indexer runs, retrying, with its database open.
      await waitForValue(async () =>
        lines.some((l) => l.includes('"level":40')) ? true : undefined,
      );
      assert.deepEqual(modesOf(path), PRIVATE, lines.join(""));
      assert.equal(mode(`${path}-indexer.lock`), "600");
    } finally {
      stop("SIGTERM");
      const { value, stderr } = await done;
      assert.equal(value, 0, stderr);
    }
  });
});
