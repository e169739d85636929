/**
 * The lock that makes concurrent processes (parallel test files, two starts) compile the
 * contracts once: a directory (mkdir is atomic) holding `owner.json`, the pid and start time of
 * the process compiling. The others wait for it and read its fresh artifacts file.
 *
 * A lock whose owner is dead (kill -9 during the first compile) is taken over at once. A lock
 * without an owner file is one whose owner died between mkdir and writing the file (or one left
 * by an older version); it is taken over once it is a few seconds old. A live owner is waited
 * for, up to COMPILE_LOCK_STALE_MS (a hung compile, or a reused pid where there is no /proc to
 * tell). Two processes taking over one stale lock at the same moment may both compile; the
 * artifacts file is written atomically (write, then rename), so that costs time only.
 *
 * The wait is synchronous, like the compile itself (solc-js), so the artifacts load synchronously.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isProcessAlive, type ProcessIdentity, processIdentity } from "./process-info.js";

export const COMPILE_LOCK_OWNER_FILE = "owner.json";
/** A live owner holding the lock longer than this is taken for hung. */
export const COMPILE_LOCK_STALE_MS = 120_000;
/** A lock directory without an owner file is taken over after this long. */
export const UNOWNED_LOCK_STALE_MS = 5_000;

export interface WithCompileLockParameters<T> {
  /** The result without compiling, once another process has produced it; else undefined. */
  ready(): T | undefined;
  /** Produces the result while holding the lock (the compile). */
  work(): T;
  /** Called once if another live process holds the lock and this one waits for it. */
  onWait?: (owner: ProcessIdentity | undefined) => void;
  self?: ProcessIdentity;
  isAlive?: (identity: ProcessIdentity) => boolean;
  sleep?: (ms: number) => void;
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function withCompileLock<T>(lock: string, parameters: WithCompileLockParameters<T>): T {
  const self = parameters.self ?? processIdentity();
  const isAlive = parameters.isAlive ?? isProcessAlive;
  const sleep = parameters.sleep ?? sleepSync;
  let waited = false;
  for (;;) {
    if (tryTake(lock, self)) break;
    const owner = readOwner(lock);
    const now = Date.now();
    const age = now - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? now);
    const stale =
      owner === undefined
        ? age > UNOWNED_LOCK_STALE_MS
        : !isAlive(owner) || age > COMPILE_LOCK_STALE_MS;
    if (stale) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!waited) parameters.onWait?.(owner);
    waited = true;
    sleep(200);
    const result = parameters.ready();
    if (result !== undefined) return result;
  }
  try {
    return parameters.ready() ?? parameters.work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Creates the lock directory and its owner file; false when it exists. */
function tryTake(lock: string, self: ProcessIdentity): boolean {
  try {
    mkdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
  try {
    writeFileSync(join(lock, COMPILE_LOCK_OWNER_FILE), `${JSON.stringify(self)}\n`);
  } catch (error) {
    rmSync(lock, { recursive: true, force: true });
    throw error;
  }
  return true;
}

function readOwner(lock: string): ProcessIdentity | undefined {
  try {
    const owner = JSON.parse(
      readFileSync(join(lock, COMPILE_LOCK_OWNER_FILE), "utf8"),
    ) as ProcessIdentity;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}
