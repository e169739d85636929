/**
 * One transfer's timeline (GET /api/oracle/bridge-transactions/:messageId/timeline): the record
 * and its steps sent -> delivered | failed -> refunded, each with the chain, block, block time
 * and transaction the indexer stored it from (raw_events). Pure.
 *
 * Which events count follows the indexer's pairing (src/store/derive-transfers-sql.ts): a delivery
 * or failure only at the record's destination bridge, a refund only at its source bridge; a
 * look-alike elsewhere is left out. A record imported rather than indexed has no stored events:
 * its steps come from the record alone (times and hashes, no blocks).
 */
import { formatBaseUnitDigits } from "../amount.js";
import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import type { StoredBridgeEvent } from "../store/transfer-activity.js";
import { unixSecondsOf, utcText } from "./transfer-summary.js";

export type TimelineStepKind = "sent" | "delivered" | "failed" | "refunded";

export interface TimelineStep {
  step: TimelineStepKind;
  chainName: string;
  /** EVM chain id; null when the record alone is known (imported). */
  chainId: number | null;
  blockNumber: number | null;
  /** Block time, UTC "YYYY-MM-DD HH:MM:SS". */
  time: string;
  /** Seconds since the send (0 for the send itself); null when a time is unknown. */
  secondsAfterSent: number | null;
  txHash: string;
  /** failed: the destination's reason; "" otherwise. */
  reason: string;
  /** refunded: the amount repaid to the sender, human units; "" otherwise. */
  amount: string;
  /** refunded: the repaid token's address and symbol; "" otherwise. */
  tokenAddress: string;
  tokenSymbol: string;
}

export interface TransferTimeline {
  transfer: BridgeTransaction;
  steps: TimelineStep[];
}

/**
 * The roles that make a step (src/domain/bridge-event.ts); `retrying` makes none. `expired` (a
 * deadline the destination chain's time passed, no transaction) is shown as the `failed` step,
 * with an empty txHash and the deadline as its reason.
 */
const STEP_OF_ROLE: ReadonlyMap<string, TimelineStepKind> = new Map([
  ["sent", "sent"],
  ["delivered", "delivered"],
  ["failed", "failed"],
  ["refunded", "refunded"],
  ["expired", "failed"],
]);

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function buildTimeline(
  transfer: BridgeTransaction,
  events: readonly StoredBridgeEvent[],
): TransferTimeline {
  const sentTime = unixSecondsOf(transfer.start_time);
  const after = (seconds: number | undefined) =>
    seconds === undefined || sentTime === undefined ? null : Math.max(0, seconds - sentTime);
  const steps: TimelineStep[] = [];
  const seen = new Set<TimelineStepKind>();
  for (const event of events) {
    const step = STEP_OF_ROLE.get(event.role);
    if (step === undefined) continue;
    const expired = event.role === "expired";
    if (seen.has(step)) continue;
    const atSource = same(event.address, transfer.source_contract);
    const atDest = transfer.dest_contract !== "" && same(event.address, transfer.dest_contract);
    if ((step === "sent" || step === "refunded") && !atSource) continue;
    if ((step === "delivered" || step === "failed") && !atDest) continue;
    seen.add(step);
    const refund = step === "refunded" ? refundAmount(transfer, event) : undefined;
    steps.push({
      step,
      chainName: event.chainName,
      chainId: event.chainId,
      blockNumber: event.blockNumber,
      time: utcText(event.blockTime),
      secondsAfterSent: step === "sent" ? 0 : after(event.blockTime),
      txHash: expired ? "" : event.txHash.toLowerCase(),
      reason: expired
        ? `fill deadline ${utcText(Number(event.args.deadline))} passed unfilled`
        : step === "failed"
          ? String(event.args.reason ?? "")
          : "",
      amount: refund?.amount ?? "",
      tokenAddress: refund?.address ?? "",
      tokenSymbol: refund?.symbol ?? "",
    });
  }
  if (!seen.has("sent")) return { transfer, steps: stepsFromRecord(transfer) };
  return { transfer, steps };
}

/** The refund in human units: its token is the source token or the source bridge token. */
function refundAmount(transfer: BridgeTransaction, event: StoredBridgeEvent) {
  const address = String(event.args.token ?? "");
  const raw = String(event.args.amount ?? "");
  const token = same(address, transfer.fee_address)
    ? { symbol: transfer.fee_symbol, decimals: transfer.fee_decimals }
    : same(address, transfer.source_token_address)
      ? { symbol: transfer.source_token_symbol, decimals: transfer.source_token_decimals }
      : undefined;
  if (token === undefined || !/^[0-9]+$/.test(raw)) return { address, symbol: "", amount: "" };
  return { address, symbol: token.symbol, amount: formatBaseUnitDigits(raw, token.decimals) };
}

/** Steps of a record without stored events (imported): what the record itself says. */
function stepsFromRecord(transfer: BridgeTransaction): TimelineStep[] {
  const base = {
    chainId: null,
    blockNumber: null,
    reason: "",
    amount: "",
    tokenAddress: "",
    tokenSymbol: "",
  };
  const steps: TimelineStep[] = [
    {
      ...base,
      step: "sent",
      chainName: transfer.source_chain_name,
      time: transfer.start_time,
      secondsAfterSent: 0,
      txHash: transfer.source_tx_hash,
    },
  ];
  if (transfer.status !== "Processing") {
    const start = unixSecondsOf(transfer.start_time);
    const end = unixSecondsOf(transfer.end_time);
    steps.push({
      ...base,
      step: transfer.status === "Success" ? "delivered" : "failed",
      chainName: transfer.dest_chain_name,
      time: transfer.end_time,
      secondsAfterSent: start === undefined || end === undefined ? null : Math.max(0, end - start),
      txHash: transfer.dest_tx_hash,
    });
  }
  return steps;
}
