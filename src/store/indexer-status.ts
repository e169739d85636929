/**
 * The indexer's rows (indexer_chains) as another process (`serve`) reads them; the API judges
 * them for readiness (src/api/indexer-readiness.ts).
 */
import type { SqlExecutor } from "./backend.js";
import { createIndexerRepository, type IndexerChainStatus } from "./indexer-repository.js";

/** The indexer's rows as the API reads them; the Database's `indexerStatus`. */
export interface IndexerStatusRepository {
  /** Every chain's row with its lag, by chain id; none when no indexer ever ran here. */
  getIndexerStatus(): Promise<IndexerChainStatus[]>;
}

export function createIndexerStatusRepository(
  sql: SqlExecutor,
  kind: "sqlite" | "postgres",
): IndexerStatusRepository {
  const indexer = createIndexerRepository(sql, kind);
  return { getIndexerStatus: () => indexer.getIndexerStatus() };
}
