/**
 * Shared pieces of the indexer suites: an indexer over a devnet manifest on an isolated
 * database, "index until every chain is idle", and a canonical dump of the database for
 * row-by-row comparison with a clean index.
 */
import Database from "better-sqlite3";
import pg from "pg";
import { type IndexerConfig, parseIndexerConfig } from "../../src/config/indexer-config.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";
import { TRANSFER_FIELDS } from "../../src/domain/bridge-transaction.js";
import type { ChainIndexer, IndexerLogger } from "../../src/indexer/chain-indexer.js";
import { createIndexer, type Indexer } from "../../src/indexer/create-indexer.js";
import { type Database as OpenDatabase, openDatabase } from "../../src/store/index.js";
import { connectChain } from "../setup/anvil.js";
import {
  type DatabaseBackend,
  type IsolatedDatabase,
  setupIsolatedDatabase,
} from "../setup/database.js";

export const quietLogger: IndexerLogger & { lines: string[] } = {
  lines: [],
  info(m) {
    this.lines.push(`info ${m}`);
  },
  warn(m) {
    this.lines.push(`warn ${m}`);
  },
  error(m) {
    this.lines.push(`error ${m}`);
  },
};

export function memoryLogger(): IndexerLogger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}

export function configOf(
  manifest: DevnetManifest,
  overrides: {
    finalityDepth?: number;
    maxBlockRange?: number;
    rpcUrls?: Record<number, string>;
  } = {},
): IndexerConfig {
  return parseIndexerConfig({
    chains: manifest.chains.map((c) => ({
      ...c,
      rpcUrl: overrides.rpcUrls?.[c.chainId] ?? c.rpcUrl,
      finalityDepth: overrides.finalityDepth ?? 64,
    })),
    // Other protocols' contracts (LayerZero's endpoints and OFTs) as the manifest lists them.
    ...(manifest.contracts === undefined ? {} : { contracts: manifest.contracts }),
    indexer: {
      pollIntervalMs: 20,
      maxBlockRange: overrides.maxBlockRange ?? 2000,
      rpcTimeoutMs: 2000,
    },
  });
}

export interface TestIndexer {
  indexer: Indexer;
  store: OpenDatabase;
  logger: IndexerLogger & { lines: string[] };
}

export async function openTestIndexer(
  databaseUrl: string,
  config: IndexerConfig,
): Promise<TestIndexer> {
  const store = await openDatabase(databaseUrl);
  const logger = memoryLogger();
  return { indexer: createIndexer({ config, store, logger }), store, logger };
}

/**
 * A test indexer on a new isolated database; what closes the indexer's store and drops the
 * database goes into `cleanups`.
 */
export async function openIsolatedIndexer(
  backend: DatabaseBackend,
  config: IndexerConfig,
  cleanups: (() => Promise<void>)[],
): Promise<{ ix: TestIndexer; db: IsolatedDatabase }> {
  const db = await setupIsolatedDatabase(backend);
  const ix = await openTestIndexer(db.databaseUrl, config);
  cleanups.push(async () => {
    await ix.store.close();
    await db.cleanup();
  });
  return { ix, db };
}

/**
 * The dump (dumpDatabase) of a clean index of the manifest's chains as they are now: what a
 * database that lived through crashes, faults or reorgs must equal. Its database is dropped after.
 */
export async function dumpCleanIndex(
  manifest: DevnetManifest,
  backend: DatabaseBackend,
): Promise<Record<string, unknown[]>> {
  const clean = await setupIsolatedDatabase(backend);
  try {
    const fresh = await openTestIndexer(clean.databaseUrl, configOf(manifest));
    try {
      await indexUntilIdle(fresh.indexer.chains);
    } finally {
      await fresh.store.close();
    }
    return await dumpDatabase(clean.databaseUrl);
  } finally {
    await clean.cleanup();
  }
}

/** Whether a chain's stored cursor is below its block in `heads`: the index was not caught up. */
export async function storedCursorsBelow(
  databaseUrl: string,
  heads: readonly number[],
): Promise<boolean> {
  return (await readCursors(databaseUrl)).some((c, n) => c.cursorBlock < heads[n]!);
}

/** Every chain's current head block, in manifest order. */
export async function chainHeads(manifest: DevnetManifest): Promise<number[]> {
  return Promise.all(
    manifest.chains.map(async (c) =>
      Number(await connectChain(manifest, c.name).client.getBlockNumber()),
    ),
  );
}

/**
 * Waits until a running indexer's cursors reach `heads`; fails after `ms` with its status and
 * `details()` (e.g. its log).
 */
export async function waitUntilCaughtUp(
  indexer: Indexer,
  heads: readonly number[],
  ms: number,
  details: () => string = () => "",
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!indexer.status().every((s, i) => s.cursorBlock >= heads[i]!)) {
    if (Date.now() >= deadline) {
      throw new Error(`not caught up: ${JSON.stringify(indexer.status())}\n${details()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Steps every chain until all are idle in the same round (caught up with their heads). */
export async function indexUntilIdle(chains: readonly ChainIndexer[], maxSteps = 500) {
  for (let i = 0; i < maxSteps; i++) {
    const outcomes = [];
    for (const c of chains) outcomes.push(await c.step());
    if (outcomes.every((o) => o === "idle")) return;
  }
  throw new Error(`not idle after ${maxSteps} rounds`);
}

/**
 * The database's content that must equal a clean index of the canonical chains: every
 * transfer field but created_at / updated_at, the raw events, the cursors and the address
 * lists. Ordered by unique keys, so equal databases give equal dumps.
 */
export async function dumpDatabase(
  databaseUrl: string,
  options: { timestamps?: boolean } = {},
): Promise<Record<string, unknown[]>> {
  const fields = TRANSFER_FIELDS.filter(
    (f) => options.timestamps === true || (f !== "created_at" && f !== "updated_at"),
  );
  const queries = {
    transfers: `SELECT ${fields.join(", ")} FROM transfer_records ORDER BY message_id`,
    raw_events:
      "SELECT chain_id, tx_hash, log_index, block_number, block_hash, block_time, address, kind," +
      " event_name, message_id, args FROM raw_events ORDER BY chain_id, tx_hash, log_index",
    cursors: "SELECT chain_id, cursor_block, cursor_hash FROM indexer_chains ORDER BY chain_id",
    // Membership only: seq follows created_at and internal ids, which differ between runs;
    // the seq invariant itself is checked per database below.
    address_lists:
      "SELECT s.address_key, t.message_id FROM address_transfers a JOIN transfers t" +
      " ON t.id = a.transfer_id JOIN address_stats s ON s.address_id = a.address_id" +
      " ORDER BY s.address_key, t.message_id",
    address_seq:
      "SELECT s.address_key, a.seq FROM address_transfers a JOIN address_stats s" +
      " ON s.address_id = a.address_id ORDER BY s.address_key, a.created_at, a.transfer_id",
    address_stats:
      "SELECT address_key, total FROM address_stats WHERE total > 0 ORDER BY address_key",
  };
  const out: Record<string, unknown[]> = await readRows(databaseUrl, queries);
  out.address_seq = seqInvariant(out.address_seq as Record<string, string>[]);
  return out;
}

/**
 * Every chain's cursor as the indexer left it, ordered by chain id (read-only: works while
 * another process indexes); rejects before the indexer made its tables.
 */
export async function readCursors(
  databaseUrl: string,
): Promise<{ chainId: number; startBlock: number; cursorBlock: number }[]> {
  const { rows } = await readRows(databaseUrl, {
    rows: "SELECT chain_id, start_block, cursor_block FROM indexer_chains ORDER BY chain_id",
  });
  return rows!.map((r) => ({
    chainId: Number(r.chain_id),
    startBlock: Number(r.start_block),
    cursorBlock: Number(r.cursor_block),
  }));
}

/** Runs each named query on a connection of its own, rows as strings on both backends. */
async function readRows(
  databaseUrl: string,
  queries: Record<string, string>,
): Promise<Record<string, Record<string, string>[]>> {
  const out: Record<string, Record<string, string>[]> = {};
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      for (const [name, sql] of Object.entries(queries)) {
        out[name] = (await client.query(sql)).rows.map(normalise);
      }
    } finally {
      await client.end();
    }
    return out;
  }
  const db = new Database(databaseUrl, { readonly: true, fileMustExist: true });
  try {
    for (const [name, sql] of Object.entries(queries))
      out[name] = db.prepare(sql).all().map(normalise);
  } finally {
    db.close();
  }
  return out;
}

/** Per address key: true when its rows have seq 1..n in (created_at, transfer_id) order. */
function seqInvariant(rows: Record<string, string>[]): unknown[] {
  const byKey = new Map<string, number[]>();
  for (const r of rows)
    byKey.set(r.address_key!, [...(byKey.get(r.address_key!) ?? []), Number(r.seq)]);
  return [...byKey].map(([key, seqs]) => ({ key, ok: seqs.every((s, i) => s === i + 1) }));
}

/** Same representation on both backends (pg returns BIGINT as strings). */
function normalise(row: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(row as Record<string, unknown>)) out[k] = String(v);
  return out;
}
