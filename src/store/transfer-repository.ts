import type { TransferBackend } from "./backend.js";
import { createSettlementReads } from "./settlement-reads.js";
import { createTransferActivity } from "./transfer-activity.js";
import { createTransferReads } from "./transfer-reads.js";
import { createTransferWrites } from "./transfer-writes.js";
import type { TransferMaintenanceRepository } from "./types.js";

export interface TransferRepositoryDeps {
  /** Backend for reads: a pool (root store) or the transaction's connection. */
  reader: TransferBackend;
  /** Runs `work` atomically (a transaction, or a savepoint inside one). */
  atomically<T>(work: (writer: TransferBackend) => Promise<T>): Promise<T>;
}

/** The one TransferRepository implementation; the backend supplies SQL execution. */
export function createTransferRepository(
  deps: TransferRepositoryDeps,
): TransferMaintenanceRepository {
  const reads = createTransferReads(deps.reader);
  const activity = createTransferActivity(deps.reader.sql);
  return {
    async upsertTransfers(records) {
      if (records.length === 0) return { inserted: 0, updated: 0, unchanged: 0 };
      return deps.atomically((writer) => createTransferWrites(writer).upsertTransfers(records));
    },
    async deleteTransfers(messageIds) {
      if (messageIds.length === 0) return 0;
      return deps.atomically((writer) => createTransferWrites(writer).deleteTransfers(messageIds));
    },
    listTransfers: reads.listTransfers,
    getTransfer: reads.getTransfer,
    latestTransfers: activity.latestTransfers,
    transfersStartedSince: activity.transfersStartedSince,
    transferEvents: activity.transferEvents,
    recentSettlements: createSettlementReads(deps.reader).recentSettlements,
  };
}
