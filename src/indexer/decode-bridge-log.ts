/**
 * Raw log -> BridgeEvent. Logs that are not one of the four IBridge events (or that fail to
 * decode) return undefined: the filter asks only for these topics, so such a log is another
 * contract's event with a colliding selector and is not ours to interpret.
 */
import { decodeEventLog, getAddress, type Hex } from "viem";
import { BRIDGE_EVENTS_ABI, type BridgeEventName } from "../chain/bridge-events-abi.js";
import type { RawLog } from "../chain/create-chain-client.js";
import type { BridgeKind } from "../devnet/manifest.js";
import type { BridgeEvent, EventArgs } from "./bridge-event.js";

export function decodeBridgeLog(
  log: RawLog,
  context: { chainId: number; kind: BridgeKind; blockTime: number },
): BridgeEvent | undefined {
  let decoded: { eventName: string; args: unknown };
  try {
    decoded = decodeEventLog({
      abi: BRIDGE_EVENTS_ABI,
      data: log.data,
      topics: log.topics as [Hex, ...Hex[]],
      strict: true,
    });
  } catch {
    return undefined;
  }
  const args = toJsonArgs(decoded.args as Record<string, unknown>);
  const messageId = args.messageId;
  if (typeof messageId !== "string") return undefined;
  return {
    chainId: context.chainId,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash.toLowerCase() as Hex,
    blockTime: context.blockTime,
    txHash: log.transactionHash.toLowerCase() as Hex,
    logIndex: log.logIndex,
    address: getAddress(log.address),
    kind: context.kind,
    name: decoded.eventName as BridgeEventName,
    messageId: messageId.toLowerCase() as Hex,
    args,
  };
}

function toJsonArgs(args: Record<string, unknown>): EventArgs {
  const out: EventArgs = {};
  for (const [key, value] of Object.entries(args)) {
    if (typeof value === "bigint") out[key] = value.toString();
    else if (typeof value === "boolean") out[key] = value;
    else if (typeof value === "string") {
      out[key] = /^0x[0-9a-fA-F]{40}$/.test(value) ? getAddress(value) : lowerHex(value);
    } else out[key] = String(value);
  }
  return out;
}

function lowerHex(value: string): string {
  return /^0x[0-9a-fA-F]*$/.test(value) ? value.toLowerCase() : value;
}
