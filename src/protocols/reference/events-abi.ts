/**
 * The reference bridge's events (contracts/interfaces/IBridge.sol) the indexer reads. Kept as
 * parsed human-readable ABI so the indexer does not depend on a compiled artifact.
 */
import { parseAbi, toEventSelector } from "viem";

export const BRIDGE_EVENTS_ABI = parseAbi([
  "event TransferSent(bytes32 indexed messageId, address indexed sender, address indexed recipient, uint256 destChainId, address sourceToken, uint256 sendAmount, address sourceBridgeToken, uint256 bridgeAmount, address destBridgeToken, uint256 destBridgeAmount, address destToken, uint256 minReceiveAmount, uint256 bridgeFee, uint256 xprotoFee, uint256 subsidy)",
  "event TransferDelivered(bytes32 indexed messageId, address indexed recipient, address destBridgeToken, uint256 destBridgeAmount, address destToken, uint256 receiveAmount)",
  "event TransferFailed(bytes32 indexed messageId, address indexed recipient, string reason)",
  "event TransferRefunded(bytes32 indexed messageId, address indexed sender, address token, uint256 amount)",
]);

export type BridgeEventName =
  | "TransferSent"
  | "TransferDelivered"
  | "TransferFailed"
  | "TransferRefunded";

/** topic0 of each event, for the eth_getLogs filter. */
export const BRIDGE_EVENT_TOPICS = BRIDGE_EVENTS_ABI.map((item) => toEventSelector(item));
