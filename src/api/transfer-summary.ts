/**
 * The explorer's 24-hour summary (GET /api/oracle/stats/summary) from the window's transfers:
 * counts by status, success rate, delivery time per route, volume per token. Pure; amounts
 * summed exactly as bigint base units (src/amount.ts), never as JS numbers.
 */
import { convertDecimals, formatAmount, toBaseUnits } from "../amount.js";
import { TRANSFER_STATUSES, type TransferStatus } from "../domain/bridge-transaction.js";
import type { ActivityRow } from "../store/transfer-activity.js";

export const SUMMARY_WINDOW_SECONDS = 24 * 60 * 60;

export interface RouteSummary {
  sourceChain: string;
  destChain: string;
  transfers: number;
  /** Success transfers, whose delivery time is known. */
  delivered: number;
  /** Seconds from send to delivery (block times), nearest-rank percentiles; null when none. */
  medianDeliverySeconds: number | null;
  p90DeliverySeconds: number | null;
}

export interface TokenVolume {
  /** The source token's symbol; volumes of one symbol on several chains add up. */
  symbol: string;
  /** Sum of send_amount, human units, exact. */
  amount: string;
  transfers: number;
}

export interface TransferSummary {
  /** The window, UTC "YYYY-MM-DD HH:MM:SS": transfers whose start_time is >= since. */
  since: string;
  until: string;
  total: number;
  byStatus: Record<TransferStatus, number>;
  /** Success / (Success + Failed); null while nothing has finished. */
  successRate: number | null;
  routes: RouteSummary[];
  volumes: TokenVolume[];
}

/** UTC "YYYY-MM-DD HH:MM:SS" of a unix time in seconds. */
export function utcText(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 19).replace("T", " ");
}

/** Unix seconds of a "YYYY-MM-DD HH:MM:SS" UTC time; undefined for "" or garbage. */
export function unixSecondsOf(text: string): number | undefined {
  if (text === "") return undefined;
  const ms = Date.parse(`${text.replace(" ", "T")}Z`);
  return Number.isFinite(ms) ? ms / 1000 : undefined;
}

/** Nearest-rank percentile of sorted values (p in 0..100); null for none. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}

export function summarizeTransfers(
  rows: readonly ActivityRow[],
  nowSeconds: number,
): TransferSummary {
  const byStatus = Object.fromEntries(TRANSFER_STATUSES.map((s) => [s, 0])) as Record<
    TransferStatus,
    number
  >;
  const routes = new Map<
    string,
    { source: string; dest: string; count: number; times: number[] }
  >();
  const volumes = new Map<string, { decimals: number; sum: bigint; count: number }>();
  for (const row of rows) {
    byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
    const routeKey = JSON.stringify([row.source_chain_name, row.dest_chain_name]);
    let route = routes.get(routeKey);
    if (route === undefined) {
      route = { source: row.source_chain_name, dest: row.dest_chain_name, count: 0, times: [] };
      routes.set(routeKey, route);
    }
    route.count++;
    if (row.status === "Success") {
      const start = unixSecondsOf(row.start_time);
      const end = unixSecondsOf(row.end_time);
      if (start !== undefined && end !== undefined) route.times.push(Math.max(0, end - start));
    }
    addVolume(volumes, row);
  }
  const finished = byStatus.Success + byStatus.Failed;
  return {
    since: utcText(nowSeconds - SUMMARY_WINDOW_SECONDS),
    until: utcText(nowSeconds),
    total: rows.length,
    byStatus,
    successRate: finished === 0 ? null : byStatus.Success / finished,
    routes: [...routes.values()]
      .map((r) => {
        const sorted = r.times.sort((a, b) => a - b);
        return {
          sourceChain: r.source,
          destChain: r.dest,
          transfers: r.count,
          delivered: sorted.length,
          medianDeliverySeconds: percentile(sorted, 50),
          p90DeliverySeconds: percentile(sorted, 90),
        };
      })
      .sort(
        (a, b) =>
          b.transfers - a.transfers ||
          compareText(a.sourceChain, b.sourceChain) ||
          compareText(a.destChain, b.destChain),
      ),
    volumes: [...volumes.entries()]
      .map(([symbol, v]) => ({
        symbol,
        amount: formatAmount(v.sum, v.decimals),
        transfers: v.count,
      }))
      .sort((a, b) => b.transfers - a.transfers || compareText(a.symbol, b.symbol)),
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Adds a send amount to its symbol's sum, at the finest decimals seen for that symbol. */
function addVolume(
  volumes: Map<string, { decimals: number; sum: bigint; count: number }>,
  row: ActivityRow,
): void {
  let amount: bigint;
  try {
    amount = toBaseUnits(row.send_amount, row.source_token_decimals);
  } catch {
    return; // not a decimal (never written by this service): left out of the volume
  }
  const volume = volumes.get(row.source_token_symbol);
  if (volume === undefined) {
    volumes.set(row.source_token_symbol, {
      decimals: row.source_token_decimals,
      sum: amount,
      count: 1,
    });
    return;
  }
  const decimals = Math.max(volume.decimals, row.source_token_decimals);
  volume.sum =
    convertDecimals(volume.sum, volume.decimals, decimals) +
    convertDecimals(amount, row.source_token_decimals, decimals);
  volume.decimals = decimals;
  volume.count++;
}
