/**
 * Everything the indexer derived from its chains, as one unit: what `start` deletes when a fresh
 * devnet replaces the one the database was indexed from (src/start/devnet-data.ts). API keys
 * are not derived and stay.
 */
import type { SqlExecutor } from "./backend.js";

/** Children before parents; every row of them comes from the indexed chains. */
const DERIVED_TABLES = [
  "indexer_pending",
  "address_transfers",
  "address_stats",
  "transfers",
  "raw_events",
  "indexer_blocks",
  "token_metadata",
  "indexer_chains",
] as const;

export interface IndexedDataRepository {
  /** Transfers whose source chain is none of `chainNames` (imported, or another network's). */
  countTransfersOutside(chainNames: readonly string[]): Promise<number>;
  /** Deletes every derived row; run it in a transaction so that none or all go. */
  deleteIndexedData(): Promise<void>;
}

export function createIndexedDataRepository(sql: SqlExecutor): IndexedDataRepository {
  return {
    async countTransfersOutside(chainNames) {
      const placeholders = chainNames.map(() => "?").join(", ");
      const rows = await sql.all<{ n: number | string }>(
        `SELECT count(*) AS n FROM transfer_records WHERE source_chain_name NOT IN (${placeholders})`,
        chainNames,
      );
      return Number(rows[0]?.n ?? 0);
    },
    async deleteIndexedData() {
      for (const table of DERIVED_TABLES) await sql.run(`DELETE FROM ${table}`);
    },
  };
}
