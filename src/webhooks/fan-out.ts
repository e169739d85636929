/**
 * Fan-out: turns new change-log rows into one delivery per matching active subscription
 * (docs/webhooks.md, "Delivery"). One transaction reads the changes after the cursor, inserts
 * their deliveries and moves the cursor past them, so a crash anywhere leaves either all of it
 * or none: every change is fanned out at least once, and the UNIQUE (subscription, change) of
 * webhook_deliveries makes a repeat harmless.
 *
 * On PostgreSQL the cursor row is locked `FOR UPDATE SKIP LOCKED`: while one delivery process
 * fans out, the others skip the step and go on sending. The change log's seq order is its commit
 * order (migration 0007), so nothing can later appear behind the cursor.
 */

import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import type { SqlExecutor } from "../store/backend.js";
import { createTransferChangeRepository } from "../store/transfer-change-repository.js";
import type { NewDelivery, WebhookRepository } from "../store/webhook-repository.js";
import { filterMatches } from "./subscription-filter.js";
import { eventBody, eventIdOf, eventTypeOf, type LoggedChange } from "./webhook-event.js";

/** Reads up to `limit` changes with seq > `afterSeq`, in seq order, on `sql`. */
export type ChangeReader = (
  sql: SqlExecutor,
  afterSeq: number,
  limit: number,
) => Promise<LoggedChange[]>;

/** The change log over the fan-out's own transaction (it only reads here). */
function changeLog(sql: SqlExecutor) {
  return createTransferChangeRepository({ sql, atomically: (work) => work(sql) });
}

/** The change log of migration 0007 (transfer_changes). */
export const readChangeLog: ChangeReader = async (sql, afterSeq, limit) =>
  (await changeLog(sql).changesSince(afterSeq, { limit })).changes.map((change) => ({
    seq: change.seq,
    messageId: change.messageId,
    changeType: change.type,
    recordJson: change.recordJson,
    changedAt: change.changedAt,
  }));

export interface FanOutResult {
  /** Changes the cursor moved past. */
  readonly changes: number;
  readonly deliveries: number;
  /** False when another process held the cursor (PostgreSQL). */
  readonly ran: boolean;
  /** More changes may be waiting (the batch was full). */
  readonly more: boolean;
}

export async function fanOutOnce(
  webhooks: WebhookRepository,
  sql: SqlExecutor,
  options: { now: number; batchSize: number; readChanges?: ChangeReader },
): Promise<FanOutResult> {
  const cursor = await webhooks.lockFanOutCursor();
  if (cursor === undefined) return { changes: 0, deliveries: 0, ran: false, more: false };
  const subscriptions = await webhooks.activeSubscriptions();
  if (subscriptions.length === 0) {
    // Nothing to deliver to: skip the log to its end rather than reading it row by row. A
    // subscription created later starts at the cursor (createSubscription), after these.
    const last = await changeLog(sql).latestSeq();
    if (last > cursor) await webhooks.setFanOutCursor(last);
    return { changes: Math.max(0, last - cursor), deliveries: 0, ran: true, more: false };
  }
  const changes = await (options.readChanges ?? readChangeLog)(sql, cursor, options.batchSize);
  if (changes.length === 0) return { changes: 0, deliveries: 0, ran: true, more: false };
  const deliveries: NewDelivery[] = [];
  for (const change of changes) {
    const record = JSON.parse(change.recordJson) as BridgeTransaction;
    let body: string | undefined;
    for (const subscription of subscriptions) {
      if (change.seq <= subscription.startSeq) continue;
      if (!filterMatches(subscription.filter, record)) continue;
      body ??= eventBody(change);
      deliveries.push({
        subscriptionId: subscription.id,
        changeSeq: change.seq,
        eventId: eventIdOf(change.seq),
        eventType: eventTypeOf(change.changeType),
        messageId: change.messageId,
        body,
      });
    }
  }
  const inserted = await webhooks.insertDeliveries(deliveries, options.now);
  await webhooks.setFanOutCursor((changes[changes.length - 1] as LoggedChange).seq);
  return {
    changes: changes.length,
    deliveries: inserted,
    ran: true,
    more: changes.length === options.batchSize,
  };
}
