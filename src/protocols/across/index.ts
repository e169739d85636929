/**
 * Across V3 (docs/protocols.md, "Across V3"): a liquidity bridge (kind 1) whose relayers fill
 * deposits on the destination from their own funds. Indexed, not quoted: the relayer fee a
 * deposit must offer is set off-chain by Across' API, so no chain state prices a route.
 * Its SpokePool events are decoded by decode-log.ts and paired by (origin chain id, deposit id)
 * (pairing.ts); mainnet SpokePools are in presets.ts; the devnet deploys Across' own SpokePool
 * from the npm package's artifacts (src/devnet/protocols/across/).
 */
import type { Protocol } from "../protocol.js";
import { ACROSS_PROTOCOL, decodeAcrossLogs } from "./decode-log.js";
import { ACROSS_EVENT_TOPICS } from "./events-abi.js";

export { ACROSS_PROTOCOL } from "./decode-log.js";

export const acrossProtocol: Protocol = {
  name: ACROSS_PROTOCOL,
  indexing: {
    topics: ACROSS_EVENT_TOPICS,
    decodeLogs: decodeAcrossLogs,
    sendsHaveDeadlines: true,
    readsTokenDecimals: true,
  },
};
