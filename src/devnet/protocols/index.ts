/**
 * The protocols the devnet deploys, relays and sends traffic for, in the order their manifest
 * parts are merged. Adding one: a folder here whose index.ts exports a ProtocolDevnet
 * (protocol-devnet.ts), and one line below (docs/architecture.md, "Protocols").
 */
import { acrossDevnet } from "./across/index.js";
import { layerZeroDevnet } from "./layerzero-oft/index.js";
import type { ProtocolDevnet } from "./protocol-devnet.js";
import { referenceDevnet } from "./reference/index.js";

export const DEVNET_PROTOCOLS: readonly ProtocolDevnet[] = [
  referenceDevnet,
  layerZeroDevnet,
  acrossDevnet,
];
