/**
 * The Across V3 SpokePool events the indexer decodes, as declared by the SpokePool ABI published
 * in `@across-protocol/contracts@5.0.27` (dist/evm/artifacts/SpokePool.sol/SpokePool.json; the
 * signatures are interface facts, no bytecode). Current SpokePools emit `FundsDeposited` /
 * `FilledRelay` (addresses as bytes32, uint256 deposit ids); SpokePools before the 2025 upgrade
 * emitted `V3FundsDeposited` / `FilledV3Relay` (addresses, uint32 deposit ids), still in the
 * history an indexer backfills.
 */
import { parseAbi, toEventSelector } from "viem";

export const ACROSS_EVENTS_ABI = parseAbi([
  "struct V3RelayExecutionEventInfo { bytes32 updatedRecipient; bytes32 updatedMessageHash; uint256 updatedOutputAmount; uint8 fillType; }",
  "struct LegacyV3RelayExecutionEventInfo { address updatedRecipient; bytes updatedMessage; uint256 updatedOutputAmount; uint8 fillType; }",
  "event FundsDeposited(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint256 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 indexed depositor, bytes32 recipient, bytes32 exclusiveRelayer, bytes message)",
  "event FilledRelay(bytes32 inputToken, bytes32 outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint256 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, bytes32 exclusiveRelayer, bytes32 indexed relayer, bytes32 depositor, bytes32 recipient, bytes32 messageHash, V3RelayExecutionEventInfo relayExecutionInfo)",
  "event V3FundsDeposited(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 indexed destinationChainId, uint32 indexed depositId, uint32 quoteTimestamp, uint32 fillDeadline, uint32 exclusivityDeadline, address indexed depositor, address recipient, address exclusiveRelayer, bytes message)",
  "event FilledV3Relay(address inputToken, address outputToken, uint256 inputAmount, uint256 outputAmount, uint256 repaymentChainId, uint256 indexed originChainId, uint32 indexed depositId, uint32 fillDeadline, uint32 exclusivityDeadline, address exclusiveRelayer, address indexed relayer, address depositor, address recipient, bytes message, LegacyV3RelayExecutionEventInfo relayExecutionInfo)",
]);

export const ACROSS_EVENT_NAMES = [
  "FundsDeposited",
  "FilledRelay",
  "V3FundsDeposited",
  "FilledV3Relay",
] as const;

/** topic0 of the four events (FundsDeposited 0x32ed1a40..., FilledRelay 0x44b559f1...). */
export const ACROSS_EVENT_TOPICS = ACROSS_EVENTS_ABI.filter((item) => item.type === "event").map(
  (item) => toEventSelector(item),
);
