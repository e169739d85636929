/**
 * One running devnet per DEVNET_DIR. `start` and `devnet` hold `DEVNET_DIR/devnet.lock` while
 * they run: their pid (and its start time, so a reused pid is not taken for them) and the anvil
 * nodes they started. Two owners of one directory would both resume the same saved chains and
 * their nodes would overwrite each other's state files, so a second one is refused while the
 * first is alive.
 *
 * A lock whose owner died (kill -9, a crash) is taken over at once. Its persistent anvil nodes
 * may still run (they are in their own process group and outlive their parent) and would keep
 * writing their periodic state dump over whatever the new owner's nodes save, so they are
 * stopped first: each recorded pid that is still the same anvil of this directory (its command
 * line names the recorded port, chain id and state file) gets SIGTERM, saves its state (its
 * newest, so nothing it mined is lost) and exits; SIGKILL after a grace period.
 *
 * The lock is released only once the owner's nodes have exited. An owner that exits earlier
 * (a second Ctrl-C) leaves the lock behind, and the next owner stops whatever of its nodes is
 * still writing.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  isProcessAlive,
  type ProcessIdentity,
  processCommandLine,
  processIdentity,
} from "./process-info.js";

export const DEVNET_LOCK_FILE = "devnet.lock";

/** An anvil node an owner started, as recorded in its lock. */
export interface DevnetNodeRecord extends ProcessIdentity {
  port: number;
  chainId: number;
  /** The node's `--state` file, for a persistent node. */
  statePath?: string;
}

export interface DevnetLockOwner extends ProcessIdentity {
  /** Which command holds it: "start" or "devnet". */
  command: string;
  startedAt: string;
  nodes: DevnetNodeRecord[];
}

/** Another live process owns the directory. */
export class DevnetDirInUseError extends Error {
  override name = "DevnetDirInUseError";
  constructor(
    readonly dir: string,
    readonly owner: DevnetLockOwner,
  ) {
    super(
      `the devnet directory ${dir} is in use by bridge-oracle ${owner.command} (pid ${owner.pid}, ` +
        `running since ${owner.startedAt}); stop it first, or run this one with another ` +
        "DEVNET_DIR (and, for start, another DATABASE_URL and PORT)",
    );
  }
}

export interface AcquireDevnetLockParameters {
  dir: string;
  command: string;
  /** One line per thing done on the way (a dead owner's nodes stopped). */
  log?: (message: string) => void;
  /** This process; default the current one. */
  self?: ProcessIdentity;
  isAlive?: (identity: ProcessIdentity) => boolean;
  commandLine?: (pid: number) => string[] | undefined;
  kill?: (pid: number, signal: NodeJS.Signals) => void;
  /** How long a dead owner's nodes get to save their state after SIGTERM (default 15 s). */
  stopGraceMs?: number;
}

export interface DevnetLock {
  path: string;
  /** The dead owner whose lock was taken over, if any. */
  previousOwner: DevnetLockOwner | undefined;
  /** Records a node this owner started, so that a later owner can stop it if this one dies. */
  addNode(node: DevnetNodeRecord): void;
  /** Removes the lock file if it is still this owner's; safe to call more than once. */
  release(): void;
}

export async function acquireDevnetLock(
  parameters: AcquireDevnetLockParameters,
): Promise<DevnetLock> {
  const { dir } = parameters;
  const isAlive = parameters.isAlive ?? isProcessAlive;
  const self = parameters.self ?? processIdentity();
  const path = join(dir, DEVNET_LOCK_FILE);
  mkdirSync(dir, { recursive: true });
  const owner: DevnetLockOwner = {
    ...self,
    command: parameters.command,
    startedAt: new Date().toISOString(),
    nodes: [],
  };

  let previousOwner: DevnetLockOwner | undefined;
  for (let attempt = 0; ; attempt++) {
    if (createExclusive(path, owner, self.pid)) break;
    if (attempt >= 10) throw new Error(`could not take the lock ${path}: it keeps changing`);
    const current = readOwner(path);
    if (current === "missing") continue;
    if (current !== "unreadable" && isAlive(current)) throw new DevnetDirInUseError(dir, current);
    // Dead owner: move its lock aside. Of several processes doing this at once one rename wins;
    // the others find the winner's lock on their next attempt.
    const aside = `${path}.${self.pid}.stale`;
    try {
      renameSync(path, aside);
    } catch {
      continue;
    }
    const moved = readOwner(aside);
    if (moved !== "missing" && moved !== "unreadable" && isAlive(moved)) {
      // A live owner's lock was created between our read and the rename: give it back.
      try {
        linkSync(aside, path);
      } finally {
        rmSync(aside, { force: true });
      }
      throw new DevnetDirInUseError(dir, moved);
    }
    rmSync(aside, { force: true });
    if (moved !== "missing" && moved !== "unreadable") previousOwner = moved;
  }

  if (previousOwner !== undefined) {
    await stopOrphanedNodes(previousOwner, dir, parameters, isAlive);
  }

  const write = (): void => {
    const temporary = `${path}.${self.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(owner, null, 2)}\n`);
    renameSync(temporary, path);
  };
  let released = false;
  return {
    path,
    previousOwner,
    addNode(node) {
      if (released) return;
      owner.nodes.push(
        node.startTime === undefined ? { ...node, ...processIdentity(node.pid) } : node,
      );
      write();
    },
    release() {
      if (released) return;
      released = true;
      const current = readOwner(path);
      if (typeof current === "object" && current.pid === self.pid) rmSync(path, { force: true });
    },
  };
}

/** Creates the lock with its content in one step (write a temporary file, hard-link it). */
function createExclusive(path: string, owner: DevnetLockOwner, pid: number): boolean {
  const temporary = `${path}.${pid}.new`;
  writeFileSync(temporary, `${JSON.stringify(owner, null, 2)}\n`);
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

function readOwner(path: string): DevnetLockOwner | "missing" | "unreadable" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "missing" : "unreadable";
  }
  try {
    const owner = JSON.parse(text) as DevnetLockOwner;
    if (!Number.isInteger(owner.pid) || !Array.isArray(owner.nodes)) return "unreadable";
    return owner;
  } catch {
    return "unreadable";
  }
}

/** Whether `args` is the command line of the anvil node `node` describes. */
export function isRecordedAnvil(args: readonly string[], node: DevnetNodeRecord): boolean {
  const after = (flag: string): string | undefined => {
    const index = args.indexOf(flag);
    return index === -1 ? undefined : args[index + 1];
  };
  return (
    args.slice(0, 2).some((arg) => /anvil/.test(arg)) &&
    after("--port") === String(node.port) &&
    after("--chain-id") === String(node.chainId) &&
    after("--state") === node.statePath
  );
}

async function stopOrphanedNodes(
  previous: DevnetLockOwner,
  dir: string,
  parameters: AcquireDevnetLockParameters,
  isAlive: (identity: ProcessIdentity) => boolean,
): Promise<void> {
  const commandLine = parameters.commandLine ?? processCommandLine;
  const kill = parameters.kill ?? ((pid, signal) => process.kill(pid, signal));
  const log = parameters.log ?? (() => {});
  const orphans = previous.nodes.filter((node) => {
    if (!isAlive(node)) return false;
    const args = commandLine(node.pid);
    return args !== undefined && isRecordedAnvil(args, node);
  });
  if (orphans.length === 0) return;
  log(
    `the previous bridge-oracle ${previous.command} in ${dir} (pid ${previous.pid}) is gone but ` +
      `left ${orphans.length} anvil node(s) running (pid ${orphans.map((n) => n.pid).join(", ")}); ` +
      "stopping them (they save their state first)",
  );
  const signal = (node: DevnetNodeRecord, name: NodeJS.Signals): void => {
    try {
      kill(node.pid, name);
    } catch {
      // gone meanwhile
    }
  };
  for (const node of orphans) signal(node, "SIGTERM");
  const graceMs = parameters.stopGraceMs ?? 15_000;
  if (await allGone(orphans, isAlive, graceMs)) return;
  for (const node of orphans) if (isAlive(node)) signal(node, "SIGKILL");
  if (!(await allGone(orphans, isAlive, 5000))) {
    const left = orphans.filter((node) => isAlive(node)).map((node) => node.pid);
    throw new Error(`could not stop the anvil node(s) ${left.join(", ")} of ${dir}`);
  }
  log("warning: they did not exit in time and were killed; their last periodic save is used");
}

async function allGone(
  nodes: readonly DevnetNodeRecord[],
  isAlive: (identity: ProcessIdentity) => boolean,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (nodes.every((node) => !isAlive(node))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
