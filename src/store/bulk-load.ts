/**
 * A bulk write of records (`import`) as one transaction, building the address lists' sort
 * indexes after it when it starts on empty lists (address-list-indexes.ts; docs/store.md,
 * "Bulk load"). What readers see is what they see of any import: nothing until the commit,
 * then the records with every index.
 */
import type { Database, DatabaseTransaction } from "./database-types.js";

export interface BulkLoadOutcome<T> {
  result: T;
  /** Whether the sort indexes were dropped for the load and built after it. */
  deferredIndexes: boolean;
}

export async function bulkLoad<T>(
  store: Database,
  work: (tx: DatabaseTransaction) => Promise<T>,
  /** false: keep every index during the load (the benchmark's A/B). Default true. */
  deferIndexes = true,
): Promise<BulkLoadOutcome<T>> {
  if (!deferIndexes) {
    return { result: await store.transaction(work), deferredIndexes: false };
  }
  if (store.kind === "sqlite") {
    // One transaction: a killed load rolls the drop back with the rows.
    return store.transaction(async (tx) => {
      const deferredIndexes = await tx.listIndexes.deferIfEmpty();
      const result = await work(tx);
      await tx.listIndexes.createMissing();
      return { result, deferredIndexes };
    });
  }
  // PostgreSQL: the drop commits on its own (DROP INDEX holds ACCESS EXCLUSIVE to the end of
  // its transaction: list reads would wait for the whole load).
  const deferredIndexes = await store.transaction((tx) => tx.listIndexes.deferIfEmpty());
  try {
    return await store.transaction(async (tx) => {
      await tx.listIndexes.holdBulkLoadLock();
      const result = await work(tx);
      await tx.listIndexes.createMissing();
      return { result, deferredIndexes };
    });
  } catch (error) {
    // The load rolled back: the lists are empty again, and building on them is cheap. If this
    // fails too, the next open does it (migratePostgres).
    if (deferredIndexes) {
      await store.transaction((tx) => tx.listIndexes.createMissing()).catch(() => undefined);
    }
    throw error;
  }
}
