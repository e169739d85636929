/**
 * The parts of LayerZero V2's ABIs that indexing, quoting, executing and the devnet use, written
 * out by hand (human-readable, so viem infers the types) from the interfaces in
 * @layerzerolabs/oft-evm (IOFT.sol) and @layerzerolabs/lz-evm-protocol-v2
 * (ILayerZeroEndpointV2.sol, IMessagingChannel.sol). The event topics are checked against the
 * published artifacts' ABIs in abi.test.ts.
 */
import { parseAbi } from "viem";

const STRUCTS = [
  "struct Origin { uint32 srcEid; bytes32 sender; uint64 nonce; }",
  "struct SendParam { uint32 dstEid; bytes32 to; uint256 amountLD; uint256 minAmountLD; bytes extraOptions; bytes composeMsg; bytes oftCmd; }",
  "struct MessagingFee { uint256 nativeFee; uint256 lzTokenFee; }",
  "struct MessagingReceipt { bytes32 guid; uint64 nonce; MessagingFee fee; }",
  "struct OFTLimit { uint256 minAmountLD; uint256 maxAmountLD; }",
  "struct OFTFeeDetail { int256 feeAmountLD; string description; }",
  "struct OFTReceipt { uint256 amountSentLD; uint256 amountReceivedLD; }",
] as const;

/** OFT / OFTAdapter (IOFT plus OAppCore's peers and endpoint). */
export const oftAbi = parseAbi([
  ...STRUCTS,
  "event OFTSent(bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD, uint256 amountReceivedLD)",
  "event OFTReceived(bytes32 indexed guid, uint32 srcEid, address indexed toAddress, uint256 amountReceivedLD)",
  "function token() view returns (address)",
  "function approvalRequired() view returns (bool)",
  "function sharedDecimals() view returns (uint8)",
  "function decimalConversionRate() view returns (uint256)",
  "function endpoint() view returns (address)",
  "function peers(uint32 eid) view returns (bytes32)",
  "function quoteOFT(SendParam sendParam) view returns (OFTLimit limit, OFTFeeDetail[] feeDetails, OFTReceipt receipt)",
  "function quoteSend(SendParam sendParam, bool payInLzToken) view returns (MessagingFee fee)",
  "function send(SendParam sendParam, MessagingFee fee, address refundAddress) payable returns (MessagingReceipt msgReceipt, OFTReceipt oftReceipt)",
  "error SlippageExceeded(uint256 amountLD, uint256 minAmountLD)",
  "error AmountSDOverflowed(uint256 amountSD)",
  "error NoPeer(uint32 eid)",
  "error NotEnoughNative(uint256 msgValue)",
  "error ReceivePaused()",
]);

/** EndpointV2: the events of a packet's life and what the relayer calls. */
export const endpointAbi = parseAbi([
  ...STRUCTS,
  "event PacketSent(bytes encodedPayload, bytes options, address sendLibrary)",
  "event PacketVerified(Origin origin, address receiver, bytes32 payloadHash)",
  "event PacketDelivered(Origin origin, address receiver)",
  "event LzReceiveAlert(address indexed receiver, address indexed executor, Origin origin, bytes32 guid, uint256 gas, uint256 value, bytes message, bytes extraData, bytes reason)",
  "function eid() view returns (uint32)",
  "function inboundPayloadHash(address receiver, uint32 srcEid, bytes32 sender, uint64 nonce) view returns (bytes32)",
  "function lazyInboundNonce(address receiver, uint32 srcEid, bytes32 sender) view returns (uint64)",
  "function inboundNonce(address receiver, uint32 srcEid, bytes32 sender) view returns (uint64)",
  "function lzReceive(Origin origin, address receiver, bytes32 guid, bytes message, bytes extraData) payable",
  "function lzReceiveAlert(Origin origin, address receiver, bytes32 guid, uint256 gas, uint256 value, bytes message, bytes extraData, bytes reason)",
  "event ComposeSent(address from, address to, bytes32 guid, uint16 index, bytes message)",
  "event ComposeDelivered(address from, address to, bytes32 guid, uint16 index)",
  "event LzComposeAlert(address indexed from, address indexed to, address indexed executor, bytes32 guid, uint16 index, uint256 gas, uint256 value, bytes message, bytes extraData, bytes reason)",
  "function composeQueue(address from, address to, bytes32 guid, uint16 index) view returns (bytes32 messageHash)",
  "function lzCompose(address from, address to, bytes32 guid, uint16 index, bytes message, bytes extraData) payable",
  "function lzComposeAlert(address from, address to, bytes32 guid, uint16 index, uint256 gas, uint256 value, bytes message, bytes extraData, bytes reason)",
  "function quote((uint32 dstEid, bytes32 receiver, bytes message, bytes options, bool payInLzToken) params, address sender) view returns (MessagingFee fee)",
  "function registerLibrary(address lib)",
  "function setDefaultSendLibrary(uint32 eid, address newLib)",
  "function setDefaultReceiveLibrary(uint32 eid, address newLib, uint256 gracePeriod)",
  "function defaultSendLibrary(uint32 eid) view returns (address)",
]);

/** SimpleMessageLib: the "DVN" step and its flat fee. */
export const simpleMessageLibAbi = parseAbi([
  "function validatePacket(bytes packetBytes)",
  "function setMessagingFee(uint256 nativeFee, uint256 lzTokenFee)",
  "function nativeFee() view returns (uint256)",
]);

/** Our concrete wrappers' devnet knobs (contracts/layerzero/). */
export const devnetOftAbi = parseAbi([
  "function mint(address to, uint256 amount)",
  "function setReceivePaused(bool paused)",
  "function receivePaused() view returns (bool)",
  "function setPeer(uint32 eid, bytes32 peer)",
]);

/**
 * Our periphery (contracts/layerzero/OftSwapSender.sol, OftSwapComposer.sol): a source swap
 * before OFT.send in one transaction, and a destination swap run by LayerZero's compose.
 * Checked against the compiled ABIs in periphery.test.ts.
 */
export const oftSwapSenderAbi = parseAbi([
  ...STRUCTS,
  "struct SwapSendParam { address oft; address tokenIn; uint256 amountIn; uint256 minAmountOut; uint32 dstEid; bytes32 to; uint256 minAmountLD; bytes extraOptions; bytes composeMsg; address refundAddress; }",
  "function swapAdapter() view returns (address)",
  "function swapAndSend(SwapSendParam p) payable returns (MessagingReceipt msgReceipt, OFTReceipt oftReceipt)",
  "event OftSwapSent(bytes32 indexed guid, address indexed sender, address indexed oft, address tokenIn, uint256 amountIn, uint256 amountSwapped, uint256 amountSentLD, uint256 amountReceivedLD)",
  "error ZeroAmount()",
  "error ZeroRefundAddress()",
  "error Reentered()",
  "error SlippageExceeded(uint256 amountLD, uint256 minAmountLD)",
  "error SafeERC20FailedOperation(address token)",
]);

export const oftSwapComposerAbi = parseAbi([
  "function endpoint() view returns (address)",
  "function swapAdapter() view returns (address)",
  "function trustedOft(address oft) view returns (bool)",
  "function lzCompose(address from, bytes32 guid, bytes message, address executor, bytes extraData) payable",
  "event ComposeSwapped(bytes32 indexed guid, address indexed oft, address indexed recipient, address tokenOut, uint256 amountIn, uint256 amountOut)",
  "event ComposeFallback(bytes32 indexed guid, address indexed oft, address indexed recipient, address token, uint256 amount, bytes reason)",
  "error OnlyEndpoint(address caller)",
  "error UntrustedOft(address oft)",
  "error InvalidComposeMsg()",
  "error NativeValueRefused(uint256 value)",
  "error SwapOutOfGas()",
  "error Reentered()",
  "error SafeERC20FailedOperation(address token)",
]);

export const erc20Abi = parseAbi([
  "function approve(address spender, uint256 amount) returns (bool)",
  "function allowance(address owner, address spender) view returns (uint256)",
  "function balanceOf(address owner) view returns (uint256)",
  "function totalSupply() view returns (uint256)",
  "function decimals() view returns (uint8)",
  "function symbol() view returns (string)",
]);
