/**
 * The bridge protocols this service follows. Adding one = a folder src/protocols/<name>/ whose
 * index.ts exports its `Protocol` (protocol.ts), and one line here.
 */

import { acrossProtocol } from "./across/index.js";
import { layerZeroOftProtocol } from "./layerzero-oft/index.js";
import { createProtocolRegistry, type ProtocolRegistry } from "./protocol.js";
import { referenceProtocol } from "./reference/index.js";

export type { DecodeContext, Protocol, ProtocolIndexing, ProtocolRegistry } from "./protocol.js";
export { createProtocolRegistry } from "./protocol.js";

export const PROTOCOLS: ProtocolRegistry = createProtocolRegistry([
  referenceProtocol,
  layerZeroOftProtocol,
  acrossProtocol,
]);
