/**
 * The bridge kinds (docs/protocol.md): 0 lock-and-mint, 1 liquidity pool, 2 messaging. Every
 * folder that names a kind (router, indexer, store, api, devnet) takes it from here.
 */
export type BridgeKind = 0 | 1 | 2;
export const BRIDGE_KINDS: readonly BridgeKind[] = [0, 1, 2];
