import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createProgressReporter, formatDuration, progressLine } from "./progress.js";

/** A stderr stand-in that records what is written: a terminal unless told otherwise. */
function fakeTerminal(options: { isTTY?: boolean; columns?: number } = {}) {
  const written: string[] = [];
  const stream = {
    isTTY: options.isTTY ?? true,
    ...(options.columns !== undefined ? { columns: options.columns } : {}),
    write: (s: string) => written.push(s),
  } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

describe("progressLine", () => {
  it("default: percentage, blocks/s over the samples and ETA", () => {
    const line = progressLine(
      { chain: "alpha", startBlock: 1, cursorBlock: 500, targetBlock: 1000 },
      [
        { at: 0, cursor: 100 },
        { at: 2000, cursor: 500 },
      ],
    );
    assert.equal(line, "alpha [##########..........] 50.0% 500/1000 200 blocks/s ETA 3s");
  });
  it("behavior: no rate yet gives an unknown ETA", () => {
    const line = progressLine({ chain: "a", startBlock: 0, cursorBlock: 0, targetBlock: 10 }, []);
    assert.match(line, /0 blocks\/s ETA \?$/);
  });
  it("behavior: durations read as s, m and h", () => {
    assert.deepEqual(
      [formatDuration(59), formatDuration(61), formatDuration(7322)],
      ["59s", "1m01s", "2h02m"],
    );
  });
  it("behavior: writes nothing when the stream is not a terminal", () => {
    const { stream, written } = fakeTerminal({ isTTY: false });
    const reporter = createProgressReporter(stream);
    reporter.update({ chain: "a", startBlock: 0, cursorBlock: 5, targetBlock: 10 });
    reporter.done("a");
    assert.deepEqual(written, []);
  });
  it("behavior: rewrites one line on a terminal and ends it when done", () => {
    const { stream, written } = fakeTerminal();
    let t = 0;
    const reporter = createProgressReporter(stream, () => (t += 1000));
    reporter.update({ chain: "a", startBlock: 0, cursorBlock: 5, targetBlock: 10 });
    reporter.update({ chain: "a", startBlock: 0, cursorBlock: 7, targetBlock: 10 });
    reporter.done("a");
    assert.equal(written.length, 3);
    assert.ok(written[1]!.startsWith("\r\x1b[2Ka ["), 'written[1]!.startsWith("\\r\\x1b[2Ka [")');
    assert.match(written[1]!, /2 blocks\/s ETA 2s/);
    assert.ok(
      written[2]!.startsWith("\r\x1b[2Ka [") && written[2]!.endsWith("\n"),
      'written[2]!.startsWith("\\r\\x1b[2Ka [") && written[2]!.endsWith("\\n")',
    );
  });
  it("behavior: chains backfilling together share one line; a finished chain's line stays", () => {
    // Regression: each chain rewrote the one line with its own progress, so the line flickered
    // between chains and never showed the whole backfill.
    const { stream, written } = fakeTerminal({ columns: 200 });
    let t = 0;
    const reporter = createProgressReporter(stream, () => (t += 1000));
    reporter.update({ chain: "alpha", startBlock: 1, cursorBlock: 100, targetBlock: 1000 });
    reporter.update({ chain: "beta", startBlock: 1, cursorBlock: 50, targetBlock: 1000 });
    reporter.update({ chain: "alpha", startBlock: 1, cursorBlock: 500, targetBlock: 1000 });
    reporter.update({ chain: "beta", startBlock: 1, cursorBlock: 250, targetBlock: 1000 });
    assert.equal(
      written.at(-1),
      "\r\x1b[2K2 chains [########............] 37.5% 300 blocks/s ETA 8s: alpha 50.0%, beta 25.0%",
    );
    reporter.done("alpha");
    assert.match(written.at(-2)!, /^\r\x1b\[2Kalpha \[.*\] 50\.0% 500\/1000 .*\n$/);
    assert.match(written.at(-1)!, /^\r\x1b\[2Kbeta \[/);
  });
  it("behavior: a line wider than the terminal is cut, so it never wraps", () => {
    const { stream, written } = fakeTerminal({ columns: 30 });
    const reporter = createProgressReporter(stream);
    reporter.update({ chain: "alpha", startBlock: 1, cursorBlock: 100, targetBlock: 1000 });
    const line = written[0]!.replace("\r\x1b[2K", "");
    assert.equal(line.length, 29);
    assert.ok(line.endsWith("…"), 'line.endsWith("…")');
  });
  it("behavior: a log line printed above takes the progress line off and draws it below", () => {
    // `index` logs JSON on stdout; on a terminal it shares the screen with this stderr line,
    // and a log line written after it started in the middle of the progress line.
    const { stream, written } = fakeTerminal({ columns: 200 });
    const reporter = createProgressReporter(stream);
    reporter.printAbove(() => written.push("log 1\n"));
    assert.deepEqual(written, ["log 1\n"]); // no progress line yet: nothing to take off
    reporter.update({ chain: "alpha", startBlock: 1, cursorBlock: 100, targetBlock: 1000 });
    const line = written.at(-1);
    reporter.printAbove(() => written.push("log 2\n"));
    assert.deepEqual(written.slice(-3), ["\r\x1b[2K", "log 2\n", line]);
    reporter.done("alpha");
    reporter.printAbove(() => written.push("log 3\n"));
    assert.equal(written.at(-1), "log 3\n"); // the finished line stays, the log goes below it
    assert.match(written.at(-2)!, /^\r\x1b\[2Kalpha .*\n$/);
  });
});
