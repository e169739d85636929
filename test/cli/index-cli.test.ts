/**
 * `bridge-oracle index` refuses bad settings as `serve` does (exit 1 and a message, no stack
 * trace, nothing created), and an empty variable counts as unset.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { run } from "../../src/cli/index-chains.js";
import { captureStderr } from "../setup/capture-stderr.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";

/** Runs `index` with `env`, capturing stderr. */
async function index(args: string[], env: NodeJS.ProcessEnv) {
  const { value: code, stderr } = await captureStderr(() => run(args, env));
  return { code, stderr };
}

describe("bridge-oracle index: settings", () => {
  let dir: IsolatedDatabase;
  before(async () => {
    dir = await setupIsolatedDatabase("sqlite");
  });
  after(async () => {
    await dir.cleanup();
  });

  it("error: a DATABASE_URL of another scheme is refused, naming it, and creates nothing", async () => {
    const cwdFile = "mysql:";
    const { code, stderr } = await index(["--config", "none.json"], {
      DATABASE_URL: "mysql://x/y",
    });
    assert.equal(code, 1);
    assert.match(
      stderr,
      /^configuration error: DATABASE_URL must be a SQLite file path or a postgres:\/\/ URL/,
    );
    assert.equal(existsSync(cwdFile), false);
  });

  it("error: an unreachable PostgreSQL is one line naming it, password masked", async () => {
    const { code, stderr } = await index(["--status"], {
      DATABASE_URL: "postgres://app:s3cret@127.0.0.1:1/db",
    });
    assert.equal(code, 1);
    assert.match(
      stderr,
      /index error: cannot prepare PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/db/,
    );
    assert.doesNotMatch(stderr, /s3cret|\n\s+at /);
  });

  it("error: --status on a SQLite path with no database says so and creates none", async () => {
    const missing = join(tmpdir(), `index-status-missing-${process.pid}.sqlite`);
    const { code, stderr } = await index(["--status", "--database", missing], {});
    assert.equal(code, 1);
    assert.match(
      stderr,
      /index error: no database at .*index-status-missing-\d+\.sqlite \(DATABASE_URL or --database\): nothing was indexed there/,
    );
    assert.equal(existsSync(missing), false);
  });

  it("behavior: an empty DEVNET_DIR is unset (.devnet), an unknown option exits 1", async () => {
    const { code, stderr } = await index(["--database", dir.databaseUrl], { DEVNET_DIR: "" });
    assert.equal(code, 1);
    assert.match(stderr, /\.devnet\/manifest\.json: cannot read the file/);
    assert.equal((await index(["--bogus"], {})).code, 1);
  });

  it("error: a SQLite file deleted under the running indexer stops it with exit 1, naming the file", async () => {
    // Regression: the indexer went on writing into the deleted file, all of it lost at restart.
    const rpc = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const { id, method, params } = JSON.parse(body) as {
          id: number;
          method: string;
          params: unknown[];
        };
        const hash = (n: number) => `0x${(n + 1).toString(16).padStart(64, "0")}`;
        let result: unknown = null;
        if (method === "eth_chainId") result = "0x1155a";
        else if (method === "eth_blockNumber") result = "0x5";
        else if (method === "eth_getLogs") result = [];
        else if (method === "eth_getBlockByNumber") {
          const n = Number(params[0]);
          result = {
            number: `0x${n.toString(16)}`,
            hash: hash(n),
            parentHash: n === 0 ? `0x${"0".repeat(64)}` : hash(n - 1),
            timestamp: `0x${(1_700_000_000 + n).toString(16)}`,
          };
        }
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
      });
    });
    await new Promise<void>((resolve) => rpc.listen(0, "127.0.0.1", resolve));
    const workDir = await mkdtemp(join(tmpdir(), "index-cli-gone-"));
    try {
      const configPath = join(workDir, "chain.json");
      const databasePath = join(workDir, "db.sqlite");
      const chain = {
        name: "beta",
        chainId: 71002,
        rpcUrl: `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`,
        startBlock: 0,
        confirmations: 0,
        bridges: { "2": "0x00000000000000000000000000000000000000a2" },
        bridgeChainIds: { "2": "40102" },
      };
      await writeFile(
        configPath,
        JSON.stringify({ chains: [chain], indexer: { pollIntervalMs: 50 } }),
      );
      const running = index(["--config", configPath, "--database", databasePath], {});
      await new Promise((r) => setTimeout(r, 1500)); // indexing, then idle at the head
      await rm(databasePath);
      const outcome = await Promise.race([
        running,
        new Promise<undefined>((r) => setTimeout(() => r(undefined), 10_000)),
      ]);
      if (outcome === undefined) {
        process.emit("SIGTERM"); // the old code indexed on: stop it as a supervisor would
        await running;
        assert.fail("the indexer went on for 10 s after its database file was deleted");
      }
      const { code, stderr } = outcome;
      assert.equal(code, 1, stderr);
      assert.match(
        stderr,
        /index error: the SQLite database .*db\.sqlite was deleted after this process opened it; what it writes now is lost at the next start: restart the process/,
      );
    } finally {
      rpc.close();
      await rm(workDir, { recursive: true, force: true });
    }
  });

  it("error: a chain that stops loudly (its rpcUrl serves another chain) is reported once, exit 1", async () => {
    // Regression: the chain loop logged the stop and the command logged the same message again.
    const rpc = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const { id, method } = JSON.parse(body) as { id: number; method: string };
        res.setHeader("content-type", "application/json");
        res.end(
          JSON.stringify(
            method === "eth_chainId"
              ? { jsonrpc: "2.0", id, result: "0x1" }
              : { jsonrpc: "2.0", id, error: { code: -32601, message: "not here" } },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => rpc.listen(0, "127.0.0.1", resolve));
    const configDir = await mkdtemp(join(tmpdir(), "index-cli-"));
    try {
      const configPath = join(configDir, "wrong-chain.json");
      const chain = {
        name: "alpha",
        chainId: 71001,
        rpcUrl: `http://127.0.0.1:${(rpc.address() as AddressInfo).port}`,
        startBlock: 0,
        confirmations: 0,
        bridges: { "2": "0x00000000000000000000000000000000000000a2" },
        bridgeChainIds: { "2": "40101" },
      };
      await writeFile(configPath, JSON.stringify({ chains: [chain] }));
      const { code, stderr } = await index(
        ["--config", configPath, "--database", dir.databaseUrl],
        {},
      );
      assert.equal(code, 1);
      const stops = stderr.match(/rpcUrl serves chain id 1, not the configured 71001/g) ?? [];
      assert.equal(stops.length, 1, stderr);
      assert.match(stderr, /index info: stopped: a chain stopped loudly \(its error is above\)/);
    } finally {
      rpc.close();
      await rm(configDir, { recursive: true, force: true });
    }
  });
});
