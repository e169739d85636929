/**
 * The settled transfers the router's duration estimates are computed from (docs/router.md,
 * "estimatedDuration"): the `Success` records among the latest `limit` stored, newest first.
 * Shared SQL for both backends. It walks the primary key backwards, so its cost is bounded by
 * `limit` whatever the table's size; it runs in the background, never on a request.
 */

import type { Settlement } from "../domain/settlement.js";
import type { TransferBackend } from "./backend.js";

/** Most records one read looks at. */
export const MAX_SETTLEMENT_SCAN = 100_000;

export function createSettlementReads(backend: TransferBackend) {
  const texts = new Map<number, string>();
  return {
    async recentSettlements(limit: number): Promise<Settlement[]> {
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SETTLEMENT_SCAN) {
        throw new RangeError(
          `limit must be an integer from 1 to ${MAX_SETTLEMENT_SCAN}, got ${limit}`,
        );
      }
      let text = texts.get(limit);
      if (text === undefined) {
        // LIMIT as a literal (a safe integer checked above): SQLite plans a bounded scan then.
        text =
          "SELECT r.source_contract, r.source_chain_name, r.dest_chain_name, r.start_time, r.end_time" +
          " FROM (SELECT source_contract, source_chain_name, dest_chain_name, start_time, end_time, status, id" +
          ` FROM transfer_records ORDER BY id DESC LIMIT ${limit}) r WHERE r.status = 'Success' ORDER BY r.id DESC`;
        texts.set(limit, text);
      }
      const rows = await backend.sql.all<Record<string, unknown>>(text);
      return rows.map((row) => ({
        sourceContract: String(row.source_contract),
        sourceChainName: String(row.source_chain_name),
        destChainName: String(row.dest_chain_name),
        startTime: String(row.start_time),
        endTime: String(row.end_time),
      }));
    },
  };
}
