/**
 * The reference bridge's raw log -> its normalised BridgeEvent (its arguments already carry the
 * normalised names of src/domain/bridge-event.ts; the event name gives the role). Logs that are not one of the four IBridge events (or that fail to
 * decode) return undefined: the filter asks only for these topics, so such a log is another
 * contract's event with a colliding selector and is not ours to interpret.
 *
 * The events with only static arguments (all but TransferFailed) are decoded by slicing the
 * 32-byte words directly: viem's generic decoder was the indexer's largest single CPU cost in a
 * backfill. Anything that does not have exactly the expected shape (topic count, data length)
 * and TransferFailed (a dynamic string) go through viem's strict decoder, so the result is the
 * same as before for every log (decode-log.test.ts compares both on random logs).
 */
import { decodeEventLog, getAddress, type Hex } from "viem";
import { createAddressChecksummer } from "../../chain/checksum-address.js";
import type { RawLog } from "../../chain/create-chain-client.js";
import type { BridgeEvent, BridgeEventRole, EventArgs } from "../../domain/bridge-event.js";
import type { BridgeKind } from "../../domain/bridge-kind.js";
import { BRIDGE_EVENT_TOPICS, BRIDGE_EVENTS_ABI, type BridgeEventName } from "./events-abi.js";

type ArgType = "bytes32" | "address" | "uint256";

interface StaticLayout {
  name: BridgeEventName;
  indexed: [string, ArgType][];
  data: [string, ArgType][];
}

/** Static layouts by topic0; the argument order is the ABI's (indexed ones come first there). */
const STATIC_LAYOUTS = new Map<string, StaticLayout>();
for (const [i, item] of BRIDGE_EVENTS_ABI.entries()) {
  const inputs = item.inputs as readonly { name: string; type: string; indexed?: boolean }[];
  if (!inputs.every((p) => p.type === "bytes32" || p.type === "address" || p.type === "uint256"))
    continue;
  const pairs = (list: typeof inputs) =>
    list.map((p) => [p.name, p.type as ArgType]) as [string, ArgType][];
  STATIC_LAYOUTS.set(BRIDGE_EVENT_TOPICS[i]!.toLowerCase(), {
    name: item.name as BridgeEventName,
    indexed: pairs(inputs.filter((p) => p.indexed === true)),
    data: pairs(inputs.filter((p) => p.indexed !== true)),
  });
}

/** EIP-55 forms of recently seen addresses (the same few tokens and users recur constantly). */
const checksum = createAddressChecksummer();

const WORD = /^[0-9a-fA-F]{64}$/;

/** One 32-byte word as stored in EventArgs; undefined when it is not a valid value of `type`. */
function wordValue(word: string, type: ArgType): string | undefined {
  if (!WORD.test(word)) return undefined;
  if (type === "uint256") return BigInt(`0x${word}`).toString();
  if (type === "bytes32") return `0x${word.toLowerCase()}`;
  return checksum(`0x${word.slice(24).toLowerCase()}`);
}

function decodeStatic(log: RawLog, layout: StaticLayout): EventArgs | undefined {
  if (log.topics.length !== layout.indexed.length + 1) return undefined;
  const data = log.data;
  if (data.length !== 2 + 64 * layout.data.length || !data.startsWith("0x")) return undefined;
  const args: EventArgs = {};
  for (const [i, [name, type]] of layout.indexed.entries()) {
    const value = wordValue(log.topics[i + 1]!.slice(2), type);
    if (value === undefined || !log.topics[i + 1]!.startsWith("0x")) return undefined;
    args[name] = value;
  }
  for (const [i, [name, type]] of layout.data.entries()) {
    const value = wordValue(data.slice(2 + 64 * i, 66 + 64 * i), type);
    if (value === undefined) return undefined;
    args[name] = value;
  }
  return args;
}

function decodeGeneric(log: RawLog): { name: BridgeEventName; args: EventArgs } | undefined {
  try {
    const decoded = decodeEventLog({
      abi: BRIDGE_EVENTS_ABI,
      data: log.data,
      topics: log.topics as [Hex, ...Hex[]],
      strict: true,
    });
    return {
      name: decoded.eventName as BridgeEventName,
      args: toJsonArgs(decoded.args as Record<string, unknown>),
    };
  } catch {
    return undefined;
  }
}

/** The protocol's name: the record's `protocol` field. */
export const REFERENCE_PROTOCOL = "reference";

/** Each event's role in a transfer; its arguments already carry the normalised names. */
const ROLES: Record<BridgeEventName, BridgeEventRole> = {
  TransferSent: "sent",
  TransferDelivered: "delivered",
  TransferFailed: "failed",
  TransferRefunded: "refunded",
};

interface LogContext {
  chainId: number;
  kind: BridgeKind;
  blockTime: number;
}

export function decodeBridgeLog(log: RawLog, context: LogContext): BridgeEvent | undefined {
  const layout = STATIC_LAYOUTS.get(log.topics[0]?.toLowerCase() ?? "");
  const fast = layout === undefined ? undefined : decodeStatic(log, layout);
  return toBridgeEvent(
    log,
    context,
    fast !== undefined ? { name: layout!.name, args: fast } : decodeGeneric(log),
  );
}

/** The generic path alone (tests compare it with the fast one). */
export function decodeBridgeLogGeneric(log: RawLog, context: LogContext): BridgeEvent | undefined {
  return toBridgeEvent(log, context, decodeGeneric(log));
}

/** The event around decoded arguments; undefined without them or without a messageId. */
function toBridgeEvent(
  log: RawLog,
  context: LogContext,
  decoded: { name: BridgeEventName; args: EventArgs } | undefined,
): BridgeEvent | undefined {
  if (decoded === undefined) return undefined;
  const messageId = decoded.args.messageId;
  if (typeof messageId !== "string") return undefined;
  return {
    chainId: context.chainId,
    blockNumber: log.blockNumber,
    blockHash: log.blockHash.toLowerCase() as Hex,
    blockTime: context.blockTime,
    txHash: log.transactionHash.toLowerCase() as Hex,
    logIndex: log.logIndex,
    address: checksum(log.address.toLowerCase()) as Hex,
    protocol: REFERENCE_PROTOCOL,
    kind: context.kind,
    name: decoded.name,
    role: ROLES[decoded.name],
    messageId: messageId.toLowerCase() as Hex,
    args: decoded.args,
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
