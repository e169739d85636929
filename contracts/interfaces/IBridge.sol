// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Route parameters of interface.md 2.4 `params`, amounts in base units. The same struct is the
/// entry point of all three bridge kinds (see docs/protocol.md).
struct BridgeParams {
    uint256 destChainId;        // in the bridge kind's own chain-id scheme
    address sourceToken;        // 0x0 = native coin (wrapped into WETH first)
    address destToken;
    uint256 amount;             // of sourceToken
    uint256 fee;                // max total fee (bridge + messaging) in source bridge token units
    address to;
    bool sourceSwap;
    uint256 sourceSwapFee;      // informational (DEX fee of the source swap)
    address sourceBridgeToken;
    uint256 sourceMinAmount;    // min bridge-token output of the source swap
    bool destSwap;
    uint256 destSwapFee;        // informational
    address destBridgeToken;
    uint256 destMinAmount;      // min amount of destToken the recipient gets
}

/// What travels from the source bridge to the destination bridge.
struct BridgeMessage {
    bytes32 messageId;
    uint256 srcChainId;         // source chain in the kind's own scheme
    address sender;
    address recipient;
    address destBridgeToken;
    uint256 amount;             // net bridge-token amount in destBridgeToken base units
    bool destSwap;
    address destToken;
    uint256 destMinAmount;
}

interface IBridge {
    /// Source chain: a transfer left. All amounts in base units of their tokens.
    event TransferSent(
        bytes32 indexed messageId,
        address indexed sender,
        address indexed recipient,
        uint256 destChainId,
        address sourceToken,
        uint256 sendAmount,
        address sourceBridgeToken,
        uint256 bridgeAmount,       // source bridge token amount after the source swap, before fees
        address destBridgeToken,
        uint256 destBridgeAmount,   // net amount that will arrive, in destBridgeToken base units
        address destToken,
        uint256 minReceiveAmount,   // = params.destMinAmount
        uint256 bridgeFee,          // in source bridge token units
        uint256 xprotoFee,          // messaging protocol fee, source bridge token units (kind 2)
        uint256 subsidy             // paid to the recipient on delivery, destBridgeToken units
    );

    /// Destination chain: the recipient got `receiveAmount` of `destToken`.
    event TransferDelivered(
        bytes32 indexed messageId,
        address indexed recipient,
        address destBridgeToken,
        uint256 destBridgeAmount,
        address destToken,
        uint256 receiveAmount
    );

    /// Destination chain: the delivery could not meet its terms; the source will refund.
    event TransferFailed(bytes32 indexed messageId, address indexed recipient, string reason);

    /// Source chain: a failed transfer was returned to its sender (source bridge token).
    event TransferRefunded(bytes32 indexed messageId, address indexed sender, address token, uint256 amount);

    function bridge(BridgeParams calldata p) external payable returns (bytes32 messageId);

    /// Source chain, relayer only: pays the net amount of a failed transfer back to its sender, once.
    function refund(bytes32 messageId) external;

    /// Fee and limit rules of `token` (source bridge token units): docs/protocol.md step 4-5.
    function tokenConfig(address token)
        external
        view
        returns (uint256 feeBps, uint256 flatFee, uint256 minAmount, uint256 maxAmount);

    /// The counterpart of `sourceBridgeToken` on `destChainId` (kind's scheme); 0x0 if not carried.
    function destTokenOf(address sourceBridgeToken, uint256 destChainId) external view returns (address);

    /// What a delivery of `token` on this chain can pay out (type(uint256).max when minted).
    function availableLiquidity(address token) external view returns (uint256);

    /// Messaging fee to `destChainId` in source bridge token base units (0 for kinds 0 and 1).
    function xprotoFee(uint256 destChainId) external view returns (uint256);
}
