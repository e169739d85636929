/**
 * The model of the derivation (src/store/derive-transfers-sql.ts), which derive-sql.test.ts holds
 * the SQL to on random histories; nothing in production runs it.
 *
 * Pairing as a pure reducer: the stored events of one message id (the source send, the
 * destination delivery or failure, the source refund, in any arrival order) -> the bridge
 * transaction record of docs/http-api.md, "The record", following API rules 2 and 7. Because
 * records are derived from raw events, a reorg is undone by deleting the orphaned events and
 * deriving again.
 *
 * Invariants: no send -> no record (destination events wait in raw_events); a delivery makes it
 * Success, else a failure or refund makes it Failed, else Processing; only events on the chain
 * and bridge the send names count as its outcome (a look-alike elsewhere is ignored); an
 * `expired` event (the destination's indexed time passed the send's deadline) makes it Failed
 * with no destination transaction.
 */
import { zeroAddress } from "viem";
import { formatBaseUnitDigits } from "../../src/amount.js";
import { createAddressChecksummer } from "../../src/chain/checksum-address.js";
import { type BridgeEvent, compareEvents } from "../../src/domain/bridge-event.js";
import type { BridgeRegistry } from "../../src/domain/bridge-registry.js";
import {
  type BridgeTransaction,
  TRANSFER_FIELDS,
  type TransferStatus,
} from "../../src/domain/bridge-transaction.js";
import { destinationOf } from "../../src/domain/send-destination.js";
import type { TokenMetadata } from "../../src/domain/send-tokens.js";
import { formatUtc } from "../../src/domain/utc-time.js";

/** Memoised EIP-55 (a pure function of its input, so one memo serves every caller). */
const checksum = createAddressChecksummer();

export interface DeriveContext {
  registry: BridgeRegistry;
  /** Metadata of an ERC-20 (the native coin 0x0 is resolved here, not asked for). */
  token(chainId: number, address: string): TokenMetadata | undefined;
}

/**
 * The full record: created_at is kept from the stored record, updated_at moves only when some
 * other field changed. Returns undefined when no send is stored (the record must not exist).
 * Runs for every message id of every batch, so it builds the record once, in one pass over
 * the events, and formats amounts from their decimal digits (no BigInt round trip).
 */
export function deriveTransfer(
  events: readonly BridgeEvent[],
  context: DeriveContext,
  existing: BridgeTransaction | undefined,
  now: string,
): BridgeTransaction | undefined {
  const ordered = events.length > 1 ? [...events].sort(compareEvents) : events;
  const send = ordered.find((e) => e.role === "sent");
  if (send === undefined) return undefined;
  const { registry } = context;
  const a = send.args;
  const destination = destinationOf(send, registry);
  const destChainId = destination.chainId;
  const destContract =
    destination.contract === undefined ? undefined : checksum(destination.contract);

  // The outcome events: the first of each role at the send's destination contract (delivery,
  // failure) or at its own (refund); a look-alike elsewhere is ignored, `retrying` changes nothing.
  const destKey = destContract?.toLowerCase();
  const sourceKey = send.address.toLowerCase();
  let delivery: BridgeEvent | undefined;
  let failure: BridgeEvent | undefined;
  let refund: BridgeEvent | undefined;
  let expiry: BridgeEvent | undefined;
  for (const e of ordered) {
    if (e.role === "delivered" || e.role === "failed" || e.role === "expired") {
      if (e.chainId !== destChainId || e.address.toLowerCase() !== destKey) continue;
      if (e.role === "delivered") delivery ??= e;
      else if (e.role === "failed") failure ??= e;
      else expiry ??= e;
    } else if (e.role === "refunded") {
      if (e.chainId === send.chainId && e.address.toLowerCase() === sourceKey) refund ??= e;
    }
  }

  const sourceToken = tokenMeta(context, send.chainId, String(a.sourceToken));
  const sourceBridgeToken = tokenMeta(context, send.chainId, String(a.sourceBridgeToken));
  // The messaging fee's token: its own when the send names one, else the fee token.
  const xprotoAddress = a.xprotoFeeToken === undefined ? undefined : String(a.xprotoFeeToken);
  const xprotoToken =
    xprotoAddress === undefined
      ? sourceBridgeToken
      : tokenMeta(context, send.chainId, xprotoAddress);
  const destToken = tokenMeta(context, destChainId, String(a.destToken));
  const destBridgeToken = tokenMeta(context, destChainId, String(a.destBridgeToken));

  let status: TransferStatus = "Processing";
  let outcome: BridgeEvent | undefined;
  if (delivery !== undefined) {
    status = "Success";
    outcome = delivery;
  } else if (failure !== undefined || refund !== undefined || expiry !== undefined) {
    status = "Failed";
    outcome = failure ?? refund ?? expiry;
  }

  const record: BridgeTransaction = {
    message_id: send.messageId.toLowerCase(),
    source_contract: checksum(send.address),
    dest_contract: destContract ?? "",
    source_tx_hash: send.txHash.toLowerCase(),
    // The destination transaction: the delivery's or the failure's (a refund happens on the
    // source chain, so it is not a destination transaction).
    dest_tx_hash: (delivery ?? failure)?.txHash.toLowerCase() ?? "",
    from_address: checksum(String(a.sender)),
    to_address: checksum(String(a.recipient)),
    send_amount: amount(a.sendAmount, sourceToken.decimals),
    min_receive_amount: amount(a.minReceiveAmount, destToken.decimals),
    // Known once there is an outcome: a failure or refund delivered nothing, so "0" (as import
    // requires of a Failed record); unknown, "", only while Processing
    // (docs/http-api.md, API rule 2).
    receive_amount:
      delivery !== undefined
        ? amount(delivery.args.receiveAmount, destToken.decimals)
        : status === "Failed"
          ? "0"
          : "",
    source_chain_name: registry.chainName(send.chainId) ?? "",
    dest_chain_name: destChainId === undefined ? "" : (registry.chainName(destChainId) ?? ""),
    source_token_address: checksum(String(a.sourceToken)),
    source_token_decimals: sourceToken.decimals,
    source_token_symbol: sourceToken.symbol,
    dest_token_address: checksum(String(a.destToken)),
    dest_token_decimals: destToken.decimals,
    dest_token_symbol: destToken.symbol,
    dest_bridge_token: checksum(String(a.destBridgeToken)),
    dest_bridge_token_decimals: destBridgeToken.decimals,
    dest_bridge_token_amount: amount(a.destBridgeAmount, destBridgeToken.decimals),
    // docs/http-api.md, API rule 4: fees are in the source bridge token.
    fee_address: checksum(String(a.sourceBridgeToken)),
    fee_decimals: sourceBridgeToken.decimals,
    fee_symbol: sourceBridgeToken.symbol,
    xproto_fee: amount(a.xprotoFee, xprotoToken.decimals),
    bridge_fee: amount(a.bridgeFee, sourceBridgeToken.decimals),
    status,
    subsidy_amount: amount(a.subsidy, destBridgeToken.decimals),
    start_time: formatUtc(send.blockTime),
    end_time: outcome === undefined ? "" : formatUtc(outcome.blockTime),
    created_at: existing?.created_at ?? now,
    updated_at: now,
    protocol: send.protocol,
    xproto_fee_address: checksum(xprotoAddress ?? String(a.sourceBridgeToken)),
    xproto_fee_decimals: xprotoToken.decimals,
    xproto_fee_symbol: xprotoToken.symbol,
  };
  return existing !== undefined && sameContent(record, existing) ? existing : record;
}

const UNKNOWN_TOKEN: TokenMetadata = { symbol: "", decimals: 0 };

/** Symbol and decimals of a token on a chain (the native coin from the registry). */
function tokenMeta(
  context: DeriveContext,
  chainId: number | undefined,
  address: string,
): TokenMetadata {
  if (chainId === undefined) return UNKNOWN_TOKEN;
  if (address.toLowerCase() === zeroAddress) {
    return { symbol: context.registry.nativeSymbol(chainId) ?? "", decimals: 18 };
  }
  const found = context.token(chainId, address);
  if (found === undefined) {
    throw new Error(`token metadata missing for ${address} on chain ${chainId}`);
  }
  return found;
}

/** Every field but updated_at equal (created_at is the stored one by construction). */
const CONTENT_FIELDS = TRANSFER_FIELDS.filter((f) => f !== "updated_at");

function sameContent(record: BridgeTransaction, stored: BridgeTransaction): boolean {
  for (const field of CONTENT_FIELDS) {
    if (record[field] !== stored[field]) return false;
  }
  return true;
}

const DIGITS = /^[0-9]+$/;

function amount(value: string | boolean | undefined, decimals: number): string {
  if (typeof value !== "string" || !DIGITS.test(value)) {
    throw new Error(`not a uint256 decimal string: ${String(value)}`);
  }
  return formatBaseUnitDigits(value, decimals);
}
