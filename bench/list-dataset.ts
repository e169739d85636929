/**
 * The list data set in the store under test, as `bench list` and `bench push` load it: a SQLite
 * database beside the cached JSONL (list-data.ts), or the benchmark's own schema of a PostgreSQL
 * database (list-postgres.ts).
 */
import {
  type Dataset,
  type DatasetOptions,
  ensureGeneratedData,
  ensureSqliteDataset,
} from "./list-data.js";
import { ensurePostgresDataset, type PostgresInfo } from "./list-postgres.js";

export interface StoreDatasetOptions extends DatasetOptions {
  /** PostgreSQL: the database and the benchmark's schema in it; without it, SQLite. */
  postgres: { databaseUrl: string; schema: string } | undefined;
}

/** The data set loaded (or reused); on PostgreSQL also what the schema's server is. */
export async function ensureStoreDataset(
  options: StoreDatasetOptions,
): Promise<{ dataset: Dataset; postgres?: PostgresInfo }> {
  if (options.postgres === undefined) return { dataset: await ensureSqliteDataset(options) };
  const generated = await ensureGeneratedData(options);
  const { postgres, ...dataset } = await ensurePostgresDataset({
    ...options.postgres,
    generated,
    log: options.log,
  });
  return { dataset, postgres };
}
