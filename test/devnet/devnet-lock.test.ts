/**
 * DEVNET_DIR's lock with real processes (`bridge-oracle devnet --persist`, real anvil): a run
 * killed with SIGKILL leaves its persistent anvil nodes running (own process group); the next
 * run stops them before resuming, so they save their newest state and never overwrite the new
 * nodes' files; a second run on a directory in use is refused; a clean stop removes the lock.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createPublicClient, http } from "viem";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { DEVNET_LOCK_FILE } from "../../src/devnet/devnet-lock.js";
import { MANIFEST_FILE, readManifest } from "../../src/devnet/write-manifest.js";
import { waitFor } from "./devnet-helpers.js";

const ENTRY = join(import.meta.dirname, "..", "start", "cli-entry.ts");

function runDevnetCli(dir: string) {
  const child = spawn(
    process.execPath,
    [...tsEntryArgs(ENTRY), ...["devnet", "--persist", "--chains", "2", "--quiet"]],
    {
      cwd: process.cwd(),
      env: { ...process.env, DEVNET_DIR: dir },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const up = async () => {
    await waitFor(
      "the summary",
      async () => {
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${stderr}`);
        return stdout.includes("press Ctrl-C");
      },
      30_000,
      50,
    );
  };
  return { child, exited, up, stdout: () => stdout, stderr: () => stderr };
}

/** Live anvil processes whose command line names `dir` (their --state files). */
function anvilPidsOf(dir: string): number[] {
  const out = execFileSync("ps", ["-eo", "pid,stat,args"], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter(([, stat = "", ...args]) => !stat.startsWith("Z") && args.join(" ").includes(dir))
    .filter(([, , binary = ""]) => binary.includes("anvil"))
    .map(([pid]) => Number(pid));
}

describe("devnet: one run per DEVNET_DIR", () => {
  let dir: string;
  const started: ReturnType<typeof runDevnetCli>[] = [];
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "devnet-lock-"));
  });
  after(async () => {
    for (const cli of started) cli.child.kill("SIGKILL");
    for (const pid of anvilPidsOf(dir)) process.kill(pid, "SIGKILL");
    await rm(dir, { recursive: true, force: true });
  });

  it("behavior: after a SIGKILL the next run stops the dead run's chains, resumes, and a third run is refused", {
    timeout: 60_000,
  }, async () => {
    const crashed = runDevnetCli(dir);
    started.push(crashed);
    await crashed.up();
    const orphans = anvilPidsOf(dir);
    assert.equal(orphans.length, 2, "two persistent anvil nodes");
    const chains = (await readManifest(join(dir, MANIFEST_FILE))).chains.map((chain) =>
      createPublicClient({ transport: http(chain.rpcUrl) }),
    );
    crashed.child.kill("SIGKILL");
    await crashed.exited;
    // The nodes outlive their parent, still mining (a block each after its death, 1 s blocks)
    // and dumping their state every 30 s.
    const heads = await Promise.all(chains.map((chain) => chain.getBlockNumber({ cacheTime: 0 })));
    await waitFor("a block on each orphan", async () => {
      const now = await Promise.all(chains.map((chain) => chain.getBlockNumber({ cacheTime: 0 })));
      return now.every((head, i) => head > heads[i]!);
    });
    assert.deepEqual(anvilPidsOf(dir), orphans);

    const next = runDevnetCli(dir);
    started.push(next);
    await next.up();
    assert.match(next.stderr(), /is gone but left 2 anvil node\(s\) running/);
    // The orphans saved their state on SIGTERM, so the chains resume (without that, a run
    // killed within 30 s of its start has no state saved yet and the next one starts fresh).
    assert.match(next.stdout(), /\(resumed\)/);
    const running = anvilPidsOf(dir);
    assert.equal(running.length, 2);
    assert.deepEqual(
      orphans.filter((pid) => running.includes(pid)),
      [],
      "the dead run's nodes are gone",
    );

    const refused = runDevnetCli(dir);
    started.push(refused);
    assert.equal(await refused.exited, 1, refused.stdout());
    assert.match(
      refused.stderr(),
      new RegExp(`is in use by bridge-oracle devnet \\(pid ${next.child.pid}`),
    );
    assert.deepEqual(anvilPidsOf(dir).sort(), running.sort(), "the refused run started nothing");

    next.child.kill("SIGINT");
    assert.equal(await next.exited, 0, next.stderr());
    assert.deepEqual(anvilPidsOf(dir), []);
    assert.equal(existsSync(join(dir, DEVNET_LOCK_FILE)), false, "the lock is released");
  });
});
