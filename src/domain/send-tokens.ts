/**
 * The tokens a normalised send names, whose metadata (symbol, decimals) its record needs: read
 * by the indexer before a batch is written (indexer/fetch-span.ts, token-metadata.ts).
 */
import { zeroAddress } from "viem";
import type { BridgeEvent } from "./bridge-event.js";
import type { BridgeRegistry } from "./bridge-registry.js";
import { destinationOf } from "./send-destination.js";

export interface TokenMetadata {
  symbol: string;
  decimals: number;
}

/** Tokens a send needs metadata for, as (chain id, address) pairs; native coin excluded. */
export function tokensOfSend(
  send: BridgeEvent,
  registry: BridgeRegistry,
): { chainId: number; address: string }[] {
  const out = [
    { chainId: send.chainId, address: String(send.args.sourceToken) },
    { chainId: send.chainId, address: String(send.args.sourceBridgeToken) },
  ];
  if (send.args.xprotoFeeToken !== undefined) {
    out.push({ chainId: send.chainId, address: String(send.args.xprotoFeeToken) });
  }
  const dest = destinationOf(send, registry).chainId;
  if (dest !== undefined) {
    out.push({ chainId: dest, address: String(send.args.destToken) });
    out.push({ chainId: dest, address: String(send.args.destBridgeToken) });
  }
  return out.filter((t) => t.address.toLowerCase() !== zeroAddress);
}
