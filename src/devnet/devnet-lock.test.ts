import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import {
  acquireDevnetLock,
  DEVNET_LOCK_FILE,
  DevnetDirInUseError,
  type DevnetLockOwner,
  type DevnetNodeRecord,
  isRecordedAnvil,
} from "./devnet-lock.js";
import type { ProcessIdentity } from "./process-info.js";

// Pids above Linux's pid_max (4194304): never a real process.
const SELF = { pid: 900_000_001, startTime: "1" };
const DEAD_OWNER = 900_000_002;

function anvilArgs(node: DevnetNodeRecord): string[] {
  return [
    "/x/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil",
    ...["--host", "127.0.0.1", "--port", String(node.port), "--chain-id", String(node.chainId)],
    ...(node.statePath !== undefined ? ["--state", node.statePath, "--state-interval", "30"] : []),
    "--silent",
  ];
}

function writeOwner(dir: string, owner: Partial<DevnetLockOwner>): void {
  const full: DevnetLockOwner = {
    pid: DEAD_OWNER,
    command: "start",
    startedAt: "2026-11-21T10:00:00.000Z",
    nodes: [],
    ...owner,
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, DEVNET_LOCK_FILE), JSON.stringify(full));
}

/** A fake process table: pids alive until they get a signal that ends them. */
function fakeProcesses(alive: number[], ignoresSigterm: number[] = []) {
  const running = new Set(alive);
  const signals: string[] = [];
  return {
    signals,
    isAlive: (identity: ProcessIdentity) => running.has(identity.pid),
    kill: (pid: number, signal: NodeJS.Signals) => {
      signals.push(`${signal} ${pid}`);
      if (signal === "SIGKILL" || !ignoresSigterm.includes(pid)) running.delete(pid);
    },
  };
}

describe("devnet lock", () => {
  let root: string;
  let count = 0;
  const freshDir = () => join(root, `dir-${++count}`);
  before(() => {
    root = mkdtempSync(join(tmpdir(), "devnet-lock-"));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it("default: writes the owner's pid and command, records nodes, release removes it", async () => {
    const dir = freshDir();
    const lock = await acquireDevnetLock({
      dir,
      command: "start",
      self: SELF,
      isAlive: () => true,
    });
    const node = { pid: 900_000_010, port: 4001, chainId: 71001, statePath: "/s/alpha.json" };
    lock.addNode(node);
    const owner = JSON.parse(readFileSync(lock.path, "utf8")) as DevnetLockOwner;
    assert.equal(owner.pid, SELF.pid);
    assert.equal(owner.startTime, SELF.startTime);
    assert.equal(owner.command, "start");
    assert.deepEqual(owner.nodes, [node]);
    assert.equal(lock.previousOwner, undefined);
    lock.release();
    assert.equal(existsSync(lock.path), false);
  });

  it("error: a live owner keeps the directory: the second is refused with its pid and command", async () => {
    const dir = freshDir();
    const first = await acquireDevnetLock({ dir, command: "start", self: SELF });
    const other = { pid: 900_000_003, startTime: "2" };
    await assert.rejects(
      acquireDevnetLock({ dir, command: "devnet", self: other, isAlive: () => true }),
      (error: unknown) =>
        error instanceof DevnetDirInUseError &&
        error.message.includes(`in use by bridge-oracle start (pid ${SELF.pid}`) &&
        error.message.includes("another DEVNET_DIR"),
    );
    // The refused one leaves the owner's lock alone.
    assert.equal((JSON.parse(readFileSync(first.path, "utf8")) as DevnetLockOwner).pid, SELF.pid);
  });

  it("behavior: a dead owner's lock is taken over at once and its anvil nodes get SIGTERM", async () => {
    const dir = freshDir();
    const nodes = [
      { pid: 900_000_020, port: 4001, chainId: 71001, statePath: join(dir, "state/alpha.json") },
      { pid: 900_000_021, port: 4002, chainId: 71002, statePath: join(dir, "state/beta.json") },
      // exited already
      { pid: 900_000_022, port: 4003, chainId: 71003, statePath: join(dir, "state/gamma.json") },
    ];
    writeOwner(dir, { nodes });
    const processes = fakeProcesses([900_000_020, 900_000_021]);
    const lines: string[] = [];
    const lock = await acquireDevnetLock({
      dir,
      command: "start",
      self: SELF,
      isAlive: processes.isAlive,
      commandLine: (pid) => anvilArgs(nodes.find((n) => n.pid === pid) as DevnetNodeRecord),
      kill: processes.kill,
      log: (line) => lines.push(line),
    });
    assert.equal(lock.previousOwner?.pid, DEAD_OWNER);
    assert.deepEqual(processes.signals, ["SIGTERM 900000020", "SIGTERM 900000021"]);
    assert.match(lines.join("\n"), /pid 900000002\) is gone but left 2 anvil node\(s\) running/);
    const owner = JSON.parse(readFileSync(lock.path, "utf8")) as DevnetLockOwner;
    assert.equal(owner.pid, SELF.pid);
    assert.deepEqual(owner.nodes, []);
  });

  it("behavior: a recorded pid that is no longer that anvil (reused) is left alone", async () => {
    const dir = freshDir();
    const node = { pid: 900_000_030, port: 4001, chainId: 71001, statePath: join(dir, "a.json") };
    const processes = fakeProcesses([900_000_030]);
    for (const args of [
      ["/usr/bin/python3", "server.py", "--port", "4001"],
      anvilArgs({ ...node, port: 4999 }),
      anvilArgs({ ...node, statePath: "/other/devnet/state/alpha.json" }),
    ]) {
      writeOwner(dir, { nodes: [node] });
      const lock = await acquireDevnetLock({
        dir,
        command: "start",
        self: SELF,
        isAlive: processes.isAlive,
        commandLine: () => args,
        kill: processes.kill,
      });
      lock.release();
    }
    assert.deepEqual(processes.signals, []);
  });

  it("behavior: nodes that do not exit within the grace period are killed", async () => {
    const dir = freshDir();
    const node = { pid: 900_000_040, port: 4001, chainId: 71001 };
    writeOwner(dir, { nodes: [node] });
    const processes = fakeProcesses([900_000_040], [900_000_040]);
    await acquireDevnetLock({
      dir,
      command: "devnet",
      self: SELF,
      isAlive: processes.isAlive,
      commandLine: () => anvilArgs(node),
      kill: processes.kill,
      stopGraceMs: 100,
    });
    assert.deepEqual(processes.signals, ["SIGTERM 900000040", "SIGKILL 900000040"]);
  });

  it("behavior: an unreadable lock is taken over; release leaves another owner's lock alone", async () => {
    const dir = freshDir();
    const first = await acquireDevnetLock({ dir, command: "start", self: SELF });
    writeFileSync(first.path, "{ half a");
    const second = await acquireDevnetLock({
      dir,
      command: "start",
      self: { pid: 900_000_050 },
      isAlive: () => true,
    });
    first.release();
    assert.equal(
      (JSON.parse(readFileSync(second.path, "utf8")) as DevnetLockOwner).pid,
      900_000_050,
    );
  });

  it("behavior: the real process table: this process is alive, a finished one is not", async () => {
    const dir = freshDir();
    await acquireDevnetLock({ dir, command: "start" });
    await assert.rejects(
      acquireDevnetLock({ dir, command: "start", self: { pid: 900_000_060 } }),
      DevnetDirInUseError,
    );
    writeOwner(dir, { pid: DEAD_OWNER });
    const lock = await acquireDevnetLock({ dir, command: "start" });
    assert.equal(lock.previousOwner?.pid, DEAD_OWNER);
  });
});

describe("isRecordedAnvil", () => {
  const node = { pid: 1, port: 4001, chainId: 71001, statePath: "/d/state/alpha.json" };
  it("default: anvil with the recorded port, chain id and state file", () => {
    assert.equal(isRecordedAnvil(anvilArgs(node), node), true);
    const wrapper = [
      "node",
      "/x/node_modules/@foundry-rs/anvil/bin.mjs",
      ...anvilArgs(node).slice(1),
    ];
    assert.equal(isRecordedAnvil(wrapper, node), true);
    const memoryOnly = { pid: 1, port: 4001, chainId: 71001 };
    assert.equal(isRecordedAnvil(anvilArgs(memoryOnly), memoryOnly), true);
  });

  it("behavior: another program, port, chain or state file is not it", () => {
    assert.equal(isRecordedAnvil(["node", "server.js", "--port", "4001"], node), false);
    assert.equal(isRecordedAnvil(anvilArgs({ ...node, port: 4002 }), node), false);
    assert.equal(isRecordedAnvil(anvilArgs({ ...node, chainId: 71002 }), node), false);
    const { statePath: _, ...memoryOnly } = node;
    assert.equal(isRecordedAnvil(anvilArgs(memoryOnly), node), false);
  });
});
