/**
 * The reference bridge (our contracts, docs/protocol.md) on the devnet, behind the protocol seam
 * (../protocol-devnet.ts): its deployment (deploy.ts), its relayer (relayer.ts: deliveries and
 * refunds) and its traffic (traffic.ts: transfers of the three kinds, some built to fail).
 */
import { REFERENCE_PROTOCOL } from "../../../protocols/reference/index.js";
import type { ProtocolDevnet } from "../protocol-devnet.js";
import { deployReference } from "./deploy.js";
import { createRelayer, type Relayer } from "./relayer.js";
import { createTrafficGenerator, type TrafficGenerator } from "./traffic.js";

export const referenceDevnet: ProtocolDevnet<Relayer, TrafficGenerator> = {
  name: REFERENCE_PROTOCOL,
  deploy: deployReference,
  async startRelayer({ manifest, delayMs, confirmations, logger }) {
    const relayer = createRelayer({ manifest, delayMs, confirmations, logger });
    await relayer.start();
    return relayer;
  },
  // Three in four of the devnet's transfers; LayerZero's OFT sends are the fourth.
  trafficShare: 3 / 4,
  startTraffic({ manifest, perMinute, seed, failureRate, accounts, logger }) {
    const traffic = createTrafficGenerator({
      manifest,
      perMinute,
      ...(seed !== undefined ? { seed } : {}),
      ...(failureRate !== undefined ? { failureRate } : {}),
      accounts,
      logger,
    });
    traffic.start();
    return traffic;
  },
};
