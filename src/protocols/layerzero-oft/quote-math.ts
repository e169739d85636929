/**
 * The amount and fee arithmetic of a default LayerZero V2 OFT send, exactly as OFTCore does it
 * (@layerzerolabs/oft-evm 4.0.1), in bigint. Pure: the state comes from state.ts.
 *
 * - `_removeDust(a)  = (a / decimalConversionRate) * decimalConversionRate`
 * - `_debitView(a, min) = (sent = removeDust(a), received = sent)`, SlippageExceeded when
 *   received < min
 * - `_toSD(a) = a / decimalConversionRate`, AmountSDOverflowed above 2^64 - 1 (quoteSend and send
 *   build the message with it, so such an amount cannot be sent)
 * - decimalConversionRate = 10^(localDecimals - sharedDecimals), sharedDecimals 6 by default.
 *
 * "No route" is a result here, not an exception (the router's convention).
 */
import { maxUint64 } from "viem";

export function decimalConversionRate(localDecimals: number, sharedDecimals: number): bigint {
  if (!Number.isInteger(localDecimals) || !Number.isInteger(sharedDecimals) || sharedDecimals < 0) {
    throw new RangeError(
      `decimals must be non-negative integers (local ${localDecimals}, shared ${sharedDecimals})`,
    );
  }
  // OFTCore's constructor: InvalidLocalDecimals when local < shared.
  if (localDecimals < sharedDecimals) {
    throw new RangeError(
      `local decimals ${localDecimals} are below shared decimals ${sharedDecimals}`,
    );
  }
  return 10n ** BigInt(localDecimals - sharedDecimals);
}

export function removeDust(amountLD: bigint, rate: bigint): bigint {
  return (amountLD / rate) * rate;
}

/** Shared-decimals amount, or null when it overflows uint64 (AmountSDOverflowed). */
export function toSharedDecimals(amountLD: bigint, rate: bigint): bigint | null {
  const amountSD = amountLD / rate;
  return amountSD > maxUint64 ? null : amountSD;
}

export function toLocalDecimals(amountSD: bigint, rate: bigint): bigint {
  return amountSD * rate;
}

/** The largest amount (local decimals) a send can carry: (2^64 - 1) * rate, plus dust. */
export function maxSendableLD(rate: bigint): bigint {
  return maxUint64 * rate + (rate - 1n);
}

export interface MessagingFee {
  nativeFee: bigint;
  lzTokenFee: bigint;
}

/** What a quote needs of one OFT at one block (read by state.ts). */
export interface OftQuoteState {
  decimalConversionRate: bigint;
  /** quoteOFT's OFTLimit (default OFT: 0 and the token's total supply; informational). */
  minAmountLD: bigint;
  maxAmountLD: bigint;
  /** quoteSend's fee per destination endpoint id, for a plain send's message (no compose). */
  feeByDstEid: ReadonlyMap<number, MessagingFee>;
}

export type OftQuote =
  | {
      ok: true;
      amountSentLD: bigint;
      amountReceivedLD: bigint;
      /** amountLD - amountSentLD: stays with the sender. */
      dustLD: bigint;
      /** Native coin to send as the transaction's value. */
      nativeFee: bigint;
    }
  | {
      ok: false;
      reason: "slippage" | "amount-too-large" | "unknown-destination";
      message: string;
      /** For "slippage": what would arrive. */
      amountReceivedLD?: bigint;
    };

/** OFTCore._debitView, plus the uint64 check of _toSD that quoteSend and send apply. */
export function debitView(
  amountLD: bigint,
  minAmountLD: bigint,
  rate: bigint,
): { amountSentLD: bigint; amountReceivedLD: bigint } | { slippage: bigint } {
  const amountSentLD = removeDust(amountLD, rate);
  const amountReceivedLD = amountSentLD;
  if (amountReceivedLD < minAmountLD) return { slippage: amountReceivedLD };
  return { amountSentLD, amountReceivedLD };
}

export function quoteOftSend(
  state: OftQuoteState,
  request: { dstEid: number; amountLD: bigint; minAmountLD: bigint },
): OftQuote {
  if (request.amountLD < 0n || request.minAmountLD < 0n) {
    throw new RangeError("amounts are non-negative base units");
  }
  const fee = state.feeByDstEid.get(request.dstEid);
  if (fee === undefined) {
    return {
      ok: false,
      reason: "unknown-destination",
      message: `no peer or fee for endpoint id ${request.dstEid}`,
    };
  }
  const debit = debitView(request.amountLD, request.minAmountLD, state.decimalConversionRate);
  if ("slippage" in debit) {
    return {
      ok: false,
      reason: "slippage",
      message: `${debit.slippage} would arrive, below the minimum ${request.minAmountLD}`,
      amountReceivedLD: debit.slippage,
    };
  }
  if (toSharedDecimals(debit.amountReceivedLD, state.decimalConversionRate) === null) {
    return {
      ok: false,
      reason: "amount-too-large",
      message: "the amount overflows the OFT's shared-decimals uint64",
    };
  }
  return {
    ok: true,
    amountSentLD: debit.amountSentLD,
    amountReceivedLD: debit.amountReceivedLD,
    dustLD: request.amountLD - debit.amountSentLD,
    nativeFee: fee.nativeFee,
  };
}
