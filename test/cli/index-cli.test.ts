/**
 * `bridge-oracle index` refuses bad settings as `serve` does (exit 1 and a message on stderr, no
 * stack trace, nothing created), and an empty variable counts as unset. Once running it logs as
 * `serve` does: JSON lines (here collected through the run's logDestination) at LOG_LEVEL.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { type IndexRunOptions, run } from "../../src/cli/index-chains.js";
import { readCursors } from "../indexer/helpers.js";
import { captureStderr } from "../setup/capture-stderr.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { waitForValue } from "../setup/eventually.js";
import { writeRefusedChainConfig } from "../setup/refused-chain.js";

/** A line of the JSON log (pino's shape, as `serve` writes it). */
interface LogLine {
  level: number;
  time: number;
  pid: number;
  hostname: string;
  msg: string;
  [field: string]: unknown;
}

/**
 * Runs `index` with `env`, capturing stderr and the log lines. One still running after
 * `limitMs` is stopped (SIGTERM) and fails the test.
 */
async function index(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: IndexRunOptions = {},
  limitMs = 20_000,
) {
  const written: string[] = [];
  const running = captureStderr(() =>
    run(args, env, { logDestination: { write: (line) => written.push(line) }, ...options }),
  );
  const outcome = await Promise.race([
    running,
    new Promise<undefined>((r) => setTimeout(() => r(undefined), limitMs).unref()),
  ]);
  if (outcome === undefined) {
    process.emit("SIGTERM");
    await running;
    assert.fail(`index still running after ${limitMs} ms`);
  }
  const { value: code, stderr } = outcome;
  return { code, stderr, log: written.map((line) => JSON.parse(line) as LogLine), written };
}

/**
 * Starts `index` in the background; `stop()` is its SIGTERM. `until` waits for a log line.
 */
function startIndex(args: string[], env: NodeJS.ProcessEnv) {
  const written: string[] = [];
  let stop: (signal: string) => void = () => {};
  const stopSignal = new Promise<string>((resolve) => {
    stop = resolve;
  });
  const done = captureStderr(() =>
    run(args, env, { logDestination: { write: (line) => written.push(line) }, stopSignal }),
  );
  const log = () => written.map((line) => JSON.parse(line) as LogLine);
  const stopped = async () => {
    stop("SIGTERM");
    const outcome = await Promise.race([
      done,
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 20_000).unref()),
    ]);
    if (outcome === undefined) {
      process.emit("SIGTERM"); // a run that ignores stopSignal (the old code) stops too
      await done;
      throw new Error(`no stop within 20 s; log:\n${written.join("")}`);
    }
    return { code: outcome.value, stderr: outcome.stderr };
  };
  return {
    log,
    written,
    async until(what: string, found: (line: LogLine) => boolean): Promise<LogLine> {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
        const line = log().find(found);
        if (line !== undefined) return line;
        await new Promise((r) => setTimeout(r, 50));
      }
      await stopped();
      throw new Error(`no ${what} within 30 s; log:\n${written.join("")}`);
    },
    stop: stopped,
  };
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
      /^cannot prepare PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/db/,
    );
    assert.doesNotMatch(stderr, /s3cret|\n\s+at /);
  });

  it("error: --status on a SQLite path with no database says so and creates none", async () => {
    const missing = join(tmpdir(), `index-status-missing-${process.pid}.sqlite`);
    const { code, stderr } = await index(["--status", "--database", missing], {});
    assert.equal(code, 1);
    assert.match(
      stderr,
      /^no database at .*index-status-missing-\d+\.sqlite \(DATABASE_URL or --database\): nothing was indexed there\n$/,
    );
    assert.equal(existsSync(missing), false);
  });

  it("error: --status on a database the indexer never migrated says so and migrates nothing", async () => {
    const empty = join(tmpdir(), `index-status-empty-${process.pid}.sqlite`);
    new Database(empty).close(); // an empty SQLite file
    try {
      const { code, stderr } = await index(["--status", "--database", empty], {});
      assert.equal(code, 1);
      assert.match(stderr, /the database is not migrated to this version of bridge-oracle \(0 of/);
      const file = new Database(empty, { readonly: true });
      try {
        assert.deepEqual(file.prepare("SELECT name FROM sqlite_master").all(), []);
      } finally {
        file.close();
      }
    } finally {
      for (const suffix of ["", "-wal", "-shm"]) await rm(`${empty}${suffix}`, { force: true });
    }
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
      // Deleted once the indexer is idle at the head (block 5): it indexed into this file.
      await waitForValue(async () => {
        const [cursor] = await readCursors(databasePath);
        return cursor?.cursorBlock === 5 ? cursor : undefined;
      }, 15_000);
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
      const { code, stderr, written, log } = outcome;
      assert.equal(code, 1, stderr + written.join(""));
      const gone = log.find((l) => l.msg.includes("was deleted after this process opened it"));
      assert.equal(gone?.level, 50, written.join(""));
      assert.match(
        gone.msg,
        /^the SQLite database .*db\.sqlite was deleted after this process opened it; what it writes now is lost at the next start: restart the process/,
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
      const { code, stderr, log, written } = await index(
        ["--config", configPath, "--database", dir.databaseUrl],
        {},
      );
      assert.equal(code, 1, stderr);
      const stops = log.filter((l) =>
        /rpcUrl serves chain id 1, not the configured 71001/.test(l.msg),
      );
      assert.equal(stops.length, 1, written.join(""));
      assert.equal(stops[0]?.level, 50);
      assert.equal(stops[0]?.chain, "alpha");
      assert.equal(stops[0]?.chainId, 71001);
      assert.equal(log.at(-1)?.msg, "stopped: a chain stopped loudly (its error is above)");
      assert.equal(log.at(-1)?.level, 30);
    } finally {
      rpc.close();
      await rm(configDir, { recursive: true, force: true });
    }
  });
});

describe("bridge-oracle index: log", () => {
  let workDir: string;
  let configPath: string;
  before(async () => {
    workDir = await mkdtemp(join(tmpdir(), "index-cli-log-"));
    configPath = await writeRefusedChainConfig(join(workDir, "refused.json"));
  });
  after(async () => {
    await rm(workDir, { recursive: true, force: true });
  });

  it("default: JSON lines on stdout in serve's shape, info and up, nothing on stderr", async () => {
    // Regression: `index` wrote `<time> index <level>: <message>` text lines to stderr, for
    // every level, beside `serve`'s JSON lines on stdout.
    const child = spawn(
      process.execPath,
      [
        ...tsEntryArgs(join(import.meta.dirname, "..", "start", "cli-entry.ts")),
        "index",
        "--config",
        configPath,
        "--database",
        join(workDir, "shape.sqlite"),
      ],
      { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LOG_LEVEL: "" } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk) => {
      stdout += String(chunk);
    });
    child.stderr?.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      for (let i = 0; i < 300 && !stdout.includes('"level":40'); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      child.kill("SIGTERM");
      assert.equal(await exit, 0, `stdout:\n${stdout}\nstderr:\n${stderr}`);
    } finally {
      child.kill("SIGKILL");
    }
    assert.equal(stderr, "");
    assert.ok(stdout.endsWith("\n"), 'stdout.endsWith("\\n")');
    const lines = stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as LogLine);
    for (const line of lines) {
      // pino's base fields first and `msg` last, as in serve's lines (docs/operations.md).
      assert.deepEqual(Object.keys(line).slice(0, 4), ["level", "time", "pid", "hostname"]);
      assert.equal(Object.keys(line).at(-1), "msg");
      assert.equal(line.pid, child.pid);
      assert.ok(Math.abs(line.time - Date.now()) < 60_000, `time ${line.time}`);
      assert.ok(line.level >= 30, `a line below info: ${JSON.stringify(line)}`);
    }
    const indexing = lines.find((l) => l.msg.startsWith("indexing alpha from "));
    assert.equal(indexing?.level, 30, stdout);
    assert.deepEqual(indexing.chains, [{ chain: "alpha", chainId: 71001 }]);
    assert.equal(indexing.store, "sqlite");
    const retry = lines.find((l) => l.level === 40);
    assert.match(retry?.msg ?? "", /^chain alpha: .*; retrying in \d+ ms$/);
    assert.equal(retry?.chain, "alpha");
    assert.equal(retry?.chainId, 71001);
    assert.equal(typeof retry?.retryInMs, "number");
    // The signal's line, then the last line (a retry in flight may log in between).
    const signalled = lines.findIndex(
      (l) => l.level === 30 && l.msg === "SIGTERM: finishing the current batch, then stopping",
    );
    assert.ok(signalled >= 0, JSON.stringify(lines));
    assert.deepEqual([lines.at(-1)?.level, lines.at(-1)?.msg], [30, "stopped"]);
    assert.ok(signalled < lines.length - 1, "signalled < lines.length - 1");
  });

  it("behavior: LOG_LEVEL=warn leaves the info lines out", async () => {
    const running = startIndex(["--config", configPath, "--database", join(workDir, "w.sqlite")], {
      LOG_LEVEL: "WARN",
    });
    const retry = await running.until("retry warning", (l) => l.level === 40);
    assert.match(retry.msg, /^chain alpha: .*; retrying in \d+ ms$/);
    const { code, stderr } = await running.stop();
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "");
    assert.deepEqual(
      running.log().filter((l) => l.level < 40),
      [],
    );
  });

  it("error: a bad LOG_LEVEL is refused as serve refuses it; --status does not read it", async () => {
    const { code, stderr, written } = await index(
      ["--config", configPath, "--database", join(workDir, "never.sqlite")],
      { LOG_LEVEL: "verbose" },
    );
    assert.equal(code, 1);
    assert.match(
      stderr,
      /^configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got 'verbose'\n$/,
    );
    assert.deepEqual(written, []);
    assert.equal(existsSync(join(workDir, "never.sqlite")), false);
    const status = await index(["--status", "--database", join(workDir, "never.sqlite")], {
      LOG_LEVEL: "verbose",
    });
    assert.match(status.stderr, /^no database at /);
  });

  it("behavior: credentials of the RPC and database URLs appear in no line", async () => {
    const db = await setupIsolatedDatabase("postgres");
    try {
      // Trust authentication (the test setup's) ignores a password; one set already is kept.
      const url = new URL(db.databaseUrl);
      if (url.password === "") url.password = "dbs3cret-pw";
      const dbPassword = decodeURIComponent(url.password);
      const key = "k3yK3yK3yK3yK3yK3yK3y";
      const rpcUrl = `http://rpcuser:rpcs3cret@127.0.0.1:1/v3/${key}?apikey=qs3cret`;
      const secretConfig = await writeRefusedChainConfig(join(workDir, "secret.json"), rpcUrl);
      const running = startIndex(["--config", secretConfig, "--database", url.toString()], {});
      const retry = await running.until("retry warning", (l) => l.level === 40);
      assert.match(retry.msg, /http:\/\/\*\*\*@127\.0\.0\.1:1\/v3\/\*\*\*\?apikey=\*\*\*/);
      const { code, stderr } = await running.stop();
      assert.equal(code, 0, stderr);
      const indexing = running.log().find((l) => l.msg.startsWith("indexing alpha"));
      assert.match(String(indexing?.database), /^postgres:\/\/[^:/@]+:\*\*\*@/);
      const everything = running.written.join("") + stderr;
      for (const secret of ["rpcuser", "rpcs3cret", key, "qs3cret", `:${dbPassword}@`]) {
        assert.equal(everything.includes(secret), false, `${secret} in:\n${everything}`);
      }
    } finally {
      await db.cleanup();
    }
  });
});
