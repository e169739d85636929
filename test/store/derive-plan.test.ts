/**
 * PostgreSQL: the set-based derivation (src/store/derive-transfers.ts) does work in proportion to
 * its batch, whatever the batch's size and whatever the size of raw_events. A backfill's batch
 * holds thousands of messages (100 transfers a block, 100-block spans); two plans once made it
 * quadratic: raw_events scanned whole for every batch (its message_id index unusable from a
 * COLLATE "C" operand), and the derivation's joins of the batch's rows with each other run as
 * nested loops (hash joins were off for it), about 8 s for a batch of 5,000. The plans of every
 * statement are read with auto_explain (actual rows, as the statements ran).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import type { Address, Hex } from "viem";
import type { BridgeEvent } from "../../src/domain/bridge-event.js";
import { createBridgeRegistry } from "../../src/domain/bridge-registry.js";
import {
  createTransferDerivation,
  derivationStatements,
} from "../../src/store/derive-transfers.js";
import { type Database, openDatabase } from "../../src/store/index.js";
import { createPostgresBackend } from "../../src/store/postgres/postgres-backend.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";

const BATCH = 2000;
/** Events of other messages already stored: raw_events is larger than the batch. */
const STORED_BEFORE = 6000;
const NATIVE = "0x0000000000000000000000000000000000000000" as Address;
const BRIDGE_A = "0x1111111111111111111111111111111111111111" as Address;
const BRIDGE_B = "0x2222222222222222222222222222222222222222" as Address;
const USER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as Address;
const registry = createBridgeRegistry(
  [
    { name: "alpha", chainId: 71001, nativeSymbol: "ETH" },
    { name: "beta", chainId: 71002, nativeSymbol: "ETH" },
  ],
  [
    { kind: 1, chainId: 71001, address: BRIDGE_A, bridgeChainId: "101" },
    { kind: 1, chainId: 71002, address: BRIDGE_B, bridgeChainId: "102" },
  ],
);
const hex32 = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;

/** A send on alpha and its delivery on beta, both in block `block` of their chains. */
function transfer(n: number, block: number): BridgeEvent[] {
  const messageId = hex32(0xabc0000 + n);
  const at = (chainId: number, address: Address, logIndex: number) => ({
    chainId,
    blockNumber: block,
    blockHash: hex32(chainId * 1_000_000 + block),
    blockTime: 1_700_000_000 + block,
    txHash: hex32(0x7000000 + n * 2 + logIndex),
    logIndex,
    address,
    protocol: "reference",
    kind: 1 as const,
    messageId,
  });
  return [
    {
      ...at(71001, BRIDGE_A, 0),
      name: "TransferSent",
      role: "sent" as const,
      args: {
        messageId,
        sender: USER,
        recipient: USER,
        destChainId: "102",
        sourceToken: NATIVE,
        sendAmount: "1000000000000000000",
        sourceBridgeToken: NATIVE,
        bridgeAmount: "1000000000000000000",
        destBridgeToken: NATIVE,
        destBridgeAmount: "990000000000000000",
        destToken: NATIVE,
        minReceiveAmount: "980000000000000000",
        bridgeFee: "10000000000000000",
        xprotoFee: "0",
        subsidy: "0",
      },
    },
    {
      ...at(71002, BRIDGE_B, 1),
      name: "TransferDelivered",
      role: "delivered" as const,
      args: { messageId, recipient: USER, receiveAmount: "990000000000000000" },
    },
  ];
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Rows Removed by Join Filter"?: number;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  Plans?: PlanNode[];
}

function* nodes(plan: PlanNode): Generator<PlanNode> {
  yield plan;
  for (const child of plan.Plans ?? []) yield* nodes(child);
}

/** Runs `work` on `client` with auto_explain logging every statement's plan (actual rows). */
async function withPlans<T>(
  client: pg.Client,
  work: () => Promise<T>,
): Promise<{ result: T; plans: PlanNode[] }> {
  const plans: PlanNode[] = [];
  const onNotice = (notice: { message?: string }) => {
    const text = notice.message ?? "";
    const json = text.slice(text.indexOf("{"));
    if (text.includes("plan:")) plans.push((JSON.parse(json) as { Plan: PlanNode }).Plan);
  };
  await client.query("LOAD 'auto_explain'");
  for (const [name, value] of [
    ["auto_explain.log_min_duration", "0"],
    ["auto_explain.log_analyze", "on"],
    ["auto_explain.log_timing", "off"],
    ["auto_explain.log_format", "json"],
    ["auto_explain.log_level", "notice"],
  ]) {
    await client.query(`SET ${name} = '${value}'`);
  }
  client.on("notice", onNotice);
  try {
    return { result: await work(), plans };
  } finally {
    client.off("notice", onNotice);
    await client.query("SET auto_explain.log_min_duration = '-1'");
  }
}

describe("store: the set-based derivation's plans on PostgreSQL", () => {
  let db: IsolatedDatabase;
  let store: Database;
  before(async () => {
    db = await setupIsolatedDatabase("postgres");
    store = await openDatabase(db.databaseUrl);
    const stored = Array.from({ length: STORED_BEFORE / 2 }, (_, i) => transfer(BATCH + i, i));
    await store.transaction((tx) => tx.indexer.insertEvents(stored.flat()));
    const batch = Array.from({ length: BATCH }, (_, i) => transfer(i, STORED_BEFORE + i));
    await store.transaction((tx) => tx.indexer.insertEvents(batch.flat()));
    // Statistics as a backfill's tables have them once autovacuum has looked.
    const client = new pg.Client({ connectionString: db.databaseUrl });
    await client.connect();
    await client.query("ANALYZE raw_events");
    await client.end();
  });
  after(async () => {
    await store?.close();
    await db?.cleanup();
  });

  it("default: a batch of 2,000 messages probes raw_events and joins its own rows by hashing", async () => {
    const client = new pg.Client({ connectionString: db.databaseUrl });
    await client.connect();
    try {
      await client.query("BEGIN");
      const derivation = createTransferDerivation(createPostgresBackend(client), "postgres");
      const ids = Array.from({ length: BATCH }, (_, i) => hex32(0xabc0000 + i));
      const jit = (await client.query("SELECT current_setting('jit') AS v")).rows[0].v;
      const { result, plans } = await withPlans(client, () =>
        derivation.derive(ids, registry.source, "2026-01-01 00:00:00"),
      );
      const settings = await client.query(
        "SELECT current_setting('enable_nestloop') AS nestloop, current_setting('enable_hashjoin') AS hash," +
          " current_setting('enable_seqscan') AS seq, current_setting('jit') AS jit",
      );
      await client.query("ROLLBACK");
      // The settings are the transaction's again for whatever it runs next.
      assert.deepEqual(settings.rows[0], { nestloop: "on", hash: "on", seq: "on", jit });
      assert.deepEqual(result, { upserted: BATCH, deleted: 0 });

      const all = plans.flatMap((plan) => [...nodes(plan)]);
      const rawScans = all.filter(
        (n) => n["Node Type"] === "Seq Scan" && n["Relation Name"] === "raw_events",
      );
      assert.equal(rawScans.length, 0, "raw_events is read through its message_id index");
      // Nested loops over the batch's own rows filter out about BATCH² pairs.
      const removed = all.reduce((sum, n) => sum + (n["Rows Removed by Join Filter"] ?? 0), 0);
      assert.ok(removed <= 10 * BATCH, `joins discarded ${removed} row pairs`);
    } finally {
      await client.end();
    }
  });
});

/**
 * The statements after the derivation's SELECT join the batch's keys to `transfers` and
 * `address_transfers`, which grow with the backfill. Planned freely, several of them read those
 * tables whole in every batch (the planner prices an index probe from the batch dearer than a
 * scan in index order), which made a 100,000-transfer backfill superlinear (bench/RESULTS.md,
 * "index: where the time goes"). Here the tables hold many times the batch, and no statement may
 * read more of them than a few rows per message of the batch.
 */
describe("store: on PostgreSQL a batch reads the stored records at its own rows only", () => {
  const STORED = 20_000;
  /** Stored sends whose delivery arrives in the batch. */
  const LATE = 500;
  /** New transfers (send and delivery) in the batch. */
  const NEW = 500;
  let db: IsolatedDatabase;
  let store: Database;
  before(async () => {
    db = await setupIsolatedDatabase("postgres");
    store = await openDatabase(db.databaseUrl);
    const client = new pg.Client({ connectionString: db.databaseUrl });
    await client.connect();
    try {
      const derivation = createTransferDerivation(createPostgresBackend(client), "postgres");
      for (let start = 0; start < STORED; start += 5000) {
        const events = Array.from({ length: 5000 }, (_, i) => transfer(start + i, start + i));
        const stored = events.flatMap(([send, delivery]) =>
          Number.parseInt(send!.messageId!.slice(-8), 16) - 0xabc0000 < STORED - LATE
            ? [send!, delivery!]
            : [send!],
        );
        await store.transaction((tx) => tx.indexer.insertEvents(stored));
        await client.query("BEGIN");
        await derivation.derive(
          events.map(([send]) => send!.messageId!),
          registry.source,
          "2026-01-01 00:00:00",
        );
        await client.query("COMMIT");
      }
      await client.query("ANALYZE");
    } finally {
      await client.end();
    }
  });
  after(async () => {
    await store?.close();
    await db?.cleanup();
  });

  it("deliveries of stored sends and new transfers: every scan of a large table stays near the batch's size", async () => {
    const late = Array.from(
      { length: LATE },
      (_, i) => transfer(STORED - LATE + i, STORED - LATE + i)[1]!,
    );
    const fresh = Array.from({ length: NEW }, (_, i) => transfer(STORED + i, STORED + i)).flat();
    await store.transaction((tx) => tx.indexer.insertEvents([...late, ...fresh]));
    const ids = [...new Set([...late, ...fresh].map((event) => event.messageId!))];
    const client = new pg.Client({ connectionString: db.databaseUrl });
    await client.connect();
    try {
      await client.query("BEGIN");
      const derivation = createTransferDerivation(createPostgresBackend(client), "postgres");
      const { result, plans } = await withPlans(client, () =>
        derivation.derive(ids, registry.source, "2026-01-02 00:00:00"),
      );
      const rows = await client.query(
        "SELECT (SELECT COUNT(*) FROM transfers WHERE status = 'Success')::int AS delivered," +
          " (SELECT COUNT(*) FROM address_transfers)::int AS address_rows",
      );
      await client.query("ROLLBACK");
      assert.deepEqual(result, { upserted: LATE + NEW, deleted: 0 });
      // Every transfer delivered; one address row each (sender and recipient are one address).
      assert.deepEqual(rows.rows[0], { delivered: STORED + NEW, address_rows: STORED + NEW });

      const large = new Set(["transfers", "address_transfers", "raw_events"]);
      const scans = plans
        .flatMap((plan) => [...nodes(plan)])
        .filter((n) => large.has(n["Relation Name"] ?? "") && n["Node Type"].includes("Scan"))
        .map((n) => ({
          node: `${n["Node Type"]} on ${n["Relation Name"]}`,
          read: (n["Actual Rows"] ?? 0) * (n["Actual Loops"] ?? 0),
        }));
      assert.ok(scans.length > 0, "the plans name the large tables' scans");
      const batch = LATE + NEW;
      const wide = scans.filter((scan) => scan.read > 4 * batch);
      assert.deepEqual(wide, [], `scans reading more than ${4 * batch} rows`);
    } finally {
      await client.end();
    }
  });
});

/**
 * SQLite plans these statements without statistics of the batch's temporary tables; a join of
 * the batch's keys with `transfers` written one way round was planned as a scan of `transfers`
 * (and of `address_transfers`) per batch, the other way round as index searches. No statement
 * may scan a large table: each reads it by index (SEARCH), from the batch's rows.
 */
describe("store: on SQLite the derivation's statements search the large tables, never scan them", () => {
  let db: IsolatedDatabase;
  before(async () => {
    db = await setupIsolatedDatabase("sqlite");
    await (await openDatabase(db.databaseUrl)).close();
  });
  after(async () => {
    await db?.cleanup();
  });

  it("EXPLAIN QUERY PLAN of every statement", () => {
    const sqlite = new BetterSqlite3(db.databaseUrl);
    try {
      const q = derivationStatements("sqlite");
      for (const text of q.tables) sqlite.exec(text);
      const large = ["transfers", "address_transfers", "raw_events"];
      const scans: string[] = [];
      for (const [name, text] of Object.entries(q)) {
        if (typeof text !== "string") continue;
        // The aliases of the large tables in this statement (`transfers t`, `address_transfers a`).
        const aliases = new Set(large);
        for (const m of text.matchAll(
          /\b(transfers|address_transfers|raw_events)\s+(?:AS\s+)?(\w+)/gi,
        )) {
          const alias = m[2]!.toLowerCase();
          if (!["where", "set", "on", "join", "select", "from"].includes(alias)) aliases.add(alias);
        }
        const params = Array.from({ length: text.split("?").length - 1 }, () => null);
        const plan = sqlite.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as {
          detail: string;
        }[];
        for (const { detail } of plan) {
          const scanned = /^SCAN (\w+)/.exec(detail)?.[1]?.toLowerCase();
          if (scanned !== undefined && aliases.has(scanned)) scans.push(`${name}: ${detail}`);
        }
      }
      assert.deepEqual(scans, [], "statements scanning a large table");
    } finally {
      sqlite.close();
    }
  });
});
