/**
 * Keeps the database consistent with the devnet `start` runs on. The indexer's rows name chains
 * by chain id only, and a fresh devnet reuses the same chain ids and contract addresses with
 * different blocks; indexing it on top of the old rows would mix two histories. So:
 * - chains restored from their saved state: the rows stay (true resumption). When the database
 *   is ahead of the restored chains (the last stop was not clean, the chain state is from its
 *   last periodic dump), the indexer's reorg handling rolls back to the common block; this only
 *   says so.
 * - a fresh devnet while the database holds rows of its chains: the indexed data is deleted
 *   (transfers and indexer tables; API keys stay), provided the database holds nothing but
 *   devnet data. Otherwise start refuses: other data is never deleted.
 */
import type { DevnetManifest } from "../devnet/manifest.js";
import type { Database } from "../store/database.js";

export class DevnetDataError extends Error {}

export interface ReconcileOptions {
  database: Pick<Database, "indexerStatus" | "transaction">;
  /** Named in messages. */
  databaseUrl: string;
  manifest: DevnetManifest;
  restored: boolean;
  log(message: string): void;
  /** Block hash at a height on a chain; undefined when the chain has no such block. */
  blockHash(rpcUrl: string, blockNumber: number): Promise<string | undefined>;
}

/** What was done: "kept", "reset" (rows deleted) or "empty" (nothing indexed yet). */
export async function reconcileDevnetData(
  options: ReconcileOptions,
): Promise<"kept" | "reset" | "empty"> {
  const chains = await options.database.indexerStatus.getIndexerStatus();
  const devnetIds = new Set(options.manifest.chains.map((chain) => chain.chainId));
  const indexed = chains.filter((row) => devnetIds.has(row.chainId));
  if (indexed.length === 0) return "empty";

  if (options.restored) {
    for (const row of indexed) {
      if (row.cursorHash === "") continue;
      const chain = options.manifest.chains.find((c) => c.chainId === row.chainId);
      if (chain === undefined) continue;
      const hash = await options.blockHash(chain.rpcUrl, row.cursorBlock).catch(() => undefined);
      if (hash !== row.cursorHash) {
        options.log(
          `chain ${chain.name}: the database indexed up to block ${row.cursorBlock}, which the ` +
            "restored chain does not have as stored (the last stop was not clean); the indexer " +
            "rolls back to the last common block",
        );
      }
    }
    return "kept";
  }

  const others = chains.filter((row) => !devnetIds.has(row.chainId));
  if (others.length > 0) {
    throw new DevnetDataError(
      `the database ${options.databaseUrl} also holds chains ${others.map((c) => c.name).join(", ")}; ` +
        "start will not delete them to index a fresh devnet: use another DATABASE_URL",
    );
  }
  const names = options.manifest.chains.map((chain) => chain.name);
  await deleteDerivedData(options.database, options.databaseUrl, names);
  options.log(
    "the saved devnet could not be resumed, so the data indexed from it was deleted from the " +
      "database (API keys kept)",
  );
  return "reset";
}

/** Deletes every derived row in one transaction, after checking no transfer is foreign. */
async function deleteDerivedData(
  database: ReconcileOptions["database"],
  databaseUrl: string,
  chainNames: readonly string[],
): Promise<void> {
  await database.transaction(async (tx) => {
    const n = await tx.indexedData.countTransfersOutside(chainNames);
    if (n > 0) {
      throw new DevnetDataError(
        `the database ${databaseUrl} holds ${n} transfer(s) not from the devnet (imported?); ` +
          "start will not delete them to index a fresh devnet: use another DATABASE_URL",
      );
    }
    await tx.indexedData.deleteIndexedData();
  });
}
