import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseProcessStat, readProcessCpu } from "../../bench/process-cpu.js";

// A real line's shape: utime 250, stime 40, cutime 7, cstime 3 (fields 14-17), comm with spaces.
const STAT =
  "4242 (node (worker) x) S 1 4242 4242 0 -1 4194560 9361 0 0 0 250 40 7 3 20 0 11 0 1530 1234567 5000 18446744073709551615\n";

describe("process cpu", () => {
  it("default: user plus system time in ms, its reaped children's apart, and its name", () => {
    assert.deepEqual(parseProcessStat(STAT), {
      name: "node (worker) x",
      ms: 2900,
      childrenMs: 100,
    });
  });

  it("error: a line that is not a stat line reads as undefined", () => {
    assert.equal(parseProcessStat(""), undefined);
    assert.equal(parseProcessStat("4242 (node) S 1 2"), undefined);
  });

  it("behavior: this process's reading grows with the work it does", {
    skip: process.platform !== "linux" && "/proc is Linux's",
  }, () => {
    const before = readProcessCpu(process.pid);
    const until = performance.now() + 60;
    while (performance.now() < until) {} // busy: 60 ms of CPU, 6 ticks
    const after = readProcessCpu(process.pid);
    assert.ok(before !== undefined && after !== undefined, "this process's /proc/<pid>/stat reads");
    assert.ok(after.ms - before.ms >= 30, `grew by ${after.ms - before.ms} ms over 60 ms of work`);
    assert.equal(readProcessCpu(2 ** 22 + 1), undefined, "no such process");
  });
});
