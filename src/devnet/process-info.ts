/**
 * What a lock needs to know about another process by its pid: whether it still runs (and is the
 * same process, not a later one that got the pid), and its command line. Linux answers from
 * /proc; elsewhere `kill(pid, 0)` and `ps` do, without the pid-reuse check.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** The identity of a running process: its pid and, where known, when it started. */
export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22); undefined off Linux. */
  startTime?: string;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** This or another process's identity, for a lock file. */
export function processIdentity(pid: number = process.pid): ProcessIdentity {
  // Field 3 (state) is index 0 after the name, so field 22 (starttime) is index 19.
  const startTime = statFields(pid)?.[19];
  return startTime === undefined ? { pid } : { pid, startTime };
}

/**
 * Whether the process still runs. A zombie (exited, not yet reaped by a parent that does not
 * reap) counts as gone; so does a live process whose start time differs from the recorded one
 * (the pid was reused).
 */
export function isProcessAlive(identity: ProcessIdentity): boolean {
  const { pid } = identity;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const fields = statFields(pid);
  if (fields === undefined) return true; // no /proc: kill(pid, 0) is all we know
  if (fields[0] === "Z" || fields[0] === "X") return false;
  return identity.startTime === undefined || fields[19] === identity.startTime;
}

/** The process's arguments (argv[0] first), or undefined when it is gone or unreadable. */
export function processCommandLine(pid: number): string[] | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return raw.split("\0").filter((part, index, all) => part !== "" || index < all.length - 1);
  } catch {
    // not Linux (or gone): ask ps; its output splits on spaces, which is enough for our checks
  }
  try {
    const out = execFileSync("ps", ["-o", "args=", "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return out === "" ? undefined : out.split(/\s+/);
  } catch {
    return undefined;
  }
}
