/**
 * Where a send is delivered, by the registry: shared by the indexer (the tokens it reads, the
 * derivation's SQL join states the same rule) and the derivation's TypeScript model.
 */
import type { BridgeEvent } from "./bridge-event.js";
import type { BridgeRegistry } from "./bridge-registry.js";

/**
 * The chain and contract a send is delivered at: the contract the send names
 * (SentArgs.destContract) on the chain its protocol calls `destChainId`, else the registry's
 * contract of the send's protocol and kind on that chain.
 */
export function destinationOf(
  send: BridgeEvent,
  registry: BridgeRegistry,
): { chainId: number | undefined; contract: string | undefined } {
  const schemeId = String(send.args.destChainId);
  const named = send.args.destContract;
  if (named !== undefined) {
    const found = registry.bridgeInScheme(send.protocol, schemeId, String(named));
    return { chainId: found?.chainId, contract: found?.address };
  }
  const chainId = registry.chainIdInScheme(send.kind, schemeId, send.protocol);
  const contract =
    chainId === undefined ? undefined : registry.bridgeAddress(chainId, send.kind, send.protocol);
  return { chainId, contract };
}
