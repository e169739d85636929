/**
 * The backfill's rate along the way (issue #43: "a curve that bends shows in the results"): the
 * time the indexer took for each successive 20,000 transfers. A transfer counts as indexed once
 * its source chain's cursor has passed its send's block; the cursors are sampled while the
 * backfill runs (bench/index-backfill.ts), and the sends per block are read back from the
 * store's raw events after it, so the measurement adds no work to the backfill.
 */
import Database from "better-sqlite3";
import { databaseKind } from "../src/store/database-url.js";
import { endClient } from "../src/store/postgres/connections.js";
import type { BackfillProgress } from "./index-backfill.js";
import { connect } from "./list-postgres.js";

export const CURVE_STEP = 20_000;

/** Sends per block of each chain: chain id -> [block, sends] in block order. */
export type SendsByBlock = Map<number, [number, number][]>;

export async function readSendsByBlock(databaseUrl: string): Promise<SendsByBlock> {
  const sql =
    "SELECT chain_id, block_number, count(*) AS n FROM raw_events WHERE role = 'sent'" +
    " GROUP BY chain_id, block_number ORDER BY chain_id, block_number";
  let rows: { chain_id: number | string; block_number: number | string; n: number | string }[];
  if (databaseKind(databaseUrl) === "postgres") {
    const client = await connect(databaseUrl);
    try {
      rows = (await client.query(sql)).rows;
    } finally {
      await endClient(client);
    }
  } else {
    const db = new Database(databaseUrl, { readonly: true });
    try {
      rows = db.prepare(sql).all() as typeof rows;
    } finally {
      db.close();
    }
  }
  const out: SendsByBlock = new Map();
  for (const r of rows) {
    const chain = Number(r.chain_id);
    let list = out.get(chain);
    if (list === undefined) {
      list = [];
      out.set(chain, list);
    }
    list.push([Number(r.block_number), Number(r.n)]);
  }
  return out;
}

export interface CurveSegment {
  /** Transfers indexed at the segment's start and end. */
  from: number;
  to: number;
  /** Time from the backfill's start to the segment's end, and the segment's own time. */
  atMs: number;
  ms: number;
}

/** Sends at or below `cursor` on a chain (its list in block order). */
function sendsUpTo(list: readonly [number, number][], cursor: number): number {
  let n = 0;
  for (const [block, count] of list) {
    if (block > cursor) break;
    n += count;
  }
  return n;
}

/**
 * Successive segments of `step` transfers (the last one what is left), each with the time it
 * took: the moment the indexed count reached the segment's end, interpolated linearly between
 * the two cursor samples around it.
 */
export function backfillCurve(
  progress: readonly BackfillProgress[],
  sends: SendsByBlock,
  step = CURVE_STEP,
): CurveSegment[] {
  const points = progress.map((p) => {
    let transfers = 0;
    for (const [chain, cursor] of p.cursors) transfers += sendsUpTo(sends.get(chain) ?? [], cursor);
    return { ms: p.ms, transfers };
  });
  const total = [...sends.values()].flat().reduce((n, [, count]) => n + count, 0);
  const timeAt = (target: number): number => {
    let previous = { ms: 0, transfers: 0 };
    for (const point of points) {
      if (point.transfers >= target) {
        if (point.transfers === previous.transfers) return point.ms;
        const share = (target - previous.transfers) / (point.transfers - previous.transfers);
        return previous.ms + share * (point.ms - previous.ms);
      }
      previous = point;
    }
    return Number.NaN; // not reached: the samples end before it
  };
  const segments: CurveSegment[] = [];
  let startMs = 0;
  for (let from = 0; from < total; from += step) {
    const to = Math.min(total, from + step);
    const atMs = timeAt(to);
    segments.push({ from, to, atMs, ms: atMs - startMs });
    startMs = atMs;
  }
  return segments;
}
