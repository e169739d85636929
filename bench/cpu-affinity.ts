/**
 * Pins a process, every thread of it, to a set of cores with util-linux's `taskset` (Node has no
 * affinity call). bench/router.ts pins two servers to one core and its load generator to the
 * other, so that the two share whatever the machine gives that core. Linux only: elsewhere, or
 * without taskset, pinning reports false and the caller runs unpinned.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/**
 * `cpus`: a list as /proc writes it, e.g. "1" or "0-1". True when the process may now run on
 * those cores only (read back: taskset --all-tasks succeeds on a process that does not exist).
 */
export function pinToCpus(pid: number, cpus: string): boolean {
  try {
    execFileSync("taskset", ["--all-tasks", "--cpu-list", "--pid", cpus, String(pid)], {
      stdio: "ignore",
    });
  } catch {
    return false;
  }
  return allowedCpus(pid) === cpus;
}

/** The cores a process may run on, as /proc gives them ("0-1", "1"); undefined without /proc. */
export function allowedCpus(pid: number): string | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return /^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1];
  } catch {
    return undefined;
  }
}
