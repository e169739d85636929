/**
 * The explorer's extension endpoints through app.inject() on both stores: the latest transfers
 * across all addresses, the 24-hour summary (counts, success rate, delivery percentiles per
 * route, exact volumes), and one transfer's timeline from the indexer's stored events (a
 * failure's reason and a refund's amount) or, for an imported record, from the record alone.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { utcText } from "../../src/api/transfer-summary.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import { sqlitePath } from "../../src/store/database-url.js";
import type { DatabaseBackend } from "../setup/database.js";
import {
  evmAddress,
  hexHash,
  makeProcessingTransfer,
  makeTransfer,
} from "../setup/transfer-fixtures.js";
import { type ApiHarness, setupApi } from "./setup.js";

const NOW = Math.floor(Date.now() / 1000);
const ago = (seconds: number) => utcText(NOW - seconds);

const SOURCE_BRIDGE = evmAddress("activity-source-bridge");
const DEST_BRIDGE = evmAddress("activity-dest-bridge");

function recent(i: number, overrides: Partial<BridgeTransaction>): BridgeTransaction {
  return makeTransfer({
    source_contract: SOURCE_BRIDGE,
    dest_contract: DEST_BRIDGE,
    start_time: ago(3600 - i * 60),
    end_time: ago(3600 - i * 60 - (10 + i)),
    ...overrides,
  });
}

// Five Success alpha -> beta taking 10..14 s, one Failed, one Processing; two of 18-decimal
// DAI; one old transfer outside the window.
const successes = [0, 1, 2, 3, 4].map((i) =>
  recent(i, { source_chain_name: "alpha", dest_chain_name: "beta", send_amount: `1000.${i}` }),
);
const failed = recent(5, {
  source_chain_name: "alpha",
  dest_chain_name: "gamma",
  status: "Failed",
  receive_amount: "0",
  send_amount: "0.000001",
});
const processing = makeProcessingTransfer({
  source_contract: SOURCE_BRIDGE,
  dest_contract: DEST_BRIDGE,
  source_chain_name: "beta",
  dest_chain_name: "alpha",
  start_time: ago(30),
  send_amount: "2.5",
  source_token_symbol: "DAI",
  source_token_decimals: 18,
});
const dai = recent(6, {
  source_chain_name: "beta",
  dest_chain_name: "alpha",
  send_amount: "0.000000000000000001",
  source_token_symbol: "DAI",
  source_token_decimals: 18,
});
const old = makeTransfer({ start_time: ago(2 * 86_400), end_time: ago(2 * 86_400 - 5) });
const imported = makeTransfer({ start_time: ago(7200), end_time: ago(7190) });
const RECORDS = [...successes, failed, processing, dai, old, imported];

async function insertRawEvents(databaseUrl: string, backend: DatabaseBackend, rows: unknown[][]) {
  const columns =
    "chain_id, tx_hash, log_index, block_number, block_hash, block_time, address, kind, event_name, message_id, args, role";
  if (backend === "sqlite") {
    const db = new Database(sqlitePath(databaseUrl));
    const insert = db.prepare(`INSERT INTO raw_events (${columns}) VALUES (${"?, ".repeat(11)}?)`);
    for (const row of rows) insert.run(...row);
    db.prepare(
      "INSERT INTO indexer_chains (chain_id, name, start_block, cursor_block, cursor_hash, head_block, target_block, state, error, updated_at) VALUES (71001, 'alpha', 0, 0, '', 0, 0, 'following', '', '')",
    ).run();
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const row of rows) {
      await client.query(
        `INSERT INTO raw_events (${columns}) VALUES (${row.map((_, i) => `$${i + 1}`).join(", ")})`,
        row,
      );
    }
    await client.query(
      "INSERT INTO indexer_chains (chain_id, name, start_block, cursor_block, cursor_hash, head_block, target_block, state, error, updated_at) VALUES (71001, 'alpha', 0, 0, '', 0, 0, 'following', '', '')",
    );
  } finally {
    await client.end();
  }
}

const startSeconds = NOW - 3600 + 5 * 60;
function event(
  chainId: number,
  block: number,
  time: number,
  address: string,
  name: string,
  args: object,
): unknown[] {
  return [
    chainId,
    hexHash(`tx-${name}`),
    0,
    block,
    hexHash(`block-${block}`),
    time,
    address,
    0,
    name,
    failed.message_id,
    JSON.stringify(args),
    ROLES[name],
  ];
}

/** The reference events' roles (src/domain/bridge-event.ts). */
const ROLES: Record<string, string> = {
  TransferSent: "sent",
  TransferDelivered: "delivered",
  TransferFailed: "failed",
  TransferRefunded: "refunded",
};

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`explorer activity endpoints (${backend})`, () => {
    let api: ApiHarness;

    before(async () => {
      api = await setupApi(backend, RECORDS);
      await insertRawEvents(api.databaseUrl, backend, [
        event(71001, 10, startSeconds, SOURCE_BRIDGE, "TransferSent", {}),
        event(71003, 20, startSeconds + 7, DEST_BRIDGE, "TransferFailed", {
          reason: "slippage: received below the minimum",
        }),
        // A look-alike at another contract is not this transfer's outcome.
        event(71003, 21, startSeconds + 8, evmAddress("other"), "TransferDelivered", {}),
        event(71001, 12, startSeconds + 12, SOURCE_BRIDGE, "TransferRefunded", {
          token: failed.fee_address,
          amount: "1500000",
        }),
      ]);
    });
    after(() => api?.close());

    it("default: latest lists the newest transfers of every address by start time", async () => {
      const response = await api.app.inject({
        url: "/api/oracle/bridge-transactions/latest?limit=3",
      });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.code, 0);
      assert.deepEqual(
        body.data.data.map((t: BridgeTransaction) => t.message_id),
        [processing.message_id, dai.message_id, failed.message_id],
      );
      const all = await api.app.inject({ url: "/api/oracle/bridge-transactions/latest" });
      assert.equal(all.json().data.data.length, RECORDS.length);
      assert.equal(all.json().data.data.at(-1).message_id, old.message_id);
    });

    it("error: a bad limit is 400 40001 naming it", async () => {
      for (const limit of ["0", "101", "abc", "1.5"]) {
        const response = await api.app.inject({
          url: `/api/oracle/bridge-transactions/latest?limit=${limit}`,
        });
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().code, 40001);
        assert.match(response.json().msg, /^limit must be an integer from 1 to 100/);
      }
    });

    it("default: the summary counts the last 24 hours by status, per route and per token", async () => {
      const response = await api.app.inject({ url: "/api/oracle/stats/summary" });
      assert.equal(response.statusCode, 200, response.body);
      const data = response.json().data;
      assert.equal(data.total, RECORDS.length - 1);
      assert.deepEqual(data.byStatus, { Processing: 1, Success: 7, Failed: 1 });
      assert.equal(data.successRate, 7 / 8);
      const alphaBeta = data.routes.find(
        (r: { sourceChain: string; destChain: string }) =>
          r.sourceChain === "alpha" && r.destChain === "beta",
      );
      assert.deepEqual(alphaBeta, {
        sourceChain: "alpha",
        destChain: "beta",
        transfers: 5,
        delivered: 5,
        medianDeliverySeconds: 12,
        p90DeliverySeconds: 14,
      });
      const gamma = data.routes.find((r: { destChain: string }) => r.destChain === "gamma");
      assert.equal(gamma.medianDeliverySeconds, null);
      const volumes = Object.fromEntries(
        data.volumes.map((v: { symbol: string; amount: string }) => [v.symbol, v.amount]),
      );
      // 1000.0 + ... + 1000.4 + 0.000001 + 100.5 (imported) = 5101.500001 USDC, exactly.
      assert.equal(volumes.USDC, "5101.500001");
      assert.equal(volumes.DAI, "2.500000000000000001");
    });

    it("default: the timeline of an indexed Failed transfer has blocks, its reason and its refund", async () => {
      for (const id of [
        failed.message_id,
        failed.source_tx_hash.toUpperCase().replace("0X", "0x"),
      ]) {
        const response = await api.app.inject({
          url: `/api/oracle/bridge-transactions/${id}/timeline`,
        });
        assert.equal(response.statusCode, 200, response.body);
        const { transfer, steps } = response.json().data;
        assert.equal(transfer.message_id, failed.message_id);
        assert.deepEqual(
          steps.map((s: { step: string }) => s.step),
          ["sent", "failed", "refunded"],
        );
        assert.equal(steps[0].blockNumber, 10);
        assert.equal(steps[0].chainName, "alpha");
        assert.equal(steps[1].chainName, "", "an unindexed chain has no name");
        assert.equal(steps[1].reason, "slippage: received below the minimum");
        assert.equal(steps[1].secondsAfterSent, 7);
        assert.equal(steps[2].amount, "1.5");
        assert.equal(steps[2].tokenSymbol, "USDC");
        assert.equal(steps[2].secondsAfterSent, 12);
      }
    });

    it("behavior: an imported record's timeline comes from the record; unknown ids are 404", async () => {
      const response = await api.app.inject({
        url: `/api/oracle/bridge-transactions/${imported.dest_tx_hash}/timeline`,
      });
      assert.equal(response.statusCode, 200, response.body);
      const { steps } = response.json().data;
      assert.deepEqual(
        steps.map((s: { step: string; blockNumber: null; secondsAfterSent: number }) => [
          s.step,
          s.blockNumber,
          s.secondsAfterSent,
        ]),
        [
          ["sent", null, 0],
          ["delivered", null, 10],
        ],
      );
      const missing = await api.app.inject({
        url: `/api/oracle/bridge-transactions/${hexHash("nothing")}/timeline`,
      });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().code, 40401);
      const bad = await api.app.inject({
        url: `/api/oracle/bridge-transactions/${evmAddress("x")}/timeline`,
      });
      assert.equal(bad.statusCode, 400);
      assert.match(bad.json().msg, /^id must be/);
    });
  });
}
