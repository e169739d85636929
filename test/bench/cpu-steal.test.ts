import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCpuTimes, readCpuTimes, stealShare } from "../../bench/cpu-steal.js";

const STAT = (steal: number, idle: number) =>
  `cpu  294988 0 24230 ${idle} 3625 0 1727 ${steal} 0 0\ncpu0 139070 0 10603 91573 1482 0 842 18615 0 0\n`;

describe("cpu steal", () => {
  it("default: the aggregate cpu line's steal and total ticks (guest time not counted twice)", () => {
    assert.deepEqual(parseCpuTimes(STAT(37123, 162398)), {
      steal: 37123,
      total: 294988 + 24230 + 162398 + 3625 + 1727 + 37123,
    });
  });

  it("behavior: the share stolen between two readings", () => {
    const before = parseCpuTimes(STAT(1000, 5000));
    const after = parseCpuTimes(STAT(1100, 5300)); // 400 more ticks, 100 of them stolen
    assert.equal(stealShare(before, after), 0.25);
    assert.equal(stealShare(before, before), undefined);
    assert.equal(stealShare(undefined, after), undefined);
  });

  it("error: no cpu line or no steal column reads as undefined", () => {
    assert.equal(parseCpuTimes("intr 1 2 3\n"), undefined);
    assert.equal(parseCpuTimes("cpu  1 2 3 4\n"), undefined);
  });

  it("behavior: this machine's /proc/stat parses", {
    skip: process.platform !== "linux" && "/proc/stat is Linux's",
  }, () => {
    const times = readCpuTimes();
    assert.ok(
      times !== undefined && times.total > 0 && times.steal >= 0,
      "times !== undefined && times.total > 0 && times.steal >= 0",
    );
  });
});
