/**
 * A start refused because another process owns DEVNET_DIR leaves nothing behind: no database
 * file at its DATABASE_URL (the user is told to run it with another DATABASE_URL, so a
 * migrated empty file there would only be litter). The owner is this test process, holding
 * the lock as `start` would.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { acquireDevnetLock, type DevnetLock } from "../../src/devnet/devnet-lock.js";
import { freePort } from "../setup/free-port.js";

const ENTRY = join(import.meta.dirname, "cli-entry.ts");

describe("start: refused for a DEVNET_DIR in use", () => {
  let dir: string;
  let lock: DevnetLock;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bo-start-refused-"));
    lock = await acquireDevnetLock({ dir: join(dir, "devnet"), command: "start" });
  });
  after(async () => {
    lock.release();
    await rm(dir, { recursive: true, force: true });
  });

  it("error: exits 1 naming the owner, before creating its database", async () => {
    const databaseUrl = join(dir, "data", "db.sqlite");
    const child = spawn(process.execPath, [...tsEntryArgs(ENTRY), "start", "--quiet"], {
      cwd: join(import.meta.dirname, "..", ".."),
      env: {
        ...process.env,
        PORT: String(await freePort()),
        DATABASE_URL: databaseUrl,
        DEVNET_DIR: join(dir, "devnet"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    assert.equal(code, 1, stderr);
    assert.match(stderr, new RegExp(`is in use by bridge-oracle start \\(pid ${process.pid}`));
    assert.equal(existsSync(databaseUrl), false, "the refused start created its database");
    assert.equal(
      existsSync(join(dir, "data")),
      false,
      "the refused start created its data directory",
    );
  });
});
