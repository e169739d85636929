/**
 * The pieces of the index benchmark's comparison with Ponder that need no devnet: records
 * normalised and digested the same whichever side wrote them (bench/index-records.ts), their
 * differences named, and the backfill's time per 20,000 transfers from cursor samples
 * (bench/index-curve.ts). The end-to-end run is in test/indexer/bench-index.test.ts.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { backfillCurve } from "../../bench/index-curve.js";
import {
  COMPARED_FIELDS,
  compareRecords,
  normaliseRecord,
  recordsDigest,
} from "../../bench/index-records.js";

function row(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of COMPARED_FIELDS) out[f] = f.endsWith("_decimals") ? 18 : "x";
  return { ...out, message_id: id, ...overrides };
}

describe("bench index: records compared with Ponder's", () => {
  it("normalising: hex in any case and numbers as text digest alike, in any order", () => {
    const ours = [
      normaliseRecord(row("0xaa", { source_contract: "0xAbCd" })),
      normaliseRecord(row("0xbb")),
    ];
    const theirs = [
      normaliseRecord(row("0xBB", { source_token_decimals: "18" })),
      normaliseRecord(row("0xAA", { source_contract: "0xabcd" })),
    ];
    assert.equal(recordsDigest(ours), recordsDigest(theirs));
    assert.deepEqual(compareRecords(ours, theirs), {
      equal: true,
      onlyOurs: 0,
      onlyTheirs: 0,
      differing: 0,
      examples: [],
    });
  });

  it("differences: missing on either side and differing fields are counted and named", () => {
    const ours = [row("0x01"), row("0x02", { status: "Success" }), row("0x03")].map(
      normaliseRecord,
    );
    const theirs = [row("0x02", { status: "Failed" }), row("0x03"), row("0x04")].map(
      normaliseRecord,
    );
    const c = compareRecords(ours, theirs);
    assert.equal(c.equal, false);
    assert.deepEqual([c.onlyOurs, c.onlyTheirs, c.differing], [1, 1, 1]);
    assert.deepEqual(c.examples, [
      "0x01: ours only",
      '0x02: status "Success" / "Failed"',
      "0x04: theirs only",
    ]);
    assert.notEqual(recordsDigest(ours), recordsDigest(theirs));
  });

  it("error: a record without one of the fields is refused", () => {
    const { status: _, ...partial } = row("0x01");
    assert.throws(() => normaliseRecord(partial), /record without status/);
  });
});

describe("bench index: the backfill's time per 20,000 transfers", () => {
  it("interpolates the moment each 20,000th transfer's block was passed, chains summed", () => {
    // Two chains of 25,000 sends each, 1,000 per block from block 1.
    const perBlock = (blocks: number) =>
      Array.from({ length: blocks }, (_, i) => [i + 1, 1000] as [number, number]);
    const sends = new Map([
      [1, perBlock(25)],
      [2, perBlock(25)],
    ]);
    const at = (ms: number, a: number, b: number) => ({
      ms,
      cursors: new Map([
        [1, a],
        [2, b],
      ]),
    });
    // 10,000 transfers per second for 2 s, then 5,000 per second to the end.
    const progress = [
      at(0, 0, 0),
      at(1000, 5, 5),
      at(2000, 10, 10),
      at(4000, 15, 15),
      at(8000, 25, 25),
    ];
    const curve = backfillCurve(progress, sends);
    assert.deepEqual(
      curve.map((s) => [s.from, s.to, s.atMs, s.ms]),
      [
        [0, 20_000, 2000, 2000],
        [20_000, 40_000, 6000, 4000],
        [40_000, 50_000, 8000, 2000],
      ],
    );
  });

  it("a segment the samples never reach has no time", () => {
    const sends = new Map([[1, [[1, 30_000]] as [number, number][]]]);
    const curve = backfillCurve([{ ms: 500, cursors: new Map([[1, 0]]) }], sends);
    assert.equal(curve.length, 2);
    assert.ok(Number.isNaN(curve[0]!.ms), "no time for a segment never reached");
  });
});
