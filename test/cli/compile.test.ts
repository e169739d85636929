/**
 * `bridge-oracle compile --if-stale` (what `npm install` runs): compiles when contracts/ changed,
 * and otherwise only says the artifacts are up to date.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { artifactsPath } from "../../src/devnet/compile.js";

const ENTRY = join(import.meta.dirname, "..", "start", "cli-entry.ts");

function compile(args: string[]) {
  return promisify(execFile)(process.execPath, [...tsEntryArgs(ENTRY), "compile", ...args], {
    cwd: join(import.meta.dirname, "..", ".."),
  });
}

describe("bridge-oracle compile", () => {
  it("behavior: --if-stale leaves fresh artifacts alone", { timeout: 120_000 }, async () => {
    // The first call compiles only if contracts/ changed since the last compile.
    await compile(["--if-stale"]);
    const { stdout } = await compile(["--if-stale"]);
    assert.equal(stdout, `contracts are up to date: ${artifactsPath()}\n`);
  });

  it("error: an unknown argument exits 1 with the usage", async () => {
    await assert.rejects(compile(["--what"]), (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.match(
        error.stderr,
        /unknown argument: --what\n\nusage: bridge-oracle compile \[--if-stale\]/,
      );
      return true;
    });
  });
});
