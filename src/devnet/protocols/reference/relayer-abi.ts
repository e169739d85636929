/**
 * The slice of the devnet contracts' ABI that the relayer and the traffic generator use, typed
 * through viem's parseAbi so decoded logs and call arguments are checked at compile time. The
 * signatures mirror contracts/interfaces/IBridge.sol and the bridge/endpoint contracts; the
 * devnet tests fail if they drift.
 */
import { parseAbi } from "viem";

const BRIDGE_MESSAGE =
  "(bytes32 messageId, uint256 srcChainId, address sender, address recipient, address destBridgeToken, uint256 amount, bool destSwap, address destToken, uint256 destMinAmount)";

const BRIDGE_PARAMS =
  "(uint256 destChainId, address sourceToken, address destToken, uint256 amount, uint256 fee, address to, bool sourceSwap, uint256 sourceSwapFee, address sourceBridgeToken, uint256 sourceMinAmount, bool destSwap, uint256 destSwapFee, address destBridgeToken, uint256 destMinAmount)";

/** The four transfer events every bridge kind emits (IBridge). */
export const bridgeEventsAbi = parseAbi([
  "event TransferSent(bytes32 indexed messageId, address indexed sender, address indexed recipient, uint256 destChainId, address sourceToken, uint256 sendAmount, address sourceBridgeToken, uint256 bridgeAmount, address destBridgeToken, uint256 destBridgeAmount, address destToken, uint256 minReceiveAmount, uint256 bridgeFee, uint256 xprotoFee, uint256 subsidy)",
  "event TransferDelivered(bytes32 indexed messageId, address indexed recipient, address destBridgeToken, uint256 destBridgeAmount, address destToken, uint256 receiveAmount)",
  "event TransferFailed(bytes32 indexed messageId, address indexed recipient, string reason)",
  "event TransferRefunded(bytes32 indexed messageId, address indexed sender, address token, uint256 amount)",
]);

/** Relayer-only entry points of the bridges: kinds 0 and 1 deliver directly, all kinds refund. */
export const bridgeRelayAbi = parseAbi([
  `function deliver(${BRIDGE_MESSAGE} m)`,
  "function refund(bytes32 messageId)",
]);

/** The messaging endpoint (kind 2): PacketSent carries the payload the relayer hands back. */
export const endpointAbi = parseAbi([
  "event PacketSent(bytes32 indexed guid, uint32 srcEid, uint32 dstEid, address sender, address receiver, bytes payload)",
  "function deliver(bytes32 guid, uint32 srcEid, address sender, address receiver, bytes payload)",
  "function messageFee(uint32 dstEid) view returns (uint256)",
]);

/** What the traffic generator calls on a bridge. */
export const bridgeEntryAbi = parseAbi([
  `function bridge(${BRIDGE_PARAMS} p) payable returns (bytes32 messageId)`,
  "function tokenConfig(address token) view returns (uint256 feeBps, uint256 flatFee, uint256 minAmount, uint256 maxAmount)",
  "function availableLiquidity(address token) view returns (uint256)",
  "function xprotoFee(uint256 destChainId) view returns (uint256)",
]);

export const erc20Abi = parseAbi([
  "function balanceOf(address owner) view returns (uint256)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 amount) returns (bool)",
]);
