/**
 * The reference protocol: our own bridge contracts (contracts/, docs/protocol.md), three kinds
 * behind one IBridge interface whose four events (events-abi.ts) already name the normalised
 * arguments, paired by their messageId. Its quotes' calldata is built by transaction-request.ts
 * and its fee by bridge-fee.ts; the devnet part (src/devnet/protocols/reference/) deploys and relays it.
 */
import type { Protocol } from "../protocol.js";
import { decodeBridgeLog, REFERENCE_PROTOCOL } from "./decode-log.js";
import { BRIDGE_EVENT_TOPICS } from "./events-abi.js";
import { referenceRouting } from "./routing.js";

export { REFERENCE_PROTOCOL } from "./decode-log.js";

export const referenceProtocol: Protocol = {
  name: REFERENCE_PROTOCOL,
  indexing: {
    topics: BRIDGE_EVENT_TOPICS,
    decodeLogs(logs, context) {
      const events = [];
      for (const log of logs) {
        const contract = context.contract(log.address);
        if (contract === undefined) continue;
        const event = decodeBridgeLog(log, {
          chainId: context.chainId,
          kind: contract.kind,
          blockTime: context.blockTime(log),
        });
        if (event !== undefined) events.push(event);
      }
      return events;
    },
  },
  routing: referenceRouting,
};
