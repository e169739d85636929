import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ReorgTooDeepError } from "../indexer/find-common-ancestor.js";
import { indexerStopReport } from "./indexer-stop.js";

describe("start: the indexer's loud stop", () => {
  it("default: a deep reorg says how to start over, not to raise finalityDepth or that the next start resumes", () => {
    const error = new ReorgTooDeepError("alpha", 300, 64, "stored blocks 236 to 300 differ");
    const report = indexerStopReport(error, "/home/me/my project/.devnet");
    assert.match(
      report.reason,
      /chain alpha: reorg deeper than finalityDepth 64 below indexed block 300/,
    );
    assert.doesNotMatch(`${report.reason} ${report.advice}`, /raise finalityDepth|re-index/);
    assert.doesNotMatch(report.advice, /resumes/);
    assert.match(report.advice, /next start would stop the same way/);
    assert.match(report.advice, /rm -rf '\/home\/me\/my project\/\.devnet'$/);
  });

  it("behavior: a node reset reads the same way", () => {
    const error = new ReorgTooDeepError(
      "beta",
      90,
      64,
      "the node has none of the stored blocks",
      "reset",
    );
    const report = indexerStopReport(error, "/d/.devnet");
    assert.match(report.reason, /chain beta: the node does not have the indexed chain/);
    assert.match(report.advice, /rm -rf \/d\/\.devnet$/);
  });

  it("behavior: any other failure is not blamed on the devnet", () => {
    const report = indexerStopReport(new Error("disk full"), "/d/.devnet");
    assert.equal(report.reason, "disk full");
    assert.doesNotMatch(report.advice, /rm -rf|resumes/);
  });
});
