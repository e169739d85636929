/**
 * The index benchmark's two measurements of bare eth_getLogs calls (bench/index.ts), made with
 * `fetch` and JSON.parse, no viem and none of the indexer's code:
 *   - the ceiling: the calls alone (same chains, addresses, topics and block spans as the
 *     indexer's), what the node allows;
 *   - the raw-log floor: the same calls with each span's logs stored as they came, undecoded,
 *     keyed by (chain id, tx hash, log index) as the indexer keeps them, together with the chain's
 *     cursor in one transaction per span (the next span is requested while one is written, as
 *     the indexer does). It is the least any indexer that keeps the raw logs must
 *     do, whatever its code and read model: no decoding, block hashes, pairing, records or
 *     address lists. Table form: a rowid table with a UNIQUE key (a WITHOUT ROWID table keyed by
 *     the same columns was slower: its rows of about 900 bytes move on every page split).
 */
import type Database from "better-sqlite3";
import { BRIDGE_EVENT_TOPICS } from "../src/protocols/reference/events-abi.js";
import { openSqliteWriter } from "../src/store/index.js";
import type { GeneratedDevnet } from "./index-generate.js";

export interface BareLogsResult {
  ms: number;
  events: number;
  calls: number;
}

/** A log as eth_getLogs returns it (the fields the raw-log floor stores). */
interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
}

async function getLogs(url: string, address: string[], from: number, to: number) {
  const filter = {
    address,
    topics: [BRIDGE_EVENT_TOPICS],
    fromBlock: `0x${from.toString(16)}`,
    toBlock: `0x${to.toString(16)}`,
  };
  const request = { jsonrpc: "2.0", id: 1, method: "eth_getLogs", params: [filter] };
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  const body = (await response.json()) as { result?: RpcLog[]; error?: { message: string } };
  if (body.result === undefined) throw new Error(`eth_getLogs: ${body.error?.message}`);
  return body.result;
}

/**
 * Every chain's spans from its deploy block to its head, chains concurrently, spans in turn:
 * a span's request is sent once the previous span's response is parsed, and `store` (when
 * given) receives each span's logs while the next span's request is in flight.
 */
async function eachSpan(
  generated: GeneratedDevnet,
  heads: Map<number, number>,
  span: number,
  store?: (chainId: number, logs: RpcLog[], toBlock: number) => void,
): Promise<BareLogsResult> {
  const started = performance.now();
  let events = 0;
  let calls = 0;
  await Promise.all(
    generated.manifest.chains.map(async (chain) => {
      const address = Object.values(chain.bridges);
      const head = heads.get(chain.chainId)!;
      if (chain.deployBlock > head) return;
      const request = (from: number) =>
        getLogs(chain.rpcUrl, address, from, Math.min(head, from + span - 1));
      for (let from = chain.deployBlock, next = request(from); from <= head; from += span) {
        const logs = await next;
        // The next span is requested first, so it is in flight while this one is stored.
        if (from + span <= head) next = request(from + span);
        store?.(chain.chainId, logs, Math.min(head, from + span - 1));
        events += logs.length;
        calls++;
      }
    }),
  );
  return { ms: performance.now() - started, events, calls };
}

/** The ceiling: the indexer's eth_getLogs calls, bare. */
export function bareGetLogs(
  generated: GeneratedDevnet,
  heads: Map<number, number>,
  span: number,
): Promise<BareLogsResult> {
  return eachSpan(generated, heads, span);
}

const RAW_LOG_SCHEMA = `
CREATE TABLE raw_logs (
  chain_id INTEGER NOT NULL,
  tx_hash TEXT NOT NULL,
  log_index INTEGER NOT NULL,
  block_number INTEGER NOT NULL,
  block_hash TEXT NOT NULL,
  address TEXT NOT NULL,
  topics TEXT NOT NULL,
  data TEXT NOT NULL,
  UNIQUE (chain_id, tx_hash, log_index)
);
CREATE TABLE cursors (chain_id INTEGER PRIMARY KEY, block_number INTEGER NOT NULL);
`;

/**
 * The raw-log floor into a fresh SQLite file at `databasePath`, with the indexer's connection
 * settings (WAL, synchronous NORMAL, its page cache and checkpoint interval).
 */
export function rawLogFloor(
  generated: GeneratedDevnet,
  heads: Map<number, number>,
  span: number,
  databasePath: string,
): Promise<BareLogsResult> {
  const db = openSqliteWriter(databasePath, 10_000);
  db.exec(RAW_LOG_SCHEMA);
  const write = spanWriter(db);
  return eachSpan(generated, heads, span, write).finally(() => db.close());
}

function spanWriter(db: Database.Database) {
  const insert = db.prepare(
    "INSERT INTO raw_logs VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const cursor = db.prepare(
    "INSERT INTO cursors VALUES (?, ?) ON CONFLICT (chain_id) DO UPDATE SET block_number = excluded.block_number",
  );
  return db.transaction((chainId: number, logs: RpcLog[], toBlock: number) => {
    for (const log of logs) {
      insert.run(
        chainId,
        log.transactionHash,
        Number(log.logIndex),
        Number(log.blockNumber),
        log.blockHash,
        log.address,
        log.topics.join(","),
        log.data,
      );
    }
    cursor.run(chainId, toBlock);
  });
}
