/**
 * The protocol seam is real: a second protocol (test/protocols/toy/, two events and a pairing key
 * from (source domain, nonce)) registered beside the reference one in a test registry of
 * protocols is indexed, paired and listed with nothing changed outside its folder. The chains are
 * in memory (a ChainClient serving blocks and logs), the stores real (SQLite and PostgreSQL), the
 * list endpoint the API's.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  encodeAbiParameters,
  encodeEventTopics,
  getAddress,
  type Hex,
  keccak256,
  toHex,
  zeroAddress,
} from "viem";
import type { BlockHeader, ChainClient, RawLog } from "../../src/chain/create-chain-client.js";
import type { IndexerConfig } from "../../src/config/indexer-config.js";
import { createIndexer, type Indexer } from "../../src/indexer/create-indexer.js";
import { createProtocolRegistry } from "../../src/protocols/index.js";
import { referenceProtocol } from "../../src/protocols/reference/index.js";
import { type Database, openDatabase } from "../../src/store/index.js";
import { buildTestApp } from "../api/setup.js";
import { indexUntilIdle, memoryLogger } from "../indexer/helpers.js";
import { type IsolatedDatabase, setupIsolatedDatabase } from "../setup/database.js";
import { TOY_ABI, TOY_PROTOCOL, toyPairingKey, toyProtocol } from "./toy/index.js";

const ALPHA = 71001;
const BETA = 71002;
const TOY_ALPHA = getAddress("0x70e0000000000000000000000000000000000a01");
const TOY_BETA = getAddress("0x70e0000000000000000000000000000000000b02");
/** Read for its logs only (as LayerZero's endpoint beside an OFT): never a destination. */
const TOY_BETA_AUX = getAddress("0x70e00000000000000000000000000000000a0b02");
const USDC_ALPHA = getAddress("0x05dc000000000000000000000000000000000a01");
const USDC_BETA = getAddress("0x05dc000000000000000000000000000000000b02");
const SENDER = getAddress("0x5e0d000000000000000000000000000000000001");
const RECIPIENT = getAddress("0x4ec1000000000000000000000000000000000002");
const NONCE = 42n;
const T0 = 1_800_000_000;

/** An in-memory chain: `length` blocks 12 s apart, and the logs it holds. */
function fakeChain(chainId: number, length: number, logs: Omit<RawLog, "blockHash">[]) {
  const blocks: BlockHeader[] = [];
  for (let n = 0; n < length; n++) {
    blocks.push({
      number: n,
      hash: keccak256(toHex(`${chainId}:${n}`)),
      parentHash: n === 0 ? `0x${"0".repeat(64)}` : blocks[n - 1]!.hash,
      timestamp: T0 + chainId - ALPHA + 12 * n,
    });
  }
  const stored: RawLog[] = logs.map((l) => ({ ...l, blockHash: blocks[l.blockNumber]!.hash }));
  const client: ChainClient = {
    chainId,
    safeUrl: `memory://${chainId}`,
    getChainId: async () => chainId,
    getBlockNumber: async () => length - 1,
    getBlockHeader: async (n) => blocks[n],
    getLogs: async (filter) =>
      stored.filter(
        (l) =>
          l.blockNumber >= filter.fromBlock &&
          l.blockNumber <= filter.toBlock &&
          filter.addresses.some((a) => a.toLowerCase() === l.address.toLowerCase()) &&
          filter.topics.some((t) => t.toLowerCase() === l.topics[0]?.toLowerCase()),
      ),
    readTokenMetadata: async (token) => {
      if (token.toLowerCase() === USDC_ALPHA.toLowerCase()) return { symbol: "USDC", decimals: 6 };
      if (token.toLowerCase() === USDC_BETA.toLowerCase()) return { symbol: "USDC.b", decimals: 6 };
      throw new Error(`no token ${token} on chain ${chainId}`);
    },
    // The toy protocol carries its fee in an event (no valueTopics): never asked.
    getTransactionValue: async (hash) => {
      throw new Error(`unexpected transaction value of ${hash}`);
    },
  };
  return { client, blocks };
}

function log(
  address: Hex,
  blockNumber: number,
  eventName: "Departed" | "Arrived",
  args: Record<string, unknown>,
): Omit<RawLog, "blockHash"> {
  const event = TOY_ABI.find((e) => e.name === eventName)!;
  const inputs = event.inputs as readonly { name: string; type: string; indexed?: boolean }[];
  const indexed = inputs.filter((i) => i.indexed === true);
  const data = inputs.filter((i) => i.indexed !== true);
  return {
    address,
    topics: encodeEventTopics({
      abi: [event],
      eventName,
      args: Object.fromEntries(indexed.map((i) => [i.name, args[i.name!]])),
    } as never) as Hex[],
    data: encodeAbiParameters(
      data,
      data.map((i) => args[i.name!]),
    ),
    blockNumber,
    transactionHash: keccak256(toHex(`${eventName}:${address}:${blockNumber}`)),
    logIndex: 0,
  };
}

const alpha = fakeChain(ALPHA, 6, [
  log(TOY_ALPHA, 2, "Departed", {
    nonce: NONCE,
    sender: SENDER,
    recipient: RECIPIENT,
    destDomain: 8,
    token: USDC_ALPHA,
    destToken: USDC_BETA,
    amount: 25_500_000n,
    fee: 1_000_000_000_000_000n,
  }),
]);
const beta = fakeChain(BETA, 6, [
  log(TOY_BETA, 4, "Arrived", {
    sourceDomain: 7,
    nonce: NONCE,
    recipient: RECIPIENT,
    token: USDC_BETA,
    amount: 25_500_000n,
  }),
]);

const chain = (name: string, chainId: number) => ({
  name,
  chainId,
  nativeSymbol: "ETH",
  rpcUrl: `memory://${chainId}`,
  startBlock: 0,
  confirmations: 0,
  finalityDepth: 64,
});

const CONFIG: IndexerConfig = {
  chains: [chain("alpha", ALPHA), chain("beta", BETA)],
  // The toy protocol names chains by domains 7 and 8; nothing else is registered.
  bridges: [
    { protocol: TOY_PROTOCOL, kind: 2, chainId: ALPHA, address: TOY_ALPHA, bridgeChainId: "7" },
    {
      protocol: TOY_PROTOCOL,
      kind: 2,
      chainId: BETA,
      address: TOY_BETA_AUX,
      bridgeChainId: "8",
      auxiliary: true,
    },
    { protocol: TOY_PROTOCOL, kind: 2, chainId: BETA, address: TOY_BETA, bridgeChainId: "8" },
  ],
  pollIntervalMs: 20,
  maxBlockRange: 100,
  rpcTimeoutMs: 1000,
};

const KEY = toyPairingKey(7, NONCE);

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`a second protocol through the seam (${backend})`, () => {
    let db: IsolatedDatabase;
    let store: Database;
    let indexer: Indexer;

    before(async () => {
      db = await setupIsolatedDatabase(backend);
      store = await openDatabase(db.databaseUrl);
      indexer = createIndexer({
        config: CONFIG,
        store,
        logger: memoryLogger(),
        clients: new Map([
          [ALPHA, alpha.client],
          [BETA, beta.client],
        ]),
        protocols: createProtocolRegistry([referenceProtocol, toyProtocol]),
      });
    });
    after(async () => {
      await store?.close();
      await db?.cleanup();
    });

    it("default: its send is a Processing record keyed by its pairing key, its fee in the native coin", async () => {
      await indexUntilIdle([indexer.chains[0]!]);
      const record = await store.transfers.getTransfer(KEY);
      assert.ok(record !== undefined, "the send made a record");
      const { created_at: _c, updated_at: _u, ...fields } = record;
      assert.deepEqual(fields, {
        message_id: KEY,
        source_contract: TOY_ALPHA,
        dest_contract: TOY_BETA,
        source_tx_hash: keccak256(toHex(`Departed:${TOY_ALPHA}:2`)),
        dest_tx_hash: "",
        from_address: SENDER,
        to_address: RECIPIENT,
        send_amount: "25.5",
        min_receive_amount: "25.5",
        receive_amount: "",
        source_chain_name: "alpha",
        dest_chain_name: "beta",
        source_token_address: USDC_ALPHA,
        source_token_decimals: 6,
        source_token_symbol: "USDC",
        dest_token_address: USDC_BETA,
        dest_token_decimals: 6,
        dest_token_symbol: "USDC.b",
        dest_bridge_token: USDC_BETA,
        dest_bridge_token_decimals: 6,
        dest_bridge_token_amount: "25.5",
        fee_address: USDC_ALPHA,
        fee_decimals: 6,
        fee_symbol: "USDC",
        xproto_fee: "0.001",
        bridge_fee: "0",
        status: "Processing",
        subsidy_amount: "0",
        start_time: "2027-01-15 08:00:24",
        end_time: "",
        protocol: TOY_PROTOCOL,
        xproto_fee_address: zeroAddress,
        xproto_fee_decimals: 18,
        xproto_fee_symbol: "ETH",
      });
    });

    it("behavior: its delivery on the other chain pairs with the send by the key: Success", async () => {
      await indexUntilIdle(indexer.chains);
      const record = await store.transfers.getTransfer(KEY);
      assert.equal(record?.status, "Success");
      assert.equal(record?.receive_amount, "25.5");
      assert.equal(record?.dest_tx_hash, keccak256(toHex(`Arrived:${TOY_BETA}:4`)));
      assert.equal(record?.end_time, "2027-01-15 08:00:49");
      const events = await store.transfers.transferEvents(KEY);
      assert.deepEqual(
        events.map((e) => [e.chainId, e.eventName, e.role]),
        [
          [ALPHA, "Departed", "sent"],
          [BETA, "Arrived", "delivered"],
        ],
      );
    });

    it("behavior: the list endpoint serves its record with its protocol", async () => {
      const { app } = await buildTestApp(store, { logLevel: "warn" });
      try {
        const response = await app.inject({
          method: "GET",
          url: "/api/oracle/bridge-transactions",
          query: { addressOrTxHash: SENDER.toLowerCase(), pageNo: "1", pageSize: "10" },
        });
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        assert.equal(body.data.total, 1);
        const listed = body.data.data[0];
        assert.deepEqual(listed, await store.transfers.getTransfer(KEY));
        assert.equal(listed?.protocol, TOY_PROTOCOL);
        assert.equal(listed?.xproto_fee_symbol, "ETH");
      } finally {
        await app.close();
      }
    });
  });
}
