/**
 * The JSON body of a webhook event (docs/webhooks.md, "Events"), made once per delivery by the
 * fan-out and frozen: every attempt and redelivery sends these bytes.
 *
 *   { "id": "evt_<seq>", "type": "transfer.created" | "transfer.updated" | "transfer.removed",
 *     "createdAt": "YYYY-MM-DD HH:MM:SS.mmm", "seq": <change seq>, "data": <the whole record> }
 *
 * The id names the change, so every subscription receiving one change gets the same event id,
 * and a receiver deduplicates by it. `seq` orders the states of one record: a receiver keeps
 * the highest it has seen (deliveries are not ordered).
 */

export type TransferEventType = "transfer.created" | "transfer.updated" | "transfer.removed";

const EVENT_TYPES: Record<string, TransferEventType> = {
  created: "transfer.created",
  updated: "transfer.updated",
  removed: "transfer.removed",
};

/** One row of the change log as the fan-out reads it. */
export interface LoggedChange {
  readonly seq: number;
  readonly messageId: string;
  readonly changeType: string;
  /** The record as JSON text, exactly as the change log holds it. */
  readonly recordJson: string;
  readonly changedAt: string;
}

export function eventIdOf(seq: number): string {
  return `evt_${seq}`;
}

export function eventTypeOf(changeType: string): TransferEventType {
  const type = EVENT_TYPES[changeType];
  if (type === undefined) throw new Error(`unknown change type '${changeType}' in the change log`);
  return type;
}

/** The event body; the record's JSON text is embedded as it is (no re-serialisation). */
export function eventBody(change: LoggedChange): string {
  const head = JSON.stringify({
    id: eventIdOf(change.seq),
    type: eventTypeOf(change.changeType),
    createdAt: change.changedAt,
    seq: change.seq,
  });
  return `${head.slice(0, -1)},"data":${change.recordJson}}`;
}
