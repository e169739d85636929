/**
 * The set-based derivation (src/store/derive-transfers.ts) against its specification, the
 * reducer deriveTransfer (src/indexer/derive-transfer.ts), on both backends: random histories of
 * sends, deliveries, failures, refunds and look-alikes on three chains arrive in random batches
 * per chain (so a delivery often comes before its send), with reorganisations that orphan a
 * chain's newest blocks and replace them with other events, and a clock that sometimes goes
 * back (records then sort before stored ones: the renumbering path). After every batch the
 * database must hold exactly the reducer's records, created_at and updated_at included, and
 * address lists that match them (seq 1..total in (created_at, id) order, stats, sort columns).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import fc from "fast-check";
import pg from "pg";
import type { Address, Hex } from "viem";
import type { BridgeEvent } from "../../src/domain/bridge-event.js";
import { createBridgeRegistry } from "../../src/domain/bridge-registry.js";
import { type BridgeTransaction, TRANSFER_FIELDS } from "../../src/domain/bridge-transaction.js";
import { type Database as OpenDatabase, openDatabase } from "../../src/store/index.js";
import { amountSortKey } from "../../src/store/transfer-keys.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { type DeriveContext, deriveTransfer } from "./derive-transfer-model.js";

const CHAINS = [71001, 71002, 71003];
const BRIDGES: Record<number, Address> = {
  71001: "0x1111111111111111111111111111111111111111",
  71002: "0x2222222222222222222222222222222222222222",
  71003: "0x3333333333333333333333333333333333333333",
};
const OTHER_CONTRACT = "0x9999999999999999999999999999999999999999" as Address;
/**
 * A protocol with two contracts of one kind per chain (like two OFT meshes): its sends name
 * their destination contract (SentArgs.destContract), so pairing cannot go by kind.
 */
const MESH = "mesh";
const MESH_CONTRACTS = CHAINS.map((_, i) => [
  `0x6${i}${"0".repeat(37)}1`,
  `0x6${i}${"0".repeat(37)}2`,
]) as [Address, Address][];
const registry = createBridgeRegistry(
  CHAINS.map((chainId, i) => ({ name: `chain${i}`, chainId, nativeSymbol: `N${i}` })),
  [
    ...CHAINS.map((chainId, i) => ({
      kind: 1 as const,
      chainId,
      address: BRIDGES[chainId]!,
      bridgeChainId: String(101 + i),
    })),
    ...CHAINS.flatMap((chainId, i) =>
      MESH_CONTRACTS[i]!.map((address) => ({
        protocol: MESH,
        kind: 1 as const,
        chainId,
        address,
        bridgeChainId: String(201 + i),
      })),
    ),
  ],
);
/** Tokens of distinct decimals on every chain (0x0 is the native coin, 18 decimals). */
const TOKEN_ADDRESSES = [
  "0x0000000000000000000000000000000000000000",
  "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
  "0x4444444444444444444444444444444444444444",
  "0x5555555555555555555555555555555555555555",
] as Address[];
const DECIMALS = [18, 6, 0, 30];
const TOKENS = CHAINS.flatMap((chainId) =>
  TOKEN_ADDRESSES.slice(1).map((address, i) => ({
    chainId,
    address: address.toLowerCase(),
    symbol: `T${i}c${chainId % 10}`,
    decimals: DECIMALS[i + 1]!,
  })),
);
const context: DeriveContext = {
  registry,
  token: (chainId, address) =>
    TOKENS.find((t) => t.chainId === chainId && t.address === address.toLowerCase()),
};
const USERS = [
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
] as Address[];
const hex32 = (n: number) => `0x${n.toString(16).padStart(64, "0")}` as Hex;

const units = fc.oneof(
  fc.constant("0"),
  fc.bigInt({ min: 1n, max: 10n ** 40n }).map(String),
  fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }).map(String),
);

/** One message: its send and outcome events, each with a chain and a block. */
const messageArb = fc.record({
  source: fc.integer({ min: 0, max: 2 }),
  dest: fc.integer({ min: 0, max: 2 }),
  /** 0 = a scheme id no bridge uses. */
  unknownDest: fc.boolean(),
  sender: fc.integer({ min: 0, max: 2 }),
  recipient: fc.integer({ min: 0, max: 2 }),
  tokens: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
  amounts: fc.array(units, { minLength: 7, maxLength: 7 }),
  outcomes: fc.array(
    fc.record({
      // DeliveryRetrying: a `retrying` event (a reverted delivery that may be retried, as
      // LayerZero's LzReceiveAlert), which changes nothing; DeadlinePassed: an `expired` event
      // (the destination's indexed time passed the send's deadline, Across).
      name: fc.constantFrom(
        "TransferDelivered",
        "TransferFailed",
        "TransferRefunded",
        "DeliveryRetrying",
        "DeadlinePassed",
      ),
      /** A look-alike: at another contract on the same chain. */
      elsewhere: fc.boolean(),
      amount: units,
    }),
    { maxLength: 3 },
  ),
  /** Sent through the two-contract protocol, naming destination contract 0 or 1 of `dest`. */
  mesh: fc.constantFrom(undefined, 0, 1),
  sendBlock: fc.integer({ min: 1, max: 12 }),
  outcomeBlocks: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 3, maxLength: 3 }),
});

let serial = 0;
type Message = typeof messageArb extends fc.Arbitrary<infer T> ? T : never;

function eventsOf(m: Message, id: number): BridgeEvent[] {
  const messageId = hex32(0xabc000 + id);
  const source = CHAINS[m.source]!;
  const dest = CHAINS[m.dest]!;
  const base = (chainId: number, block: number, address: Address) => ({
    chainId,
    blockNumber: block,
    blockHash: hex32(chainId * 1000 + block),
    blockTime: 1_700_000_000 + block * 12 + (chainId % 10),
    txHash: hex32(0x7000000 + ++serial),
    logIndex: serial % 5,
    address,
    protocol: m.mesh === undefined ? "reference" : MESH,
    kind: 1 as const,
    messageId,
  });
  // The mesh: the send names a destination contract; a look-alike sits at the other one.
  const meshDest = m.mesh === undefined ? undefined : MESH_CONTRACTS[m.dest]![m.mesh]!;
  const bridgeOf = (chainId: number, elsewhere: boolean): Address => {
    if (m.mesh === undefined) return elsewhere ? OTHER_CONTRACT : BRIDGES[chainId]!;
    const i = CHAINS.indexOf(chainId);
    if (chainId === source && chainId !== dest) return MESH_CONTRACTS[i]![elsewhere ? 1 : 0]!;
    return MESH_CONTRACTS[i]![elsewhere ? 1 - m.mesh : m.mesh]!;
  };
  const [a0, a1, a2, a3, a4, a5, a6] = m.amounts as [string, ...string[]];
  const token = (i: number) => TOKEN_ADDRESSES[m.tokens[i]!]!;
  const events: BridgeEvent[] = [
    {
      ...base(
        source,
        m.sendBlock,
        m.mesh === undefined ? BRIDGES[source]! : MESH_CONTRACTS[m.source]![0],
      ),
      name: "TransferSent",
      role: "sent",
      args: {
        messageId,
        sender: USERS[m.sender]!,
        recipient: USERS[m.recipient]!,
        destChainId: m.unknownDest ? "999" : String((m.mesh === undefined ? 101 : 201) + m.dest),
        ...(meshDest === undefined ? {} : { destContract: meshDest }),
        sourceToken: token(0),
        sendAmount: a0,
        sourceBridgeToken: token(1),
        bridgeAmount: a1!,
        destBridgeToken: token(2),
        destBridgeAmount: a2!,
        destToken: token(3),
        minReceiveAmount: a3!,
        bridgeFee: a4!,
        xprotoFee: a5!,
        subsidy: a6!,
      },
    },
  ];
  m.outcomes.forEach((o, i) => {
    const chainId = o.name === "TransferRefunded" ? source : dest;
    const address = bridgeOf(chainId, o.elsewhere);
    const args: Record<string, string> =
      o.name === "TransferDelivered"
        ? { messageId, recipient: USERS[m.recipient]!, receiveAmount: o.amount }
        : o.name === "TransferFailed" || o.name === "DeliveryRetrying"
          ? { messageId, recipient: USERS[m.recipient]!, reason: "no liquidity" }
          : o.name === "DeadlinePassed"
            ? { deadline: "1700000000" }
            : { messageId, sender: USERS[m.sender]!, refundAmount: o.amount };
    const role = (
      {
        TransferDelivered: "delivered",
        TransferFailed: "failed",
        TransferRefunded: "refunded",
        DeliveryRetrying: "retrying",
        DeadlinePassed: "expired",
      } as const
    )[o.name];
    events.push({ ...base(chainId, m.outcomeBlocks[i]!, address), name: o.name, role, args });
  });
  return events;
}

/** A step: index a chain up to a block, or roll a chain back and index other events there. */
const stepArb = fc.record({
  chain: fc.integer({ min: 0, max: 2 }),
  upTo: fc.integer({ min: 0, max: 12 }),
  /** One step in six rolls the chain back to upTo. */
  reorg: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
  clockBack: fc.boolean(),
});

const scenarioArb = fc.record({
  messages: fc.array(messageArb, { minLength: 1, maxLength: 6 }),
  /** Events that replace orphaned ones after a reorganisation. */
  replacements: fc.array(messageArb, { maxLength: 3 }),
  steps: fc.array(stepArb, { minLength: 1, maxLength: 10 }),
});

async function dumpRows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  if (url.startsWith("postgres")) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }
  const db = new Database(url, { readonly: true });
  try {
    return db.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`indexer: set-based derivation equals deriveTransfer (${backend})`, () => {
    let db: IsolatedDatabase;
    let store: OpenDatabase;
    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await openDatabase(db.databaseUrl);
    });
    after(async () => {
      await store?.close();
      await db?.cleanup();
    });

    it("property: random histories, both arrival orders, reorgs", async () => {
      await fc.assert(
        fc.asyncProperty(scenarioArb, async (scenario) => {
          await clear(db.databaseUrl);
          await store.transaction((tx) => tx.indexer.saveTokenMetadata(TOKENS));
          let pending = scenario.messages.flatMap((m, i) => eventsOf(m, i));
          const replacements = scenario.replacements.flatMap((m, i) =>
            eventsOf(m, i % Math.max(1, scenario.messages.length)),
          );
          const stored: BridgeEvent[] = [];
          const model = new Map<string, BridgeTransaction>();
          let clock = 100_000;
          const cursor = new Map<number, number>(CHAINS.map((c) => [c, 0]));
          const derive = (ids: string[], now: string) => {
            for (const id of new Set(ids.map((x) => x.toLowerCase()))) {
              const existing = model.get(id);
              const record = deriveTransfer(
                stored.filter((e) => e.messageId === id),
                context,
                existing,
                now,
              );
              if (record === undefined) model.delete(id);
              else model.set(id, record);
            }
          };
          for (const step of scenario.steps) {
            clock += step.clockBack ? -7 : 5;
            const now = new Date(clock * 1000).toISOString().slice(0, 19).replace("T", " ");
            const chainId = CHAINS[step.chain]!;
            if (step.reorg) {
              // Orphan the chain's blocks above upTo; other events take their place later.
              const orphaned = stored.filter(
                (e) => e.chainId === chainId && e.blockNumber > step.upTo,
              );
              for (const e of orphaned) stored.splice(stored.indexOf(e), 1);
              const ids = await store.transaction(async (tx) => {
                const gone = await tx.indexer.deleteEventsAbove(chainId, step.upTo);
                await tx.transferDerivation.derive(gone, registry.source, now);
                return gone;
              });
              assert.deepEqual(
                [...new Set(ids)].sort(),
                [...new Set(orphaned.map((e) => e.messageId))].sort(),
              );
              derive(ids, now);
              cursor.set(chainId, Math.min(cursor.get(chainId)!, step.upTo));
              pending = [...pending, ...replacements.filter((e) => e.chainId === chainId)];
            } else {
              const from = cursor.get(chainId)!;
              const batch = pending.filter(
                (e) => e.chainId === chainId && e.blockNumber > from && e.blockNumber <= step.upTo,
              );
              pending = pending.filter((e) => !batch.includes(e));
              stored.push(...batch);
              await store.transaction(async (tx) => {
                await tx.indexer.insertEvents(batch);
                await tx.transferDerivation.derive(
                  batch.map((e) => e.messageId),
                  registry.source,
                  now,
                );
              });
              derive(
                batch.map((e) => e.messageId),
                now,
              );
              cursor.set(chainId, Math.max(from, step.upTo));
            }
            await check(db.databaseUrl, model);
          }
        }),
        { numRuns: backend === "sqlite" ? 60 : 25, seed: 24 },
      );
    });
  });
}

async function clear(url: string): Promise<void> {
  const sql = [
    "DELETE FROM address_transfers",
    "DELETE FROM address_stats",
    "DELETE FROM transfers",
    "DELETE FROM raw_events",
    "DELETE FROM token_metadata",
  ];
  if (url.startsWith("postgres")) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const s of sql) await client.query(s);
    } finally {
      await client.end();
    }
    return;
  }
  const db = new Database(url);
  try {
    for (const s of sql) db.prepare(s).run();
  } finally {
    db.close();
  }
}

/** The database holds exactly the model's records, with address lists that match them. */
async function check(url: string, model: Map<string, BridgeTransaction>): Promise<void> {
  const rows = await dumpRows(
    url,
    `SELECT id, ${TRANSFER_FIELDS.join(", ")} FROM transfer_records ORDER BY message_id`,
  );
  const actual = rows.map(({ id: _id, ...r }) => r);
  const expected = [...model.values()].sort((a, b) => (a.message_id < b.message_id ? -1 : 1));
  assert.deepEqual(
    actual.map((r) => normalise(r)),
    expected.map((r) => normalise(r as unknown as Record<string, unknown>)),
  );
  const ids = new Map(rows.map((r) => [String(r.message_id), Number(r.id)]));
  const lists = await dumpRows(
    url,
    "SELECT s.address_key, s.total, s.last_created_at, s.last_id, a.transfer_id, a.seq, a.created_at," +
      " a.updated_at, a.start_time, a.end_time, a.send_amount_key, a.receive_amount_key" +
      " FROM address_stats s LEFT JOIN address_transfers a ON a.address_id = s.address_id" +
      " ORDER BY s.address_key, a.seq",
  );
  const byKey = new Map<string, Record<string, unknown>[]>();
  for (const r of lists) {
    const key = String(r.address_key);
    byKey.set(key, [...(byKey.get(key) ?? []), ...(r.transfer_id === null ? [] : [r])]);
  }
  const expectedLists = new Map<string, { id: number; record: BridgeTransaction }[]>();
  for (const record of model.values()) {
    for (const key of new Set([
      record.from_address.toLowerCase(),
      record.to_address.toLowerCase(),
    ])) {
      expectedLists.set(key, [
        ...(expectedLists.get(key) ?? []),
        { id: ids.get(record.message_id)!, record },
      ]);
    }
  }
  for (const [key, list] of byKey) {
    const want = (expectedLists.get(key) ?? []).sort((a, b) =>
      a.record.created_at !== b.record.created_at
        ? a.record.created_at < b.record.created_at
          ? -1
          : 1
        : a.id - b.id,
    );
    assert.deepEqual(
      list.map((r) => ({
        id: Number(r.transfer_id),
        seq: Number(r.seq),
        created: r.created_at,
        updated: r.updated_at,
        start: r.start_time,
        end: r.end_time,
        send: r.send_amount_key,
        receive: r.receive_amount_key,
      })),
      want.map((w, i) => ({
        id: w.id,
        seq: i + 1,
        created: w.record.created_at,
        updated: w.record.updated_at,
        start: w.record.start_time,
        end: w.record.end_time,
        send: amountSortKey(w.record.send_amount),
        receive: amountSortKey(w.record.receive_amount),
      })),
      `address list of ${key}`,
    );
    const stats = lists.find((r) => r.address_key === key)!;
    const last = want.at(-1);
    assert.deepEqual(
      {
        total: Number(stats.total),
        lastCreated: stats.last_created_at,
        lastId: Number(stats.last_id),
      },
      { total: want.length, lastCreated: last?.record.created_at ?? "", lastId: last?.id ?? 0 },
      `stats of ${key}`,
    );
  }
  for (const key of expectedLists.keys()) assert.ok(byKey.has(key), `no stats row for ${key}`);
}

function normalise(r: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, String(v)]));
}
