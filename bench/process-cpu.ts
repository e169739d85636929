/**
 * CPU time of a process from /proc/<pid>/stat (Linux only; elsewhere undefined). Two readings'
 * difference is what the process did in between, on all its threads (the garbage collector's
 * helpers and libuv's pool included) and in the kernel on its behalf (its socket writes).
 */
import { readFileSync } from "node:fs";

/** Linux's USER_HZ: /proc's CPU times are in these ticks (100 on every Linux architecture). */
const CLOCK_TICKS_PER_SECOND = 100;

export interface ProcessCpu {
  /** The executable's name as /proc gives it (`comm`). */
  name: string;
  /** User and system time, ms. */
  ms: number;
  /** The same for its children already reaped (a PostgreSQL postmaster's exited backends). */
  childrenMs: number;
}

/** One /proc/<pid>/stat line; undefined when it does not read as one. */
export function parseProcessStat(stat: string): ProcessCpu | undefined {
  // "pid (comm) state ...": comm may hold spaces, so split after its closing parenthesis.
  const open = stat.indexOf("(");
  const close = stat.lastIndexOf(")");
  if (open < 0 || close < open) return undefined;
  // Fields after comm, from state (field 3): utime 14, stime 15, cutime 16, cstime 17.
  const ticks = stat
    .slice(close + 2)
    .split(" ")
    .slice(11, 15)
    .map(Number);
  if (ticks.length < 4 || ticks.some((t) => !Number.isFinite(t))) return undefined;
  const ms = (n: number) => (n * 1000) / CLOCK_TICKS_PER_SECOND;
  return {
    name: stat.slice(open + 1, close),
    ms: ms(ticks[0]! + ticks[1]!),
    childrenMs: ms(ticks[2]! + ticks[3]!),
  };
}

/** The process's CPU time so far; undefined where /proc cannot be read or it has exited. */
export function readProcessCpu(pid: number | string): ProcessCpu | undefined {
  try {
    return parseProcessStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined;
  }
}
