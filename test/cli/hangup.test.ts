/**
 * A closed terminal sends SIGHUP: `serve` and `index` stop on it as on SIGINT (graceful, exit 0)
 * instead of dying at once by the default action. `devnet` and `start` are checked with their
 * nodes and lock in test/devnet/devnet-cli.test.ts and test/start/start.test.ts.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { eventually, within } from "../setup/eventually.js";
import { freePort } from "../setup/free-port.js";
import { writeRefusedChainConfig } from "../setup/refused-chain.js";

const ENTRY = join(import.meta.dirname, "..", "start", "cli-entry.ts");

function runCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child: ChildProcess = spawn(process.execPath, [...tsEntryArgs(ENTRY), ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    output += String(chunk);
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}

describe("CLI: SIGHUP (a closed terminal)", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-hangup-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("behavior: serve stops on SIGHUP as on SIGINT: in-flight work finished, exit 0", async () => {
    const port = await freePort();
    const cli = runCli(["serve"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      REDIS_URL: "",
      ROUTER_CONFIG: "",
      DATABASE_URL: join(dir, "serve.sqlite"),
      DEVNET_DIR: join(dir, "no-devnet"),
    });
    try {
      await eventually(30_000, () => assert.match(cli.output(), /bridge-oracle API listening/));
      cli.child.kill("SIGHUP");
      assert.deepEqual(await within(15_000, "serve's exit", cli.exited), {
        code: 0,
        signal: null,
      });
      assert.match(cli.output(), /"signal":"SIGHUP".*shutting down/);
    } finally {
      cli.child.kill("SIGKILL");
    }
  });

  it("behavior: index stops on SIGHUP as on SIGINT: the batch finishes, exit 0", async () => {
    const config = await writeRefusedChainConfig(join(dir, "config.json"));
    const cli = runCli(["index", "--config", config, "--database", join(dir, "index.sqlite")]);
    try {
      // Its first log line says it is indexing: the signal handlers are in place by then.
      await eventually(30_000, () => assert.match(cli.output(), /indexing alpha/));
      cli.child.kill("SIGHUP");
      assert.deepEqual(await within(15_000, "index's exit", cli.exited), {
        code: 0,
        signal: null,
      });
      assert.match(cli.output(), /SIGHUP: finishing the current batch, then stopping/);
    } finally {
      cli.child.kill("SIGKILL");
    }
  });
});
