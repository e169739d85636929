import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import { createTimeFormatter, createTransferGenerator } from "./generate.js";
import { parseTransferRecord } from "./validate.js";

const COUNT = 8000;
const generator = createTransferGenerator({ count: COUNT, seed: 42 });
const RECORDS: BridgeTransaction[] = [...generator.records()];

describe("createTransferGenerator", () => {
  it("default: yields exactly count records, each valid and already canonical", () => {
    assert.equal(RECORDS.length, COUNT);
    for (const [i, record] of RECORDS.entries()) {
      const result = parseTransferRecord(record);
      assert.ok(result.ok, `record ${i}: ${result.ok ? "" : result.message}`);
      assert.deepEqual(result.record, record, `record ${i} is not canonical`);
    }
  });

  it("behavior: the same seed gives the same records, another seed different ones", () => {
    const again = createTransferGenerator({ count: COUNT, seed: 42 }).records();
    for (let i = 0; i < 50; i++) {
      assert.equal(JSON.stringify(again.next().value), JSON.stringify(RECORDS[i]), `record ${i}`);
    }
    const other = createTransferGenerator({ count: COUNT, seed: 43 }).records().next().value;
    assert.notEqual(other?.message_id, RECORDS[0]?.message_id);
  });

  it("behavior: message ids and transaction hashes are unique", () => {
    const ids = new Set<string>();
    for (const r of RECORDS) {
      for (const id of [r.message_id, r.source_tx_hash, r.dest_tx_hash]) {
        if (id === "") continue;
        assert.ok(!ids.has(id), `duplicate id ${id}`);
        ids.add(id);
      }
    }
  });

  it("behavior: start_time never decreases; created/updated/end times follow start", () => {
    for (let i = 1; i < RECORDS.length; i++) {
      const [prev, cur] = [RECORDS[i - 1]!, RECORDS[i]!];
      assert.ok(prev.start_time <= cur.start_time, `record ${i}`);
      assert.ok(
        cur.created_at >= cur.start_time && cur.updated_at >= cur.created_at,
        "cur.created_at >= cur.start_time && cur.updated_at >= cur.created_at",
      );
      if (cur.end_time !== "")
        assert.ok(cur.end_time >= cur.start_time, "cur.end_time >= cur.start_time");
    }
  });

  it("behavior: all three statuses in realistic proportions with consistent fields", () => {
    const counts = { Success: 0, Failed: 0, Processing: 0 };
    for (const r of RECORDS) {
      counts[r.status]++;
      if (r.status === "Processing") {
        assert.deepEqual([r.dest_tx_hash, r.receive_amount, r.end_time], ["", "", ""]);
      } else {
        assert.notEqual(r.end_time, "");
      }
      if (r.status === "Success") assert.notEqual(r.dest_tx_hash, "");
      if (r.status === "Failed") assert.equal(r.receive_amount, "0");
    }
    assert.ok(counts.Success > COUNT * 0.9, JSON.stringify(counts));
    assert.ok(counts.Failed > COUNT * 0.01, JSON.stringify(counts));
    assert.ok(counts.Processing > 10, JSON.stringify(counts));
  });

  it("behavior: several chains and tokens with their real decimals", () => {
    const chains = new Set(RECORDS.map((r) => r.source_chain_name));
    assert.ok(chains.size >= 7, [...chains].join());
    assert.ok(chains.has("solana"), "some non-EVM transfers");
    const decimals = new Map<string, Set<number>>();
    for (const r of RECORDS) {
      const key = `${r.source_chain_name}:${r.source_token_symbol}`;
      decimals.set(key, (decimals.get(key) ?? new Set()).add(r.source_token_decimals));
    }
    for (const [key, set] of decimals) assert.equal(set.size, 1, `${key} has one decimals`);
    assert.deepEqual([...(decimals.get("ethereum:USDC") ?? [])], [6]);
    assert.deepEqual([...(decimals.get("bsc:USDC") ?? [])], [18]);
    assert.deepEqual([...(decimals.get("arbitrum:WBTC") ?? [])], [8]);
    assert.deepEqual([...(decimals.get("base:DAI") ?? [])], [18]);
  });

  it("behavior: hot addresses take part in about hotShare of all transfers", () => {
    const [a, b] = generator.hotAddresses;
    assert.ok(
      a !== undefined && b !== undefined && a !== b,
      "a !== undefined && b !== undefined && a !== b",
    );
    for (const hot of [a, b]) {
      const n = RECORDS.filter((r) => r.from_address === hot || r.to_address === hot).length;
      // 0.25 share split over two addresses: expected 1,000 of 8,000.
      assert.ok(n > 850 && n < 1150, `${hot}: ${n}`);
    }
  });

  it("behavior: hot share and count are configurable", () => {
    const g = createTransferGenerator({ count: 2000, seed: 1, hotAddresses: 1, hotShare: 0.8 });
    const [hot] = g.hotAddresses;
    const n = [...g.records()].filter((r) => r.from_address === hot || r.to_address === hot);
    assert.ok(n.length > 1500, String(n.length));
  });

  it("error: rejects a count or share out of range", () => {
    assert.throws(() => createTransferGenerator({ count: -1 }), /count/);
    assert.throws(() => createTransferGenerator({ count: 1.5 }), /count/);
    assert.throws(() => createTransferGenerator({ count: 1, hotShare: 2 }), /hotShare/);
  });
});

describe("createTimeFormatter", () => {
  it("default: formats like toISOString across days, including going back", () => {
    const format = createTimeFormatter();
    for (const t of [0, 59, 86399, 86400, 1735689599, 1735689600, 1709164800, 1000]) {
      const expected = new Date(t * 1000).toISOString().slice(0, 19).replace("T", " ");
      assert.equal(format(t), expected);
    }
  });
});
