/**
 * The explorer's reads across all transfers (not keyed by an address or hash): the latest
 * transfers, the rows of a time window for the 24-hour summary, and the raw bridge events of one
 * message for its timeline. Shared SQL for both backends; the first two walk the
 * transfers (start_time, id) index of migration 0008.
 */

import {
  type BridgeTransaction,
  TRANSFER_FIELDS,
  type TransferStatus,
} from "../domain/bridge-transaction.js";
import type { SqlExecutor } from "./backend.js";
import { hashKey } from "./transfer-keys.js";
import { isNumberField } from "./transfer-row.js";

/** The largest `latestTransfers` page (the API allows 1..100). */
export const MAX_LATEST = 100;

/** What the 24-hour summary needs of one transfer. */
export interface ActivityRow {
  status: TransferStatus;
  source_chain_name: string;
  dest_chain_name: string;
  start_time: string;
  end_time: string;
  send_amount: string;
  source_token_symbol: string;
  source_token_decimals: number;
}

/** One stored bridge event of a message (table raw_events), with its chain's name. */
export interface StoredBridgeEvent {
  chainId: number;
  /** The indexer's name of the chain; "" when the chain is not (or no longer) indexed. */
  chainName: string;
  blockNumber: number;
  /** Unix seconds. */
  blockTime: number;
  txHash: string;
  logIndex: number;
  /** The emitting contract. */
  address: string;
  eventName: string;
  /** Its role in the transfer (src/domain/bridge-event.ts). */
  role: string;
  /** Decoded arguments: uint256 as decimal strings, addresses EIP-55. */
  args: Record<string, string | boolean>;
}

const COLUMNS = TRANSFER_FIELDS.map((field) => `t.${field}`).join(", ");

function recordFromRow(row: Record<string, unknown>): BridgeTransaction {
  const record: Record<string, string | number> = {};
  for (const field of TRANSFER_FIELDS) {
    record[field] = isNumberField(field) ? Number(row[field]) : String(row[field]);
  }
  return record as unknown as BridgeTransaction;
}

/** LIMIT as SQL text (an integer literal plans as a bounded top-N, see transfer-reads.ts). */
function limitText(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LATEST) {
    throw new RangeError(`limit must be an integer from 1 to ${MAX_LATEST}, got ${limit}`);
  }
  return `LIMIT ${limit}`;
}

const WINDOW_SQL =
  "SELECT status, source_chain_name, dest_chain_name, start_time, end_time, send_amount," +
  " source_token_symbol, source_token_decimals FROM transfer_records WHERE start_time >= ?";

const EVENTS_SQL =
  "SELECT e.chain_id, e.block_number, e.block_time, e.tx_hash, e.log_index, e.address," +
  " e.event_name, e.role, e.args, c.name AS chain_name FROM raw_events e" +
  " LEFT JOIN indexer_chains c ON c.chain_id = e.chain_id" +
  " WHERE e.message_id = ? ORDER BY e.block_time, e.chain_id, e.block_number, e.log_index";

export function createTransferActivity(sql: SqlExecutor) {
  return {
    /** The `limit` transfers with the newest start_time (ties: the later stored first). */
    async latestTransfers(limit: number): Promise<BridgeTransaction[]> {
      const rows = await sql.all<Record<string, unknown>>(
        `SELECT ${COLUMNS} FROM transfer_records t ORDER BY t.start_time DESC, t.id DESC ${limitText(limit)}`,
      );
      return rows.map(recordFromRow);
    },

    /** Every transfer whose start_time is `since` ("YYYY-MM-DD HH:MM:SS" UTC) or later. */
    async transfersStartedSince(since: string): Promise<ActivityRow[]> {
      const rows = await sql.all<Record<string, unknown>>(WINDOW_SQL, [since]);
      return rows.map((row) => ({
        status: String(row.status) as TransferStatus,
        source_chain_name: String(row.source_chain_name),
        dest_chain_name: String(row.dest_chain_name),
        start_time: String(row.start_time),
        end_time: String(row.end_time),
        send_amount: String(row.send_amount),
        source_token_symbol: String(row.source_token_symbol),
        source_token_decimals: Number(row.source_token_decimals),
      }));
    },

    /**
     * The indexer's stored events of a message, oldest first. None for records that were
     * imported rather than indexed (the import has no events).
     */
    async transferEvents(messageId: string): Promise<StoredBridgeEvent[]> {
      const rows = await sql.all<Record<string, unknown>>(EVENTS_SQL, [hashKey(messageId)]);
      return rows.map((row) => ({
        chainId: Number(row.chain_id),
        chainName: row.chain_name === null ? "" : String(row.chain_name),
        blockNumber: Number(row.block_number),
        blockTime: Number(row.block_time),
        txHash: String(row.tx_hash),
        logIndex: Number(row.log_index),
        address: String(row.address),
        eventName: String(row.event_name),
        role: String(row.role),
        args: JSON.parse(String(row.args)) as Record<string, string | boolean>,
      }));
    },
  };
}
