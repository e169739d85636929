/**
 * `serve` and `index` run side by side under one supervisor and one log shipper: their stdout
 * must be one kind of JSON line. serve's own start-up lines (store, router: written before
 * Fastify's logger exists), its request lines (Fastify's pino) and index's lines all have
 * pino's layout: level, time, pid, hostname, the line's fields, msg.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { freePort } from "../setup/free-port.js";
import { writeRefusedChainConfig } from "../setup/refused-chain.js";

const ENTRY = join(import.meta.dirname, "..", "start", "cli-entry.ts");

interface Running {
  child: ChildProcess;
  stdout(): string;
  exited: Promise<number | null>;
}

function startCli(args: string[], env: NodeJS.ProcessEnv): Running {
  const child = spawn(process.execPath, [...tsEntryArgs(ENTRY), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LOG_LEVEL: "", REDIS_URL: "", ...env },
  });
  let stdout = "";
  child.stdout?.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stderr?.resume();
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, stdout: () => stdout, exited };
}

async function waitFor(running: Running, text: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !running.stdout().includes(text); ) {
    if (Date.now() > deadline || running.child.exitCode !== null) {
      running.child.kill("SIGKILL");
      assert.fail(`no ${text} on stdout:\n${running.stdout()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The lines of a stopped process, each checked for pino's layout. */
async function stopAndRead(running: Running): Promise<Record<string, unknown>[]> {
  running.child.kill("SIGTERM");
  assert.equal(await running.exited, 0, running.stdout());
  const lines = running
    .stdout()
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const line of lines) {
    const keys = Object.keys(line);
    assert.deepEqual(keys.slice(0, 4), ["level", "time", "pid", "hostname"], JSON.stringify(line));
    assert.equal(keys.at(-1), "msg", JSON.stringify(line));
    assert.equal(line.pid, running.child.pid);
    assert.equal(line.hostname, hostname());
  }
  return lines;
}

describe("serve and index: one log shape", () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-log-shape-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("default: serve's start-up and request lines and index's lines share pino's layout", async () => {
    // Regression: serve's start-up lines had no hostname; index wrote text lines to stderr.
    const databaseUrl = join(dir, "db.sqlite");
    const port = await freePort();
    const serve = startCli(["serve"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      DEVNET_DIR: join(dir, "no-devnet"),
      ROUTER_CONFIG: "",
    });
    await waitFor(serve, "bridge-oracle API listening");
    assert.equal((await fetch(`http://127.0.0.1:${port}/no-such-path`)).status, 404);
    const serveLines = await stopAndRead(serve);
    const messages = serveLines.map((l) => l.msg);
    assert.ok(messages.includes("sqlite store open"), messages.join("\n")); // before Fastify
    assert.ok(messages.includes("request completed"), messages.join("\n")); // Fastify's pino

    // An RPC that refuses: the indexer logs a retry warning within a few seconds.
    const configPath = await writeRefusedChainConfig(join(dir, "index.json"));
    const index = startCli(["index", "--config", configPath], { DATABASE_URL: databaseUrl });
    await waitFor(index, '"msg":"indexing alpha');
    const indexLines = await stopAndRead(index);
    assert.ok(
      indexLines.some((l) => l.msg === "stopped"),
      'indexLines.some((l) => l.msg === "stopped")',
    );
  });
});
