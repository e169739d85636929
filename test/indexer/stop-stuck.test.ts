/**
 * Stopping `bridge-oracle index` (SIGTERM) while a batch waits on a database that never answers
 * (here: a lock another session holds, which the silence check rightly leaves alone; in the
 * field also a connection that went silent, until that check drops it). The process must
 * not say "finishing the current batch" for ever: after its stop grace (shortened here) it exits
 * 1 and says why.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import pg from "pg";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { openDatabase } from "../../src/store/index.js";
import { setupIsolatedDatabase } from "../setup/database.js";
import { waitUntilBlockedBy } from "../setup/postgres-observers.js";
import { writeRefusedChainConfig } from "../setup/refused-chain.js";

describe("index CLI: a stop while the database does not answer", () => {
  it("error: SIGTERM during a batch stuck on PostgreSQL exits 1 after the stop grace", async () => {
    // Regression: the process logged "SIGTERM: finishing the current batch, then stopping"
    // and then waited for good; only a second signal (or SIGKILL) ended it.
    const db = await setupIsolatedDatabase("postgres");
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-stop-stuck-"));
    const store = await openDatabase(db.databaseUrl); // migrated
    await store.close();
    const locker = new pg.Client({ connectionString: db.databaseUrl });
    await locker.connect();
    try {
      await locker.query("BEGIN");
      await locker.query(
        "LOCK TABLE indexer_chains, token_metadata, raw_events IN ACCESS EXCLUSIVE MODE",
      );
      // An RPC that refuses: the indexer logs a retry warning within a few seconds.
      const configPath = await writeRefusedChainConfig(join(dir, "config.json"));
      const child = spawn(
        process.execPath,
        [
          ...tsEntryArgs(join(import.meta.dirname, "index-child.ts")),
          "--config",
          configPath,
          "--database",
          db.databaseUrl,
        ],
        {
          stdio: ["ignore", "pipe", "pipe"],
          env: { ...process.env, TEST_INDEX_STOP_GRACE_MS: "1000" },
        },
      );
      let stdout = ""; // the JSON log
      let stderr = "";
      child.stdout?.on("data", (chunk) => {
        stdout += String(chunk);
      });
      child.stderr?.on("data", (chunk) => {
        stderr += String(chunk);
      });
      const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
      try {
        for (let i = 0; i < 100 && !stdout.includes("indexing alpha"); i++) {
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.match(stdout, /"msg":"indexing alpha/, stderr);
        // The stop comes once its first step waits on the locked tables.
        await waitUntilBlockedBy(locker, db.databaseUrl);
        child.kill("SIGTERM");
        const code = await Promise.race([
          exit,
          new Promise<"hung">((r) => setTimeout(() => r("hung"), 8000)),
        ]);
        assert.equal(code, 1, `exit: ${code}; stdout:\n${stdout}\nstderr:\n${stderr}`);
        const last = JSON.parse(stdout.trimEnd().split("\n").at(-1) ?? "") as {
          level: number;
          msg: string;
        };
        assert.equal(last.level, 50);
        assert.match(last.msg, /^SIGTERM: a batch has not finished 1 s after the stop/);
      } finally {
        child.kill("SIGKILL");
      }
    } finally {
      await locker.query("ROLLBACK").catch(() => undefined);
      await locker.end();
      await db.cleanup();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
