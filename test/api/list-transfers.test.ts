/**
 * GET /api/oracle/bridge-transactions through app.inject() over a real store, on SQLite and on
 * PostgreSQL (the same suite; PostgreSQL missing makes it fail, not skip).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { toBaseUnits } from "../../src/amount.js";
import { type BridgeTransaction, TRANSFER_FIELDS } from "../../src/domain/bridge-transaction.js";
import { SORT_FIELDS } from "../../src/store/types.js";
import type { DatabaseBackend } from "../setup/database.js";
import {
  evmAddress,
  hexHash,
  makeProcessingTransfer,
  makeTransfer,
  timeAt,
} from "../setup/transfer-fixtures.js";
import { type ApiHarness, setupApi } from "./setup.js";

const PATH = "/api/oracle/bridge-transactions";
const ALICE = evmAddress("api-alice");
const BOB = evmAddress("api-bob");
const CAROL = evmAddress("api-carol");
const DAVE = evmAddress("api-dave");

// Alice sends some and receives some; values chosen so that lexical and numeric amount order
// differ ("10" > "9.5") and some sort keys tie (tie-breaking must still be total).
const aliceAmounts = [
  ["9.5", "9.25"],
  ["10", "10"],
  ["100", "99.5"],
  ["0.001", "0.0005"],
  ["10", "9.9"],
  ["2", "1.75"],
  ["1000000.123456", "1000000"],
] as const;
const aliceTransfers = aliceAmounts.map(([send, receive], i) =>
  makeTransfer({
    ...(i % 3 === 2 ? { to_address: ALICE } : { from_address: ALICE }),
    send_amount: send,
    receive_amount: receive,
    dest_bridge_token_amount: receive,
    // i = 3 and 4 share created_at and start_time: ties resolved by the unique key.
    created_at: timeAt(1000 + (i === 4 ? 3 : i) * 60),
    updated_at: timeAt(5000 - i * 7),
    start_time: timeAt(900 + (i === 4 ? 3 : i) * 30),
    end_time: timeAt(3000 + ((i * 5) % 7) * 11),
  }),
);
const bobTransfer = makeTransfer({ from_address: BOB, to_address: BOB });
const carolProcessing = makeProcessingTransfer({ from_address: CAROL });
const daveTransfers = Array.from({ length: 25 }, (_, i) =>
  makeTransfer({ to_address: DAVE, created_at: timeAt(20_000 + i) }),
);
const otherChainTransfer = makeTransfer({
  from_address: "cosmos1qy352eufqy352eufqy352eufqy352euf0rpxjy",
  to_address: "So1anaRecipient1111111111111111111111111111",
  source_tx_hash: "5KtPn1LGuxhFiwjxErkxTb7XxtLVYUBe6Cn33ej7ATNb",
  dest_tx_hash: "osmo:tx_ABC-123",
  message_id: "msg-other-chain-1",
});
const allTransfers: BridgeTransaction[] = [
  ...aliceTransfers,
  bobTransfer,
  carolProcessing,
  ...daveTransfers,
  otherChainTransfer,
];

interface ListBody {
  code: number;
  msg: string;
  data: { data: BridgeTransaction[]; total: number; page: { page: number; pageSize: number } };
}

async function list(harness: ApiHarness, query: Record<string, string>) {
  const response = await harness.app.inject({ method: "GET", url: PATH, query });
  return { status: response.statusCode, body: response.json() as ListBody };
}

function byId(records: readonly BridgeTransaction[]): string[] {
  return records.map((r) => r.message_id).sort();
}

function compareField(field: string, a: BridgeTransaction, b: BridgeTransaction): number {
  const x = a[field as keyof BridgeTransaction] as string;
  const y = b[field as keyof BridgeTransaction] as string;
  if (field.endsWith("_amount")) {
    const bx = toBaseUnits(x, 18);
    const by = toBaseUnits(y, 18);
    return bx < by ? -1 : bx > by ? 1 : 0;
  }
  return x < y ? -1 : x > y ? 1 : 0;
}

for (const backend of ["sqlite", "postgres"] as DatabaseBackend[]) {
  describe(`GET ${PATH} (${backend})`, () => {
    let harness: ApiHarness;
    before(async () => {
      harness = await setupApi(backend, allTransfers);
    });
    after(async () => harness?.close());

    it("default: the envelope, every record field with its JSON type, page echoed as numbers", async () => {
      const { status, body } = await list(harness, {
        addressOrTxHash: CAROL,
        pageNo: "1",
        pageSize: "10",
      });
      assert.equal(status, 200);
      assert.deepEqual(Object.keys(body), ["code", "msg", "data"]);
      assert.equal(body.code, 0);
      assert.equal(body.msg, "success");
      assert.deepEqual(body.data.page, { page: 1, pageSize: 10 });
      assert.equal(body.data.total, 1);
      const [record] = body.data.data;
      assert.ok(record, "record");
      assert.deepEqual(Object.keys(record).sort(), [...TRANSFER_FIELDS].sort());
      for (const field of TRANSFER_FIELDS) {
        const expected = field.endsWith("_decimals") ? "number" : "string";
        assert.equal(typeof record[field], expected, field);
      }
      assert.deepEqual(record, carolProcessing);
      assert.equal(record.status, "Processing");
      assert.equal(record.receive_amount, "");
      assert.equal(record.end_time, "");
    });

    it("behavior: an address matches sender or recipient, in any case, answered in EIP-55", async () => {
      for (const variant of [ALICE, ALICE.toLowerCase(), `0x${ALICE.slice(2).toUpperCase()}`]) {
        const { body } = await list(harness, {
          addressOrTxHash: `  ${variant} `,
          pageNo: "1",
          pageSize: "100",
        });
        assert.equal(body.data.total, aliceTransfers.length, variant);
        assert.deepEqual(byId(body.data.data), byId(aliceTransfers));
        for (const record of body.data.data) {
          assert.ok(
            record.from_address === ALICE || record.to_address === ALICE,
            "record.from_address === ALICE || record.to_address === ALICE",
          );
        }
      }
      const recipientOnly = aliceTransfers.filter((t) => t.to_address === ALICE);
      assert.ok(
        recipientOnly.length > 0 && recipientOnly.length < aliceTransfers.length,
        "recipientOnly.length > 0 && recipientOnly.length < aliceTransfers.length",
      );
    });

    it("behavior: a hash matches source_tx_hash, dest_tx_hash or message_id, in any case", async () => {
      for (const field of ["source_tx_hash", "dest_tx_hash", "message_id"] as const) {
        const hash = bobTransfer[field];
        for (const variant of [hash, `0x${hash.slice(2).toUpperCase()}`]) {
          const { body } = await list(harness, {
            addressOrTxHash: variant,
            pageNo: "1",
            pageSize: "10",
          });
          assert.equal(body.data.total, 1, `${field} ${variant}`);
          assert.equal(body.data.data[0]?.message_id, bobTransfer.message_id);
        }
      }
    });

    it("behavior: other chains' ids match exactly, on all five fields", async () => {
      for (const field of [
        "from_address",
        "to_address",
        "source_tx_hash",
        "dest_tx_hash",
        "message_id",
      ] as const) {
        const { body } = await list(harness, {
          addressOrTxHash: otherChainTransfer[field],
          pageNo: "1",
          pageSize: "10",
        });
        assert.equal(body.data.total, 1, field);
        assert.equal(body.data.data[0]?.message_id, otherChainTransfer.message_id);
      }
      const { body } = await list(harness, {
        addressOrTxHash: otherChainTransfer.source_tx_hash.toLowerCase(),
        pageNo: "1",
        pageSize: "10",
      });
      assert.equal(body.data.total, 0, "other ids are case-sensitive");
    });

    it("behavior: no match is a success with an empty page and total 0", async () => {
      const { status, body } = await list(harness, {
        addressOrTxHash: hexHash("nothing-matches"),
        pageNo: "1",
        pageSize: "20",
      });
      assert.equal(status, 200);
      assert.deepEqual(body, {
        code: 0,
        msg: "success",
        data: { data: [], total: 0, page: { page: 1, pageSize: 20 } },
      });
    });

    it("behavior: pages cover every match once; a page past the end is empty with the true total", async () => {
      const seen: string[] = [];
      for (const [pageNo, size] of [
        [1, 10],
        [2, 10],
        [3, 5],
      ] as const) {
        const { body } = await list(harness, {
          addressOrTxHash: DAVE,
          pageNo: String(pageNo),
          pageSize: "10",
        });
        assert.equal(body.data.total, 25);
        assert.equal(body.data.data.length, size);
        assert.deepEqual(body.data.page, { page: pageNo, pageSize: 10 });
        seen.push(...body.data.data.map((r) => r.message_id));
      }
      assert.deepEqual(seen.sort(), byId(daveTransfers));
      const past = await list(harness, { addressOrTxHash: DAVE, pageNo: "4", pageSize: "10" });
      assert.equal(past.status, 200);
      assert.deepEqual(past.body.data.data, []);
      assert.equal(past.body.data.total, 25);
      const far = await list(harness, {
        addressOrTxHash: DAVE,
        pageNo: "1000000000",
        pageSize: "100",
      });
      assert.deepEqual([far.body.data.data.length, far.body.data.total], [0, 25]);
    });

    it("default: newest created_at first", async () => {
      const { body } = await list(harness, { addressOrTxHash: DAVE, pageNo: "1", pageSize: "100" });
      const expected = [...daveTransfers].reverse().map((r) => r.message_id);
      assert.deepEqual(
        body.data.data.map((r) => r.message_id),
        expected,
      );
    });

    it("behavior: every sortName (snake and camel) and sortOrder (any case) orders the matches", async () => {
      for (const field of SORT_FIELDS) {
        const camel = field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
        for (const [sortName, sortOrder] of [
          [field, "asc"],
          [camel, "DESC"],
          [field, "Desc"],
          [camel, "ASC"],
        ] as const) {
          const { status, body } = await list(harness, {
            addressOrTxHash: ALICE,
            pageNo: "1",
            pageSize: "100",
            sortName,
            sortOrder,
          });
          assert.equal(status, 200);
          const records = body.data.data;
          assert.equal(records.length, aliceTransfers.length);
          const sign = sortOrder.toLowerCase() === "asc" ? 1 : -1;
          for (let i = 1; i < records.length; i++) {
            const order = compareField(field, records[i - 1]!, records[i]!) * sign;
            assert.ok(order <= 0, `${sortName} ${sortOrder}: position ${i} out of order`);
          }
        }
      }
    });

    it("behavior: with ties, consecutive pages neither repeat nor skip a record", async () => {
      for (const sortName of ["created_at", "send_amount", "start_time"]) {
        for (const sortOrder of ["asc", "desc"]) {
          const seen: string[] = [];
          for (let pageNo = 1; pageNo <= 4; pageNo++) {
            const { body } = await list(harness, {
              addressOrTxHash: ALICE,
              pageNo: String(pageNo),
              pageSize: "2",
              sortName,
              sortOrder,
            });
            seen.push(...body.data.data.map((r) => r.message_id));
          }
          assert.deepEqual(seen.sort(), byId(aliceTransfers), `${sortName} ${sortOrder}`);
        }
      }
    });
  });
}
