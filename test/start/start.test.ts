/**
 * `bridge-oracle start` as a real child process (test/start/cli-entry.ts, as `npm start` runs it)
 * on its own DATABASE_URL, DEVNET_DIR and PORT: banner, transfers flowing, a quote with the
 * printed demo key, SIGINT -> exit 0 with no anvil left, a second start resuming the same chains
 * and data without duplicates and with the same demo key (stopped by SIGHUP, a closed terminal),
 * --new-demo-key replacing the key, and a bad setting refused before anything starts.
 */
import assert from "node:assert/strict";
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { freePort, freePortRun } from "../setup/free-port.js";

const ENTRY = join(import.meta.dirname, "cli-entry.ts");

interface StartedCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

function spawnStart(env: Record<string, string>, args: string[] = []): StartedCli {
  const child = spawn(process.execPath, [...tsEntryArgs(ENTRY), "start", ...args], {
    cwd: join(import.meta.dirname, "..", ".."),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Waits for the banner; returns the API URL, demo key and the list curl's address. */
async function bannerOf(cli: StartedCli) {
  const text = await until("the banner", 60_000, async () => {
    if (cli.child.exitCode !== null) {
      throw new Error(`start exited ${cli.child.exitCode}: ${cli.stderr()}`);
    }
    return cli.stdout().includes("Ctrl-C stops everything") ? cli.stdout() : undefined;
  });
  const url = /explorer\s+(http:\/\/\S+)\/\n/.exec(text)?.[1];
  const key = /^\s+(bo_[A-Za-z0-9_-]{43})$/m.exec(text)?.[1];
  const address = /addressOrTxHash=(0x[0-9a-fA-F]{40})/.exec(text)?.[1];
  const quote = /-d '(\{.*\})'/.exec(text)?.[1];
  assert.ok(url && key && address && quote, `banner lacks a URL, key, address or quote:\n${text}`);
  return { text, url, key, address, quote };
}

async function stopWithSignal(
  cli: StartedCli,
  signal: NodeJS.Signals = "SIGINT",
): Promise<number | null> {
  cli.child.kill(signal);
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no exit after ${signal}: ${cli.stderr()}`)), 40_000),
  );
  return Promise.race([cli.exited, timeout]);
}

/** anvil processes whose command line names this test's directory (their --state files). */
function anvilsOf(dir: string): string[] {
  const out = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes("anvil") && line.includes(dir));
}

function anvilPidsOf(dir: string): number[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.includes("anvil") && line.includes(dir))
    .map((line) => Number(line.trim().split(/\s+/, 1)[0]));
}

function messageIds(databasePath: string): string[] {
  const db = new Database(databasePath, { readonly: true });
  try {
    return (db.prepare("SELECT message_id FROM transfers").all() as { message_id: string }[]).map(
      (row) => row.message_id,
    );
  } finally {
    db.close();
  }
}

function cursorBlocks(databasePath: string): Map<number, number> {
  const db = new Database(databasePath, { readonly: true });
  try {
    const rows = db.prepare("SELECT chain_id, cursor_block FROM indexer_chains").all() as {
      chain_id: number;
      cursor_block: number;
    }[];
    return new Map(rows.map((row) => [row.chain_id, row.cursor_block]));
  } finally {
    db.close();
  }
}

describe("bridge-oracle start", () => {
  let dir: string;
  let env: Record<string, string>;
  let running: StartedCli | undefined;
  let firstRunIds: string[] = [];
  let firstRunKey = "";

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-start-"));
    env = {
      DATABASE_URL: join(dir, "data", "bridge-oracle.db"),
      DEVNET_DIR: join(dir, "devnet"),
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
    };
  });

  after(async () => {
    // After a failed assertion the last start may still run; its chains are in their own
    // process group and would outlive it, so they are killed by pid too.
    running?.child.kill("SIGKILL");
    for (const pid of anvilPidsOf(dir)) process.kill(pid, "SIGKILL");
    await rm(dir, { recursive: true, force: true });
  });

  it("default: prints URLs and a demo key, transfers flow, the key quotes, SIGINT exits 0 with no anvil left", {
    timeout: 120_000,
  }, async () => {
    running = spawnStart(env, ["--traffic", "120", "--quiet"]);
    const banner = await bannerOf(running);
    assert.match(banner.text, /fresh devnet/);
    assert.match(banner.text, new RegExp(`${banner.url}/docs`));
    assert.match(
      banner.text,
      /curl -s "http:\/\/127\.0\.0\.1:\d+\/api\/oracle\/bridge-transactions/,
    );

    const list = `${banner.url}/api/oracle/bridge-transactions?addressOrTxHash=${banner.address}&pageNo=1&pageSize=100`;
    await until("a Success transfer of the banner's address", 60_000, async () => {
      const body = (await (await fetch(list)).json()) as {
        data: { data: { status: string }[] } | null;
      };
      return body.data?.data.some((t) => t.status === "Success") ? true : undefined;
    });

    const quote = await fetch(`${banner.url}/api/oracle/router`, {
      method: "POST",
      headers: { authorization: banner.key, "content-type": "application/json" },
      body: banner.quote,
    });
    const quoteBody = (await quote.json()) as { code: number; msg: string };
    assert.equal(quote.status, 200, JSON.stringify(quoteBody));
    assert.equal(quoteBody.code, 0);
    firstRunKey = banner.key;
    assert.match(banner.text, /demo API key \(new; kept in .*demo-key/);
    // The fresh database is private (#41): directory 0700, database, -wal and -shm 0600.
    const databasePath = env.DATABASE_URL as string;
    const modes = [
      join(dir, "data"),
      databasePath,
      `${databasePath}-wal`,
      `${databasePath}-shm`,
    ].map((path) => (statSync(path).mode & 0o777).toString(8));
    assert.deepEqual(modes, ["700", "600", "600", "600"]);

    // Webhooks reach a receiver on this machine: start serves loopback only, so it allows them.
    const received: string[] = [];
    const receiver = createHttpServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        received.push(body);
        response.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = receiver.address() as { port: number };
      const created = await fetch(`${banner.url}/api/oracle/webhooks`, {
        method: "POST",
        headers: { authorization: banner.key, "content-type": "application/json" },
        body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook` }),
      });
      assert.equal(created.status, 200, await created.clone().text());
      await until("a webhook delivery to the loopback receiver", 30_000, async () =>
        received.length > 0 ? true : undefined,
      );
      assert.match(received[0] as string, /"type":"transfer\./);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }

    assert.equal(await stopWithSignal(running), 0, running.stderr());
    assert.match(running.stderr(), /indexer: committing the current batch/);
    assert.deepEqual(anvilsOf(dir), []);
    firstRunIds = messageIds(env.DATABASE_URL as string);
    assert.ok(firstRunIds.length > 0, "firstRunIds.length > 0");
    assert.equal(new Set(firstRunIds).size, firstRunIds.length, "duplicate message ids");
    for (const name of ["alpha", "beta", "gamma"]) {
      assert.ok(existsSync(join(dir, "devnet", "state", `${name}.json`)), `${name} state saved`);
    }
  });

  it("behavior: a second start resumes the same chains and data: old records once, new ones arrive", {
    timeout: 120_000,
  }, async () => {
    assert.ok(firstRunIds.length > 0, "needs the first run");
    // The first run's chains had free ports; these resume on fixed ones.
    const rpcPort = await freePortRun(3);
    running = spawnStart(env, ["--traffic", "120", "--quiet", "--rpc-port", String(rpcPort)]);
    const banner = await bannerOf(running);
    assert.match(banner.text, /resumed devnet/);
    for (const [index, name] of ["alpha", "beta", "gamma"].entries()) {
      assert.match(
        banner.text,
        new RegExp(`${name} \\(\\d+\\) http://127\\.0\\.0\\.1:${rpcPort + index}\\b`),
      );
    }
    // The same demo key as the first run: a saved curl keeps working.
    assert.equal(banner.key, firstRunKey);
    assert.match(banner.text, /demo API key \(the same as last time/);
    const quote = await fetch(`${banner.url}/api/oracle/router`, {
      method: "POST",
      headers: { authorization: banner.key, "content-type": "application/json" },
      body: banner.quote,
    });
    assert.equal(quote.status, 200);
    // Discovery publishes the resumed nodes' URLs, which a browser wallet can add.
    const chains = (await (await fetch(`${banner.url}/api/oracle/chains`)).json()) as {
      data: { chains: { name: string; rpcUrls: string[] }[] };
    };
    assert.deepEqual(
      chains.data.chains.map((c) => [c.name, c.rpcUrls]),
      ["alpha", "beta", "gamma"].map((name, i) => [name, [`http://127.0.0.1:${rpcPort + i}`]]),
    );

    // Another start on the same DEVNET_DIR (own PORT and database) would resume the same chains
    // and its nodes would overwrite this one's state files: it is refused.
    const other = join(dir, "other");
    const second = spawnStart({
      ...env,
      PORT: String(await freePort()),
      DATABASE_URL: join(other, "db.sqlite"),
    });
    const refused = await Promise.race([
      second.exited,
      new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 20_000)),
    ]);
    if (refused === "still running") second.child.kill("SIGINT");
    assert.equal(refused, 1, second.stderr());
    assert.match(
      second.stderr(),
      new RegExp(
        `devnet directory .* is in use by bridge-oracle start \\(pid ${running.child.pid}`,
      ),
    );

    await until("new transfers indexed after the restart", 60_000, async () =>
      messageIds(env.DATABASE_URL as string).length > firstRunIds.length + 5 ? true : undefined,
    );
    // A closed terminal (SIGHUP) stops it as Ctrl-C does: chains saved and stopped, lock released.
    assert.equal(await stopWithSignal(running, "SIGHUP"), 0, running.stderr());
    assert.deepEqual(anvilsOf(dir), []);
    assert.equal(existsSync(join(dir, "devnet", "devnet.lock")), false, "lock released");
    // No reorg: the restored chains had exactly the blocks the database had indexed.
    assert.doesNotMatch(running.stderr(), /rolls back|reorg/);

    const ids = messageIds(env.DATABASE_URL as string);
    assert.equal(new Set(ids).size, ids.length, "duplicate message ids");
    const now = new Set(ids);
    const missing = firstRunIds.filter((id) => !now.has(id));
    assert.deepEqual(missing, [], "records of the first run are gone");
  });

  it("behavior: an unreadable chain state starts a fresh devnet and clears the data indexed from the old one", {
    timeout: 120_000,
  }, async () => {
    const before = messageIds(env.DATABASE_URL as string);
    assert.ok(before.length > 0, "needs the earlier runs");
    const alpha = join(dir, "devnet", "state", "alpha.json");
    await writeFile(alpha, (await readFile(alpha, "utf8")).slice(0, 1000));
    running = spawnStart(env, ["--traffic", "120", "--quiet"]);
    const banner = await bannerOf(running);
    assert.match(banner.text, /fresh devnet \(the state of chain alpha is unreadable/);
    assert.match(running.stderr(), /data indexed from it was deleted from the database/);
    // Without the reset every earlier record would still be there, and more.
    assert.ok(
      messageIds(env.DATABASE_URL as string).length < before.length,
      "messageIds(env.DATABASE_URL as string).length < before.length",
    );
    await until("transfers of the fresh devnet", 60_000, async () =>
      messageIds(env.DATABASE_URL as string).length > 0 ? true : undefined,
    );
    assert.equal(await stopWithSignal(running, "SIGTERM"), 0, running.stderr());
    assert.ok(existsSync(`${alpha}.discarded`), "the unreadable state is kept aside");
    const ids = messageIds(env.DATABASE_URL as string);
    assert.equal(new Set(ids).size, ids.length, "duplicate message ids");
  });

  it("behavior: --new-demo-key prints a new key; a second Ctrl-C exits at once, and the chains stop right after", {
    timeout: 60_000,
  }, async () => {
    running = spawnStart(env, ["--traffic", "120", "--quiet", "--new-demo-key"]);
    const banner = await bannerOf(running);
    assert.ok(firstRunKey !== "", "needs the first run");
    assert.notEqual(banner.key, firstRunKey);
    assert.match(banner.text, /demo API key \(new;/);
    const forced = running;
    forced.child.kill("SIGINT");
    // Two signals sent before the process has taken the first may merge into one, so the second
    // goes once the first is acknowledged; the shutdown (the chains alone take longer than that
    // to write their state) is still under way then.
    const acknowledged = Date.now() + 20_000;
    while (!/stopping \(Ctrl-C again to exit at once\)/.test(forced.stderr())) {
      assert.ok(Date.now() < acknowledged, `first SIGINT not acknowledged: ${forced.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    forced.child.kill("SIGINT");
    const code = await forced.exited;
    assert.ok(code === 130 || forced.child.signalCode === "SIGINT", `exit ${code}`);
    // The nodes got SIGTERM on exit: they write their state and go by themselves.
    await until("no anvil left", 15_000, async () =>
      anvilsOf(dir).length === 0 ? true : undefined,
    );
  });

  it("behavior: after a SIGKILL of start alone, the next start stops its chains first and resumes without a rollback", {
    timeout: 120_000,
  }, async () => {
    running = spawnStart(env, ["--traffic", "120", "--quiet"]);
    await bannerOf(running);
    const before = messageIds(env.DATABASE_URL as string).length;
    await until("transfers indexed by the run that is killed", 60_000, async () =>
      messageIds(env.DATABASE_URL as string).length > before + 3 ? true : undefined,
    );
    const killed = running;
    killed.child.kill("SIGKILL");
    await killed.exited;
    // The chains are in their own process group: they outlive start, still mining, and would
    // dump their state over the next run's every 30 s.
    const orphans = anvilPidsOf(dir);
    assert.equal(orphans.length, 3, "the killed start's chains still run");

    running = spawnStart(env, ["--traffic", "120", "--quiet"]);
    const banner = await bannerOf(running);
    assert.match(running.stderr(), /is gone but left 3 anvil node\(s\) running/);
    assert.match(banner.text, /resumed devnet/);
    // They saved their newest state on SIGTERM, ahead of the database: nothing to roll back.
    assert.doesNotMatch(running.stderr(), /rolls back/);
    const now = anvilPidsOf(dir);
    assert.deepEqual(
      orphans.filter((pid) => now.includes(pid)),
      [],
      "the killed start's chains are gone",
    );
    assert.equal(await stopWithSignal(running), 0, running.stderr());
    assert.deepEqual(anvilsOf(dir), []);
    const ids = messageIds(env.DATABASE_URL as string);
    assert.equal(new Set(ids).size, ids.length, "duplicate message ids");
  });

  it("behavior: after a crash the chains come back behind the database and the indexer rolls back to them", {
    timeout: 120_000,
  }, async () => {
    running = spawnStart(env, ["--traffic", "120", "--quiet"]);
    const resumed = await bannerOf(running);
    assert.match(resumed.text, /resumed devnet/);
    const before = messageIds(env.DATABASE_URL as string).length;
    await until("transfers indexed by the run that crashes", 60_000, async () =>
      messageIds(env.DATABASE_URL as string).length > before + 3 ? true : undefined,
    );
    // A crash: the process and its chains die without writing anything (the chains' periodic
    // save comes every 30 s, after this run is over), so the saved chains are those of the
    // previous stop and the database is ahead of them.
    const crashed = running;
    const anvilPids = anvilPidsOf(dir);
    crashed.child.kill("SIGKILL");
    for (const pid of anvilPids) process.kill(pid, "SIGKILL");
    await crashed.exited;
    await until("no anvil left", 15_000, async () =>
      anvilsOf(dir).length === 0 ? true : undefined,
    );
    const cutAt = cursorBlocks(env.DATABASE_URL as string);

    running = spawnStart(env, ["--traffic", "120", "--quiet"]);
    const banner = await bannerOf(running);
    assert.match(banner.text, /resumed devnet/);
    assert.match(running.stderr(), /the indexer rolls back to the last common block/);
    // Once the chains have grown past where the database stood, the indexer has rolled back
    // and indexed the new blocks.
    await until("the indexer past the blocks of the crashed run", 60_000, async () => {
      const now = cursorBlocks(env.DATABASE_URL as string);
      return [...cutAt].every(([chainId, block]) => (now.get(chainId) ?? 0) > block)
        ? true
        : undefined;
    });
    assert.equal(await stopWithSignal(running), 0, running.stderr());
    const ids = messageIds(env.DATABASE_URL as string);
    assert.equal(new Set(ids).size, ids.length, "duplicate message ids");
  });

  it("error: a --rpc-port whose ports are taken exits 1 naming the port and starts no chain", {
    timeout: 30_000,
  }, async () => {
    const rpcPort = await freePortRun(3);
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(rpcPort + 2, "127.0.0.1", resolve));
    try {
      const other = join(dir, "taken-rpc-port");
      const cli = spawnStart(
        {
          ...env,
          PORT: String(await freePort()),
          DEVNET_DIR: join(other, "devnet"),
          DATABASE_URL: join(other, "db.sqlite"),
        },
        ["--rpc-port", String(rpcPort)],
      );
      assert.equal(await cli.exited, 1, cli.stderr());
      assert.match(
        cli.stderr(),
        new RegExp(
          `cannot listen on 127\\.0\\.0\\.1:${rpcPort + 2} \\(--rpc-port ${rpcPort}: .*EADDRINUSE`,
        ),
      );
      assert.deepEqual(anvilsOf(other), []);
      assert.equal(existsSync(join(other, "devnet", "state")), false, "no chain state was created");
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it("error: PORT=abc exits 1 naming PORT and starts nothing", { timeout: 30_000 }, async () => {
    const other = join(dir, "bad");
    const cli = spawnStart({
      ...env,
      PORT: "abc",
      DEVNET_DIR: join(other, "devnet"),
      DATABASE_URL: join(other, "db.sqlite"),
    });
    assert.equal(await cli.exited, 1);
    assert.match(cli.stderr(), /PORT/);
    assert.equal(existsSync(other), false, "nothing was created");
  });
});
