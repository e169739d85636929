/**
 * Re-derives the records of the given message ids from the stored raw events, inside the
 * caller's transaction: new or changed records are upserted, records whose send is gone are
 * deleted, unchanged ones are not touched (so a replay changes nothing, not even updated_at).
 */
import type { BridgeEvent } from "../store/bridge-event.js";
import { type DeriveContext, deriveTransfer } from "./derive-transfer.js";
import type { IndexerTransaction } from "./indexer-store.js";

export interface RederiveResult {
  upserted: number;
  deleted: number;
}

/**
 * A batch whose events were just inserted in the same transaction: its chain and block range
 * and the events themselves. Invariant (the cursor moves only in committed batches and a
 * rollback deletes everything above the ancestor): before the batch, no event of this chain
 * in the range was stored, so the stored events outside the range plus these are all of them.
 */
export interface FreshBatch {
  chainId: number;
  fromBlock: number;
  toBlock: number;
  events: readonly BridgeEvent[];
}

export async function rederiveTransfers(
  tx: IndexerTransaction,
  messageIds: readonly string[],
  context: DeriveContext,
  now: string,
  batch?: FreshBatch,
): Promise<RederiveResult> {
  const ids = [...new Set(messageIds.map((id) => id.toLowerCase()))].sort();
  if (ids.length === 0) return { upserted: 0, deleted: 0 };
  const events =
    batch === undefined
      ? await tx.indexer.eventsOfMessages(ids)
      : [
          ...(await tx.indexer.eventsOfMessages(ids, {
            chainId: batch.chainId,
            fromBlock: batch.fromBlock,
            toBlock: batch.toBlock,
          })),
          ...batch.events,
        ];
  const stored = await tx.indexer.getStoredTransfers(ids);
  const byId = new Map<string, BridgeEvent[]>();
  for (const e of events) {
    const list = byId.get(e.messageId);
    if (list === undefined) byId.set(e.messageId, [e]);
    else list.push(e);
  }
  const upserts = [];
  const deletes: string[] = [];
  for (const id of ids) {
    const existing = stored.get(id)?.record;
    const record = deriveTransfer(byId.get(id) ?? [], context, existing, now);
    if (record === undefined) {
      if (existing !== undefined) deletes.push(id);
    } else if (record !== existing) {
      upserts.push(record);
    }
  }
  if (upserts.length > 0) await tx.transferWrites.upsertTransfers(upserts, stored);
  if (deletes.length > 0) await tx.transferWrites.deleteTransfers(deletes);
  return { upserted: upserts.length, deleted: deletes.length };
}
