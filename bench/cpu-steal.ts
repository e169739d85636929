/**
 * CPU steal: time the hypervisor gave this virtual machine's cores to other guests (the `steal`
 * column of /proc/stat). It slows every process of the machine without showing in its load
 * average, and it changes from minute to minute, so a benchmark reports it beside its figures.
 * Linux only; elsewhere the readings are undefined.
 */
import { readFileSync } from "node:fs";

export interface CpuTimes {
  /** Clock ticks summed over all cores since boot. */
  steal: number;
  total: number;
}

/** The aggregate `cpu` line of /proc/stat's text; undefined when it has no steal column. */
export function parseCpuTimes(procStat: string): CpuTimes | undefined {
  const line = procStat.split("\n").find((l) => l.startsWith("cpu "));
  if (line === undefined) return undefined;
  // user nice system idle iowait irq softirq steal [guest guest_nice]: guest time is already
  // counted in user and nice, so the total is the first eight.
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (ticks.length < 8 || ticks.some((t) => !Number.isFinite(t))) return undefined;
  return { steal: ticks[7]!, total: ticks.reduce((a, b) => a + b, 0) };
}

export function readCpuTimes(): CpuTimes | undefined {
  try {
    return parseCpuTimes(readFileSync("/proc/stat", "utf8"));
  } catch {
    return undefined;
  }
}

/** Share of all cores' time stolen between two readings (0..1), or undefined. */
export function stealShare(
  before: CpuTimes | undefined,
  after: CpuTimes | undefined,
): number | undefined {
  if (before === undefined || after === undefined) return undefined;
  const total = after.total - before.total;
  return total > 0 ? (after.steal - before.steal) / total : undefined;
}
