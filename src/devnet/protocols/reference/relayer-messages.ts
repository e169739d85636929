/**
 * Pure parts of the relayer: which chain a message goes to, what BridgeMessage it carries, which
 * block range is safe to scan, how long to back off. No RPC here, so all of it is unit-tested.
 */
import type { Address, Hex } from "viem";
import { backoffDelayMs } from "../../../backoff.js";
import type { BridgeKind } from "../../../domain/bridge-kind.js";
import type { DevnetManifest, ManifestChain } from "../../manifest.js";

/** The decoded arguments of IBridge.TransferSent. */
export interface TransferSentArgs {
  messageId: Hex;
  sender: Address;
  recipient: Address;
  destChainId: bigint;
  sourceToken: Address;
  sendAmount: bigint;
  sourceBridgeToken: Address;
  bridgeAmount: bigint;
  destBridgeToken: Address;
  destBridgeAmount: bigint;
  destToken: Address;
  minReceiveAmount: bigint;
  bridgeFee: bigint;
  xprotoFee: bigint;
  subsidy: bigint;
}

/** contracts/interfaces/IBridge.sol BridgeMessage. */
export interface BridgeMessage {
  messageId: Hex;
  srcChainId: bigint;
  sender: Address;
  recipient: Address;
  destBridgeToken: Address;
  amount: bigint;
  destSwap: boolean;
  destToken: Address;
  destMinAmount: bigint;
}

/** The chain whose id in `kind`'s scheme is `bridgeChainId`, if the devnet has one. */
export function chainByBridgeId(
  manifest: DevnetManifest,
  kind: BridgeKind,
  bridgeChainId: bigint,
): ManifestChain | undefined {
  const key = `${kind}` as const;
  return manifest.chains.find((chain) => BigInt(chain.bridgeChainIds[key]) === bridgeChainId);
}

/** Which bridge kind `address` is on `chain` (undefined: not one of its bridges). */
export function bridgeKindOf(chain: ManifestChain, address: Address): BridgeKind | undefined {
  const wanted = address.toLowerCase();
  for (const kind of [0, 1, 2] as const) {
    if (chain.bridges[`${kind}`].toLowerCase() === wanted) return kind;
  }
  return undefined;
}

/**
 * The message the destination bridge receives for a TransferSent. A destination swap is exactly
 * the case `destToken != destBridgeToken` (protocol step 7 requires equality without one).
 * `amount` is the net bridge amount already in destination decimals, plus any subsidy the source
 * promised (zero on the devnet today).
 */
export function buildBridgeMessage(
  sent: TransferSentArgs,
  source: ManifestChain,
  kind: BridgeKind,
): BridgeMessage {
  return {
    messageId: sent.messageId,
    srcChainId: BigInt(source.bridgeChainIds[`${kind}`]),
    sender: sent.sender,
    recipient: sent.recipient,
    destBridgeToken: sent.destBridgeToken,
    amount: sent.destBridgeAmount,
    destSwap: sent.destToken.toLowerCase() !== sent.destBridgeToken.toLowerCase(),
    destToken: sent.destToken,
    destMinAmount: sent.minReceiveAmount,
  };
}

/**
 * The next block range to scan given the last scanned block `cursor`, the chain `head` and the
 * confirmations wanted. Invariant kept by the caller: `cursor <= head - confirmations`, so every
 * scanned log already has `confirmations` blocks on top of it. Null when nothing new is safe.
 */
export function nextScanRange(
  cursor: bigint,
  head: bigint,
  confirmations: number,
  maxSpan = 2000n,
): { fromBlock: bigint; toBlock: bigint } | null {
  const safeHead = head - BigInt(confirmations);
  if (safeHead <= cursor) return null;
  const fromBlock = cursor + 1n;
  const toBlock = safeHead - fromBlock + 1n > maxSpan ? fromBlock + maxSpan - 1n : safeHead;
  return { fromBlock, toBlock };
}

/**
 * Exponential backoff for retrying an RPC call or a delivery: 250 ms, 500 ms, ... capped; the
 * delay after attempt number `attempt` (0 for the first), by src/backoff.ts's rule.
 */
export function backoffMs(attempt: number, baseMs = 250, maxMs = 10_000): number {
  return backoffDelayMs(Math.max(0, attempt) + 1, { baseMs, maxMs, jitter: "none" });
}

/**
 * Whether a revert reason means the work is already done: the contracts reject a second delivery
 * ("Bridge: already processed", "Endpoint: already delivered") or refund ("Bridge: already
 * refunded"), and the relayer then records it as done instead of retrying.
 */
export function isAlreadyProcessedRevert(message: string): boolean {
  return /already (processed|delivered|refunded)/i.test(message);
}
