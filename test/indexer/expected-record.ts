/**
 * The record a transfer must have, computed by the test from what the contracts emitted (the
 * TransferSent of the source receipt, the outcome receipt) and the manifest's token list:
 * independent of the indexer's reducer, so the two check each other.
 */
import { getAddress, type TransactionReceipt } from "viem";
import { formatAmount } from "../../src/amount.js";
import type { DevnetManifest, ManifestChain } from "../../src/devnet/manifest.js";
import type { BridgeTransaction } from "../../src/domain/bridge-transaction.js";
import type { MadeTransfer } from "./traffic.js";

export type Outcome =
  | { status: "Processing" }
  | { status: "Success"; receipt: TransactionReceipt; receiveAmount: bigint }
  | { status: "Failed"; receipt: TransactionReceipt };

function token(chain: ManifestChain, address: string) {
  if (/^0x0{40}$/.test(address)) return { symbol: "ETH", decimals: 18 };
  const t = chain.tokens.find((x) => x.address.toLowerCase() === address.toLowerCase());
  if (t === undefined) throw new Error(`token ${address} not in the manifest of ${chain.name}`);
  return t;
}

function utc(seconds: bigint): string {
  return new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replace("T", " ");
}

export async function expectedRecord(
  _manifest: DevnetManifest,
  t: MadeTransfer,
  outcome: Outcome,
): Promise<Omit<BridgeTransaction, "created_at" | "updated_at">> {
  const s = t.sent;
  const src = t.source.chain;
  const dst = t.dest.chain;
  const srcToken = token(src, s.sourceToken);
  const feeToken = token(src, s.sourceBridgeToken);
  const dstToken = token(dst, s.destToken);
  const dstBridge = token(dst, s.destBridgeToken);
  const start = (await t.source.client.getBlock({ blockNumber: t.receipt.blockNumber })).timestamp;
  const end =
    outcome.status === "Processing"
      ? ""
      : utc((await t.dest.client.getBlock({ blockNumber: outcome.receipt.blockNumber })).timestamp);
  return {
    message_id: s.messageId.toLowerCase(),
    source_contract: getAddress(src.bridges[`${t.kind}`]),
    dest_contract: getAddress(dst.bridges[`${t.kind}`]),
    source_tx_hash: t.receipt.transactionHash.toLowerCase(),
    dest_tx_hash:
      outcome.status === "Processing" ? "" : outcome.receipt.transactionHash.toLowerCase(),
    from_address: getAddress(s.sender),
    to_address: getAddress(s.recipient),
    send_amount: formatAmount(s.sendAmount, srcToken.decimals),
    min_receive_amount: formatAmount(s.minReceiveAmount, dstToken.decimals),
    receive_amount:
      outcome.status === "Success"
        ? formatAmount(outcome.receiveAmount, dstToken.decimals)
        : outcome.status === "Failed"
          ? "0"
          : "",
    source_chain_name: src.name,
    dest_chain_name: dst.name,
    source_token_address: getAddress(s.sourceToken),
    source_token_decimals: srcToken.decimals,
    source_token_symbol: srcToken.symbol,
    dest_token_address: getAddress(s.destToken),
    dest_token_decimals: dstToken.decimals,
    dest_token_symbol: dstToken.symbol,
    dest_bridge_token: getAddress(s.destBridgeToken),
    dest_bridge_token_decimals: dstBridge.decimals,
    dest_bridge_token_amount: formatAmount(s.destBridgeAmount, dstBridge.decimals),
    fee_address: getAddress(s.sourceBridgeToken),
    fee_decimals: feeToken.decimals,
    fee_symbol: feeToken.symbol,
    protocol: "reference",
    xproto_fee_address: getAddress(s.sourceBridgeToken),
    xproto_fee_decimals: feeToken.decimals,
    xproto_fee_symbol: feeToken.symbol,
    xproto_fee: formatAmount(s.xprotoFee, feeToken.decimals),
    bridge_fee: formatAmount(s.bridgeFee, feeToken.decimals),
    status: outcome.status,
    subsidy_amount: formatAmount(s.subsidy, dstBridge.decimals),
    start_time: utc(start),
    end_time: end,
  };
}
