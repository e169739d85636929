/**
 * `bridge-oracle devnet` as a process: prints its summary, writes $DEVNET_DIR/manifest.json,
 * and on SIGINT (or SIGHUP, a closed terminal) stops everything and exits 0 with no anvil left
 * running and its lock released.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { DEVNET_LOCK_FILE } from "../../src/devnet/devnet-lock.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { freePortRun } from "../setup/free-port.js";
import { anvilPidsOnPort, portOf, waitFor } from "./devnet-helpers.js";

const ENTRY = join(import.meta.dirname, "..", "start", "cli-entry.ts");

function runCli(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [...tsEntryArgs(ENTRY), "devnet", ...args], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Waits for the devnet's summary; fails at once, with its stderr, if it exits first. */
function waitForSummary(cli: ReturnType<typeof runCli>) {
  return waitFor(
    "the summary",
    async () => {
      if (cli.child.exitCode !== null) {
        throw new Error(`devnet exited ${cli.child.exitCode} before its summary: ${cli.stderr()}`);
      }
      return cli.stdout().includes("press Ctrl-C");
    },
    30_000,
    100,
  );
}

describe("devnet: bridge-oracle devnet command", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "devnet-cli-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("default: prints chains and manifest path, then stops cleanly on SIGINT with exit 0", async () => {
    const cli = runCli(["--traffic", "30", "--relay-delay", "0", "--quiet"], { DEVNET_DIR: dir });
    try {
      await waitForSummary(cli);
    } catch (error) {
      cli.child.kill("SIGKILL");
      throw new Error(`${String(error)}\nstdout: ${cli.stdout()}\nstderr: ${cli.stderr()}`);
    }
    const out = cli.stdout();
    const manifestPath = join(dir, "manifest.json");
    assert.match(out, /alpha\s+chain id 71001\s+http:\/\/127\.0\.0\.1:\d+/);
    assert.match(out, /beta\s+chain id 71002/);
    assert.match(out, /gamma\s+chain id 71003/);
    assert.ok(out.includes(`manifest: ${manifestPath}`), out);
    const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as DevnetManifest;
    const ports = manifest.chains.map((chain) => portOf(chain.rpcUrl));
    assert.ok(
      ports.every((port) => anvilPidsOnPort(port).length > 0),
      "ports.every((port) => anvilPidsOnPort(port).length > 0)",
    );

    cli.child.kill("SIGINT");
    const code = await Promise.race([
      cli.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve("timeout"), 15_000)),
    ]);
    if (code === "timeout") cli.child.kill("SIGKILL");
    assert.equal(code, 0, `exit ${code}; stderr: ${cli.stderr()}`);
    assert.match(cli.stderr(), /devnet stopped/);
    assert.doesNotMatch(cli.stdout(), /stopp/, "stdout holds only the summary");
    assert.deepEqual(
      ports.flatMap((port) => anvilPidsOnPort(port)),
      [],
    );
  });

  it("behavior: --rpc-port N puts the chains on N, N+1 (and N+2)", {
    timeout: 60_000,
  }, async () => {
    const rpcPort = await freePortRun(2);
    const own = join(dir, "fixed-ports");
    const cli = runCli(["--chains", "2", "--rpc-port", String(rpcPort), "--quiet"], {
      DEVNET_DIR: own,
    });
    try {
      await waitForSummary(cli);
      const manifest = JSON.parse(
        await readFile(join(own, "manifest.json"), "utf8"),
      ) as DevnetManifest;
      assert.deepEqual(
        manifest.chains.map((chain) => [chain.name, chain.rpcUrl]),
        [
          ["alpha", `http://127.0.0.1:${rpcPort}`],
          ["beta", `http://127.0.0.1:${rpcPort + 1}`],
        ],
      );
      assert.match(
        cli.stdout(),
        new RegExp(`alpha\\s+chain id 71001\\s+http://127\\.0\\.0\\.1:${rpcPort}\n`),
      );
    } finally {
      cli.child.kill("SIGINT");
    }
    assert.equal(await cli.exited, 0, cli.stderr());
    assert.deepEqual(anvilPidsOnPort(rpcPort), []);
  });

  it("behavior: SIGHUP (a closed terminal) stops a persistent devnet as SIGINT does: state saved, no anvil left, lock released", {
    timeout: 60_000,
  }, async () => {
    const rpcPort = await freePortRun(2);
    const own = join(dir, "hangup");
    // --persist: the nodes run in their own process group (they outlive a forced exit to write
    // their state), so only this process can stop them; the default action of SIGHUP left them.
    const cli = runCli(["--chains", "2", "--persist", "--rpc-port", String(rpcPort), "--quiet"], {
      DEVNET_DIR: own,
    });
    try {
      await waitForSummary(cli);
      assert.ok(existsSync(join(own, DEVNET_LOCK_FILE)), "the lock is held while it runs");
      cli.child.kill("SIGHUP");
      const code = await Promise.race([
        cli.exited,
        new Promise<string>((resolve) => setTimeout(() => resolve("timeout"), 20_000)),
      ]);
      assert.equal(code, 0, `exit ${code}; stderr: ${cli.stderr()}`);
    } finally {
      cli.child.kill("SIGKILL");
    }
    assert.match(cli.stderr(), /SIGHUP: stopping the devnet/);
    assert.deepEqual([...anvilPidsOnPort(rpcPort), ...anvilPidsOnPort(rpcPort + 1)], []);
    assert.equal(existsSync(join(own, DEVNET_LOCK_FILE)), false, "lock released");
    assert.ok(existsSync(join(own, "state", "alpha.json")), "alpha's state saved");
  });

  it("error: a --rpc-port whose ports are taken exits 1 naming the port, before any chain starts", async () => {
    const rpcPort = await freePortRun(3);
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(rpcPort + 1, "127.0.0.1", resolve));
    try {
      const own = join(dir, "taken-ports");
      const cli = runCli(["--rpc-port", String(rpcPort)], { DEVNET_DIR: own });
      assert.equal(await cli.exited, 1);
      assert.match(
        cli.stderr(),
        new RegExp(
          `cannot listen on 127\\.0\\.0\\.1:${rpcPort + 1} \\(--rpc-port ${rpcPort}: the 3 chains take ports ${rpcPort}-${rpcPort + 2}\\): .*EADDRINUSE`,
        ),
      );
      assert.deepEqual(anvilPidsOnPort(rpcPort), []);
      assert.equal(existsSync(join(own, "manifest.json")), false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("error: a --rpc-port too high for the chains exits 1 with the usage", async () => {
    const cli = runCli(["--rpc-port", "65534"], {});
    assert.equal(await cli.exited, 1);
    assert.match(
      cli.stderr(),
      /rpc port must be an integer from 1 to 65533 \(3 chains take consecutive ports\), got 65534/,
    );
    assert.match(cli.stderr(), /usage: bridge-oracle devnet/);
  });

  it("error: an unknown option exits 1 with the usage", async () => {
    const cli = runCli(["--nope"], {});
    assert.equal(await cli.exited, 1);
    assert.match(cli.stderr(), /unknown option --nope/);
    assert.match(cli.stderr(), /usage: bridge-oracle devnet/);
  });
});
