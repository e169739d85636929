/**
 * A reader that closes the CLI's output (`bridge-oracle index | head -1`): the next log line
 * fails with EPIPE. Unhandled, that ended the process at once (exit 1, mid-batch, nothing said;
 * `devnet` left its lock file behind). It now stops as on SIGTERM.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";

describe("CLI: output closed by its reader", () => {
  it("behavior: index whose log reader (stdout) went away stops as on SIGTERM (exit 0)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bridge-oracle-closed-output-"));
    try {
      const configPath = join(dir, "config.json");
      // An RPC that refuses: the indexer logs a retry warning within a few seconds.
      await writeFile(
        configPath,
        JSON.stringify({
          chains: [
            {
              name: "alpha",
              chainId: 71001,
              rpcUrl: "http://127.0.0.1:1",
              bridges: { "0": "0x1111111111111111111111111111111111111111" },
              bridgeChainIds: { "0": "71001" },
            },
          ],
        }),
      );
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          join(import.meta.dirname, "..", "start", "cli-entry.ts"),
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
});
