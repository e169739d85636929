/**
 * docs/operations.md, "Running on PostgreSQL", as an operator follows it: the page's three
 * shell blocks (start, check, stop) run in one bash, with only the site's own values put in
 * (database and Redis URLs, the registry and indexer config files: a devnet's manifest, the log
 * folder, ports, the loopback address; and `node bin/bridge-oracle.js` runs the sources, not a
 * dist/ that may predate them). On PostgreSQL and Redis with a devnet making transfers: both
 * APIs ready and able to quote, one indexer leading and one standing by, two delivery processes
 * alive, the key printed, a webhook subscribed with it delivered, and the stop block ends every
 * process with exit 0.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import { type RunningDevnet, runDevnet } from "../../src/devnet/run-devnet.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { waitForValue } from "../setup/eventually.js";
import { freePort } from "../setup/free-port.js";
import { REDIS_URL } from "../setup/redis.js";
import { startWebhookReceiver, type WebhookReceiver } from "../setup/webhook-receiver.js";

const ROOT = join(import.meta.dirname, "..", "..");
const ENTRY = join(ROOT, "test/start/cli-entry.ts");

/** The ```sh block after the page's `<!-- postgres <name>: ... -->` marker. */
function block(page: string, name: string): string {
  const code = new RegExp(`<!-- postgres ${name}: [^>]*-->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(
    page,
  )?.[1];
  assert.ok(code !== undefined, `operations.md has the '${name}' block`);
  return code;
}

/** `text` with each literal replaced; every literal must be there (the page changed otherwise). */
function substitute(text: string, values: readonly (readonly [string, string])[]): string {
  let out = text;
  for (const [literal, value] of values) {
    assert.ok(out.includes(literal), `the page no longer says '${literal}'`);
    out = out.split(literal).join(value);
  }
  return out;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("docs/operations.md: running on PostgreSQL", { timeout: 300_000 }, () => {
  let devnet: RunningDevnet;
  let db: IsolatedDatabase;
  let dir: string;
  let receiver: WebhookReceiver;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "bridge-oracle-operations-"));
    [devnet, db, receiver] = await Promise.all([
      // Transfers every second, settling in a few: the webhook has something to deliver.
      runDevnet({ chains: 2, blockTime: 1, relayDelayMs: 200, traffic: 60, dir }),
      setupIsolatedDatabase("postgres"),
      startWebhookReceiver(),
    ]);
  });
  after(async () => {
    await receiver?.close();
    await devnet?.stop();
    await db?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it("default: the page's commands give a working deployment that stops cleanly", async () => {
    const page = await readFile(join(ROOT, "docs/operations.md"), "utf8");
    const [port1, port2] = [await freePort(), await freePort()];
    const cli = `${process.execPath} ${tsEntryArgs(ENTRY).join(" ")}`;
    const values = [
      ["cd /opt/bridge-oracle", `cd ${ROOT}`],
      ["postgres://bridge@db.example.com:5432/bridge", `'${db.databaseUrl}'`],
      ["redis://cache.example.com:6379", REDIS_URL],
      ["/etc/bridge-oracle/registry.json", devnet.manifestPath],
      ["/etc/bridge-oracle/indexer.json", devnet.manifestPath],
      ["WEBHOOK_ALLOW_PRIVATE_ADDRESSES=false", "WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true"],
      ["LOGS=/var/log/bridge-oracle", `LOGS=${dir}`],
      ["HOST=0.0.0.0", "HOST=127.0.0.1"],
      ["PORT=8080", `PORT=${port1}`],
      ["PORT=8081", `PORT=${port2}`],
      ["localhost:8080", `127.0.0.1:${port1}`],
      ["localhost:8081", `127.0.0.1:${port2}`],
      ["node bin/bridge-oracle.js", cli],
    ] as const;
    const blocks = ["deployment", "checks", "stop"].map((name) => block(page, name));
    for (const [literal] of values) {
      assert.ok(blocks.join("\n").includes(literal), `the page no longer says '${literal}'`);
    }
    const [start, checks, stop] = blocks.map((text) =>
      substitute(
        text,
        values.filter(([literal]) => text.includes(literal)),
      ),
    ) as [string, string, string];
    const script = [
      start,
      'echo "STARTED $pids"',
      "read -r _",
      checks,
      "echo CHECKED",
      "read -r _",
      stop,
      'echo "STOPPED $?"',
    ].join("\n");
    const bash = spawn("bash", ["-c", script], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: "info" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    bash.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    bash.stderr.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => bash.once("exit", resolve));
    const logs = async () => {
      const names = ["index-1", "index-2", "serve-1", "serve-2", "deliver-1", "deliver-2"];
      const texts = await Promise.all(
        names.map((n) => readFile(join(dir, `${n}.log`), "utf8").catch(() => "")),
      );
      return names.map((n, i) => `--- ${n}.log\n${texts[i]?.slice(-2000)}`).join("\n");
    };
    let pids: number[] = [];
    try {
      const started = await waitForValue(
        async () => /STARTED ([\d ]+)\n/.exec(out)?.[1],
        30_000,
        100,
      );
      pids = started.trim().split(" ").map(Number);
      assert.equal(pids.length, 6, "six processes");
      // Ready, as a balancer would see them: each API, and quotes on the second.
      for (const url of [
        `http://127.0.0.1:${port1}/readyz`,
        `http://127.0.0.1:${port2}/readyz/router`,
      ]) {
        await waitForValue(
          async () => ((await fetch(url)).ok ? true : undefined),
          120_000,
          250,
        ).catch(async (error: unknown) => {
          throw new Error(`${url} never ready:\n${out}\n${await logs()}`, { cause: error });
        });
      }
      // Both delivery processes have written their heartbeat.
      await waitForValue(
        async () => {
          const text = await (await fetch(`http://127.0.0.1:${port1}/metrics`)).text();
          return /^bridge_oracle_webhook_delivery_processes 2$/m.test(text) ? true : undefined;
        },
        30_000,
        250,
      );
      bash.stdin.write("\n");
      await waitForValue(async () => (out.includes("CHECKED") ? true : undefined), 60_000, 100);
      const printed = out.slice(out.indexOf("STARTED"));
      assert.match(printed, /"code":0,"msg":"success","data":\{"status":"ok","database":"ok"/);
      assert.match(printed, /"data":\{"status":"ok","router":\[/);
      assert.match(printed, /"leader": ?"[^"]+:\d+"/, "index --status names the leader");
      assert.match(printed, /^bridge_oracle_webhook_delivery_processes 2$/m);
      const key = /\b(bo_[A-Za-z0-9_-]{43})\b/.exec(printed)?.[1];
      assert.ok(key !== undefined, `keys create printed a key:\n${printed}`);
      // One indexer leads, the other stands by.
      const indexLogs = [
        await readFile(join(dir, "index-1.log"), "utf8"),
        await readFile(join(dir, "index-2.log"), "utf8"),
      ];
      assert.equal(
        indexLogs.filter((text) => text.includes("standby:")).length,
        1,
        `one standby:\n${await logs()}`,
      );

      // A subscription with that key, on the first API; delivered by either delivery process.
      const created = await fetch(`http://127.0.0.1:${port1}/api/oracle/webhooks`, {
        method: "POST",
        headers: { authorization: key, "content-type": "application/json" },
        body: JSON.stringify({ url: `${receiver.url}/ops` }),
      });
      assert.equal(created.status, 200, await created.text());
      await waitForValue(
        async () => (receiver.delivered().some((r) => r.path === "/ops") ? true : undefined),
        60_000,
        200,
      ).catch(async (error: unknown) => {
        throw new Error(`no webhook delivered:\n${await logs()}`, { cause: error });
      });
      const quote = await fetch(`http://127.0.0.1:${port2}/readyz/router`);
      assert.equal(quote.status, 200);

      bash.stdin.write("\n");
      assert.equal(await exited, 0, out);
      assert.match(out, /STOPPED 0/);
      for (const pid of pids) assert.ok(!pidAlive(pid), `process ${pid} still runs after the stop`);
      const all = await logs();
      assert.equal(
        (all.match(/"msg":"stopped"/g) ?? []).length >= 2,
        true,
        `deliver stops:\n${all}`,
      );
    } finally {
      bash.stdin.end();
      for (const pid of pids) if (pidAlive(pid)) process.kill(pid, "SIGKILL");
      if (bash.exitCode === null) bash.kill("SIGKILL");
    }
  });
});
