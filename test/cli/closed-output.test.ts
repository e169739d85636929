/**
 * A reader that closes the CLI's output (`bridge-oracle index | head -1`): the next log line
 * fails with EPIPE. Unhandled, that ended the process at once (exit 1, mid-batch, nothing said;
 * `devnet` left its lock file behind). It now stops as on SIGTERM.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { freePort } from "../setup/free-port.js";
import { writeRefusedChainConfig } from "../setup/refused-chain.js";

describe("CLI: output closed by its reader", () => {
  it("behavior: index whose log reader (stdout) went away stops as on SIGTERM (exit 0)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-closed-output-"));
    try {
      // An RPC that refuses: the indexer logs a retry warning within a few seconds.
      const configPath = await writeRefusedChainConfig(join(dir, "config.json"));
      const child = spawn(
        process.execPath,
        [
          ...tsEntryArgs(join(import.meta.dirname, "..", "start", "cli-entry.ts")),
          "index",
          "--config",
          configPath,
          "--database",
          join(dir, "db.sqlite"),
        ],
        // The log is JSON lines on stdout (stderr has only the progress line, on a terminal).
        { stdio: ["ignore", "pipe", "ignore"] },
      );
      const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.once("exit", (code, signal) => resolve({ code, signal })),
      );
      try {
        // Read the first line, then close the pipe as `head -1` does.
        const first = await Promise.race([
          new Promise<"line">((resolve) => child.stdout?.once("data", () => resolve("line"))),
          exit.then(() => "exited" as const),
          new Promise<"silent">((r) => setTimeout(() => r("silent"), 30_000)),
        ]);
        assert.equal(first, "line", "index wrote nothing on stdout");
        child.stdout?.destroy();
        const result = await Promise.race([
          exit,
          new Promise<"hung">((r) => setTimeout(() => r("hung"), 15_000)),
        ]);
        assert.deepEqual(result, { code: 0, signal: null });
      } finally {
        child.kill("SIGKILL");
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("behavior: serve whose log reader (stdout) went away stops as on SIGTERM (exit 0)", async () => {
    // Regression: Fastify's pino wrote request lines to file descriptor 1 with its own writer,
    // which drops lines after EPIPE without a word: serve ran on, logging into nothing.
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-closed-output-"));
    const port = await freePort();
    try {
      const child = spawn(
        process.execPath,
        [...tsEntryArgs(join(import.meta.dirname, "..", "start", "cli-entry.ts")), "serve"],
        {
          stdio: ["ignore", "pipe", "ignore"],
          env: {
            ...process.env,
            PORT: String(port),
            HOST: "127.0.0.1",
            LOG_LEVEL: "info",
            REDIS_URL: "",
            ROUTER_CONFIG: "",
            DATABASE_URL: join(dir, "db.sqlite"),
            DEVNET_DIR: join(dir, "no-devnet"),
          },
        },
      );
      const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.once("exit", (code, signal) => resolve({ code, signal })),
      );
      try {
        let stdout = "";
        child.stdout?.on("data", (chunk) => {
          stdout += String(chunk);
        });
        for (let i = 0; i < 300 && !stdout.includes("bridge-oracle API listening"); i++) {
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.match(stdout, /bridge-oracle API listening/);
        child.stdout?.destroy();
        // Each request logs a line at info: the first write after the close fails.
        for (let i = 0; i < 5 && child.exitCode === null; i++) {
          await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
          await fetch(`http://127.0.0.1:${port}/no-such-path`).catch(() => undefined);
          await new Promise((r) => setTimeout(r, 200));
        }
        const result = await Promise.race([
          exit,
          new Promise<"running on">((r) => setTimeout(() => r("running on"), 15_000)),
        ]);
        assert.deepEqual(result, { code: 0, signal: null });
      } finally {
        child.kill("SIGKILL");
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
