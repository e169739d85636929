// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BridgeMessage, BridgeParams, IBridge} from "../interfaces/IBridge.sol";
import {IERC20, IWETH} from "../interfaces/IERC20.sol";
import {ISwapAdapter} from "../interfaces/IDex.sol";
import {Owned} from "../access/Owned.sol";

/// The bridge rules shared by all kinds (docs/protocol.md "Bridge entry" and "Delivery"). A kind
/// only decides how value leaves (`_takeIn`), how it arrives (`_obtain`), how a refund is paid
/// (`_release`) and how the message id is made (`_dispatch`).
abstract contract BridgeBase is IBridge, Owned {
    struct TokenConfig {
        uint256 feeBps;
        uint256 flatFee;
        uint256 minAmount;
        uint256 maxAmount; // 0: no per-transfer cap
    }

    struct Link {
        address destToken;
        uint8 destDecimals;
    }

    /// Fees and amounts of one outgoing transfer (source bridge token units unless named dest).
    struct Charge {
        uint256 bridgeAmount;
        uint256 bridgeFee;
        uint256 xprotoFee;
        uint256 net;
        uint256 destBridgeAmount;
    }

    /// What a refund pays back: the net amount in the source bridge token.
    struct PendingTransfer {
        address sender;
        address token;
        uint256 amount;
        bool refunded;
    }

    enum Delivery {
        None,
        Delivered,
        Failed
    }

    /// This chain in the kind's chain-id scheme.
    uint256 public immutable localChainId;
    /// Our swap adapter over Uniswap V2 and V3 (contracts/dex/SwapAdapter.sol).
    ISwapAdapter public immutable router;
    IWETH public immutable weth;
    address public relayer;
    uint256 public nonce;

    mapping(address => TokenConfig) private configs;
    mapping(address => mapping(uint256 => Link)) public links;
    mapping(uint256 => address) public remoteBridgeOf;
    /// Bridge fees kept by the contract; never part of locked or pooled liquidity.
    mapping(address => uint256) public accruedFees;
    mapping(bytes32 => PendingTransfer) public pendingTransfers;
    mapping(bytes32 => Delivery) public deliveryStatus;

    event RelayerSet(address indexed relayer);
    event TokenConfigSet(address indexed token, uint256 feeBps, uint256 flatFee, uint256 minAmount, uint256 maxAmount);
    event LinkSet(address indexed token, uint256 indexed destChainId, address destToken, uint8 destDecimals);
    event RemoteBridgeSet(uint256 indexed chainId, address bridge);

    modifier onlyRelayer() {
        require(msg.sender == relayer, "Bridge: not the relayer");
        _;
    }

    constructor(uint256 localChainId_, address router_, address relayer_) {
        localChainId = localChainId_;
        router = ISwapAdapter(router_);
        weth = IWETH(ISwapAdapter(router_).WETH());
        relayer = relayer_;
        emit RelayerSet(relayer_);
    }

    /// Only WETH unwrapping sends native coin here (destination swaps into the native coin).
    receive() external payable {
        require(msg.sender == address(weth), "Bridge: native coin only from WETH");
    }

    // ---------------------------------------------------------------- owner setters

    function setRelayer(address relayer_) external onlyOwner {
        relayer = relayer_;
        emit RelayerSet(relayer_);
    }

    function setTokenConfig(address token, uint256 feeBps, uint256 flatFee, uint256 minAmount, uint256 maxAmount)
        external
        onlyOwner
    {
        require(feeBps <= 10_000, "Bridge: fee bps above 100%");
        configs[token] = TokenConfig(feeBps, flatFee, minAmount, maxAmount);
        emit TokenConfigSet(token, feeBps, flatFee, minAmount, maxAmount);
    }

    function setRemoteBridge(uint256 chainId, address remote) external onlyOwner {
        remoteBridgeOf[chainId] = remote;
        emit RemoteBridgeSet(chainId, remote);
    }

    /// `token` here is carried to `destChainId` as `destToken` (with `destDecimals` decimals).
    function setLink(address token, uint256 destChainId, address destToken, uint8 destDecimals) external onlyOwner {
        links[token][destChainId] = Link(destToken, destDecimals);
        emit LinkSet(token, destChainId, destToken, destDecimals);
    }

    function withdrawFees(address token, address to) external onlyOwner {
        uint256 amount = accruedFees[token];
        accruedFees[token] = 0;
        _send(token, to, amount);
    }

    // ---------------------------------------------------------------- views

    function tokenConfig(address token)
        external
        view
        returns (uint256 feeBps, uint256 flatFee, uint256 minAmount, uint256 maxAmount)
    {
        TokenConfig memory c = configs[token];
        return (c.feeBps, c.flatFee, c.minAmount, c.maxAmount);
    }

    function destTokenOf(address sourceBridgeToken, uint256 destChainId) external view returns (address) {
        return links[sourceBridgeToken][destChainId].destToken;
    }

    function availableLiquidity(address) public view virtual returns (uint256) {
        return type(uint256).max;
    }

    function xprotoFee(uint256) public view virtual returns (uint256) {
        return 0;
    }

    /// The DEX path rule of docs/protocol.md (the adapter's): direct, else one hop through WETH.
    function swapPath(address tokenIn, address tokenOut) public view returns (address[] memory path) {
        return router.swapPath(tokenIn, tokenOut);
    }

    // ---------------------------------------------------------------- source side

    function bridge(BridgeParams calldata p) external payable returns (bytes32 messageId) {
        uint256 bridgeAmount = _pullAndSwap(p);
        uint8 destDecimals = _checkRoute(p);
        Charge memory c = _charge(p, bridgeAmount, destDecimals);
        _checkDestination(p, c.destBridgeAmount);
        accruedFees[p.sourceBridgeToken] += c.bridgeFee;
        messageId = _dispatch(p, c);
        _takeIn(p.sourceBridgeToken, c.net);
        pendingTransfers[messageId] = PendingTransfer(msg.sender, p.sourceBridgeToken, c.net, false);
        _emitSent(messageId, p, c);
    }

    /// Relayer only, after the destination emitted TransferFailed: repays the net amount once.
    function refund(bytes32 messageId) external onlyRelayer {
        PendingTransfer storage t = pendingTransfers[messageId];
        require(t.sender != address(0), "Bridge: unknown transfer");
        require(!t.refunded, "Bridge: already refunded");
        t.refunded = true;
        _release(t.token, t.sender, t.amount);
        emit TransferRefunded(messageId, t.sender, t.token, t.amount);
    }

    /// Steps 1-2: take the input (wrapping native coin) and swap it into the bridge token.
    function _pullAndSwap(BridgeParams calldata p) private returns (uint256 bridgeAmount) {
        address token = p.sourceToken;
        if (token == address(0)) {
            require(msg.value == p.amount, "Bridge: msg.value must equal amount");
            weth.deposit{value: msg.value}();
            token = address(weth);
        } else {
            require(msg.value == 0, "Bridge: unexpected native coin");
            require(IERC20(token).transferFrom(msg.sender, address(this), p.amount), "Bridge: pull failed");
        }
        if (!p.sourceSwap) {
            require(token == p.sourceBridgeToken, "Bridge: source token is not the bridge token");
            return p.amount;
        }
        require(token != p.sourceBridgeToken, "Bridge: source swap to the same token");
        return _swap(token, p.sourceBridgeToken, p.amount, p.sourceMinAmount, address(this));
    }

    /// Step 3: the bridge token goes to destChainId as exactly p.destBridgeToken.
    function _checkRoute(BridgeParams calldata p) private view returns (uint8 destDecimals) {
        require(remoteBridgeOf[p.destChainId] != address(0), "Bridge: unknown destination chain");
        Link memory link = links[p.sourceBridgeToken][p.destChainId];
        require(link.destToken != address(0), "Bridge: token not carried to destination");
        require(link.destToken == p.destBridgeToken, "Bridge: wrong destination bridge token");
        return link.destDecimals;
    }

    /// Steps 4-6: fees (never above p.fee), limits, net amount in destination decimals.
    function _charge(BridgeParams calldata p, uint256 bridgeAmount, uint8 destDecimals)
        private
        view
        returns (Charge memory c)
    {
        TokenConfig memory config = configs[p.sourceBridgeToken];
        c.bridgeAmount = bridgeAmount;
        c.xprotoFee = xprotoFee(p.destChainId);
        uint256 basis = p.sourceSwap ? p.sourceMinAmount : p.amount;
        require(p.fee >= _bridgeFee(config, basis) + c.xprotoFee, "Bridge: fee below required");
        uint256 fullFee = _bridgeFee(config, bridgeAmount);
        uint256 feeCap = p.fee - c.xprotoFee;
        c.bridgeFee = fullFee < feeCap ? fullFee : feeCap;
        require(bridgeAmount >= config.minAmount, "Bridge: amount below minimum");
        require(config.maxAmount == 0 || bridgeAmount <= config.maxAmount, "Bridge: amount above maximum");
        require(bridgeAmount > c.bridgeFee + c.xprotoFee, "Bridge: amount does not cover fees");
        c.net = bridgeAmount - c.bridgeFee - c.xprotoFee;
        c.destBridgeAmount = _convertDecimals(c.net, IERC20(p.sourceBridgeToken).decimals(), destDecimals);
        require(c.destBridgeAmount > 0, "Bridge: amount too small");
    }

    /// Step 7: without a destination swap the recipient must already get destMinAmount here.
    function _checkDestination(BridgeParams calldata p, uint256 destBridgeAmount) private pure {
        require(p.to != address(0), "Bridge: zero recipient");
        if (p.destSwap) {
            require(p.destToken != p.destBridgeToken, "Bridge: destination swap to the same token");
        } else {
            require(p.destToken == p.destBridgeToken, "Bridge: destination token is not the bridge token");
            require(destBridgeAmount >= p.destMinAmount, "Bridge: below destMinAmount");
        }
    }

    function _emitSent(bytes32 messageId, BridgeParams calldata p, Charge memory c) private {
        emit TransferSent(
            messageId,
            msg.sender,
            p.to,
            p.destChainId,
            p.sourceToken,
            p.amount,
            p.sourceBridgeToken,
            c.bridgeAmount,
            p.destBridgeToken,
            c.destBridgeAmount,
            p.destToken,
            p.destMinAmount,
            c.bridgeFee,
            c.xprotoFee,
            0
        );
    }

    /// The message the destination bridge acts on (messageId filled by the caller).
    function _message(BridgeParams calldata p, Charge memory c) internal view returns (BridgeMessage memory m) {
        m.srcChainId = localChainId;
        m.sender = msg.sender;
        m.recipient = p.to;
        m.destBridgeToken = p.destBridgeToken;
        m.amount = c.destBridgeAmount;
        m.destSwap = p.destSwap;
        m.destToken = p.destToken;
        m.destMinAmount = p.destMinAmount;
    }

    /// A message id unique across chains and bridges: (EVM chain id, this bridge, nonce).
    function _nextMessageId() internal returns (bytes32) {
        return keccak256(abi.encode(block.chainid, address(this), ++nonce));
    }

    // ---------------------------------------------------------------- destination side

    /// Idempotent per message id: a second delivery reverts. Anything that goes wrong inside
    /// `executeDelivery` is undone by its revert and recorded as TransferFailed.
    function _deliver(BridgeMessage memory m) internal {
        require(deliveryStatus[m.messageId] == Delivery.None, "Bridge: already processed");
        // Only tokens this bridge carries back to the source chain are minted, unlocked or paid.
        require(remoteBridgeOf[m.srcChainId] != address(0), "Bridge: unknown source chain");
        require(links[m.destBridgeToken][m.srcChainId].destToken != address(0), "Bridge: token not carried");
        uint256 gasBefore = gasleft();
        try this.executeDelivery(m) returns (uint256 received) {
            deliveryStatus[m.messageId] = Delivery.Delivered;
            emit TransferDelivered(m.messageId, m.recipient, m.destBridgeToken, m.amount, m.destToken, received);
        } catch Error(string memory reason) {
            _fail(m, reason, gasBefore);
        } catch {
            _fail(m, "Bridge: delivery reverted", gasBefore);
        }
    }

    /// A delivery that ran out of gas is not a failed transfer: revert so the relayer retries
    /// with more gas. An out-of-gas anywhere inside leaves about 1/64 of the gas per call level
    /// (bridge, adapter, Uniswap router or quoter, pool, callback, token: about 9 % after six
    /// levels), so less than 1/8 left means out of gas.
    function _fail(BridgeMessage memory m, string memory reason, uint256 gasBefore) private {
        require(gasleft() > gasBefore / 8, "Bridge: delivery out of gas");
        deliveryStatus[m.messageId] = Delivery.Failed;
        emit TransferFailed(m.messageId, m.recipient, reason);
    }

    /// Self-call only (the try/catch boundary of `_deliver`).
    function executeDelivery(BridgeMessage calldata m) external returns (uint256 received) {
        require(msg.sender == address(this), "Bridge: internal");
        _obtain(m.destBridgeToken, m.amount);
        if (!m.destSwap) {
            require(m.amount >= m.destMinAmount, "Bridge: below destMinAmount");
            _send(m.destBridgeToken, m.recipient, m.amount);
            return m.amount;
        }
        if (m.destToken != address(0)) {
            return _swap(m.destBridgeToken, m.destToken, m.amount, m.destMinAmount, m.recipient);
        }
        received = _swap(m.destBridgeToken, address(weth), m.amount, m.destMinAmount, address(this));
        weth.withdraw(received);
        (bool ok,) = m.recipient.call{value: received}("");
        require(ok, "Bridge: native transfer failed");
    }

    // ---------------------------------------------------------------- helpers and kind hooks

    function _swap(address tokenIn, address tokenOut, uint256 amountIn, uint256 minOut, address to)
        internal
        returns (uint256)
    {
        IERC20(tokenIn).approve(address(router), amountIn);
        return router.swapExactIn(tokenIn, tokenOut, amountIn, minOut, to);
    }

    function _send(address token, address to, uint256 amount) internal {
        require(IERC20(token).transfer(to, amount), "Bridge: transfer failed");
    }

    function _bridgeFee(TokenConfig memory config, uint256 amount) private pure returns (uint256) {
        return config.flatFee + (amount * config.feeBps) / 10_000;
    }

    /// Rounds down when the destination has fewer decimals.
    function _convertDecimals(uint256 amount, uint8 fromDecimals, uint8 toDecimals) private pure returns (uint256) {
        if (toDecimals >= fromDecimals) return amount * 10 ** (toDecimals - fromDecimals);
        return amount / 10 ** (fromDecimals - toDecimals);
    }

    /// The bridge's own liquidity of `token`: its balance minus the fees it keeps.
    function _ownLiquidity(address token) internal view returns (uint256) {
        uint256 balance = IERC20(token).balanceOf(address(this));
        uint256 fees = accruedFees[token];
        return balance > fees ? balance - fees : 0;
    }

    /// Makes the message id and sends the message (kind 2 pays the messaging fee here).
    function _dispatch(BridgeParams calldata p, Charge memory c) internal virtual returns (bytes32);

    /// Source: the bridge holds `amount` (net) of `token`; lock, burn or pool it.
    function _takeIn(address token, uint256 amount) internal virtual;

    /// Destination: make `amount` of `token` payable from this contract, or revert (-> failed).
    function _obtain(address token, uint256 amount) internal virtual;

    /// Source: pay a refund of `amount` of `token` to `to`.
    function _release(address token, address to, uint256 amount) internal virtual;
}
