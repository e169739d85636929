// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BridgeMessage, BridgeParams} from "../interfaces/IBridge.sol";
import {IERC20, IMintableToken} from "../interfaces/IERC20.sol";
import {IMessageReceiver, IMessagingEndpoint} from "../interfaces/IMessaging.sol";
import {BridgeBase} from "./BridgeBase.sol";

/// Bridge kind 2, burn-and-mint over a messaging endpoint. Chains are named by endpoint ids; the
/// message id is the endpoint's packet guid; the endpoint's messageFee is the xprotoFee, paid by
/// the bridge out of the transfer. This bridge must be a minter of the tokens it carries.
contract MessagingBridge is BridgeBase, IMessageReceiver {
    IMessagingEndpoint public immutable endpoint;

    constructor(address endpoint_, address router_, address relayer_)
        BridgeBase(IMessagingEndpoint(endpoint_).eid(), router_, relayer_)
    {
        endpoint = IMessagingEndpoint(endpoint_);
    }

    function xprotoFee(uint256 destChainId) public view override returns (uint256) {
        return endpoint.messageFee(uint32(destChainId));
    }

    /// Called by the endpoint when the executor delivers a packet from a linked bridge.
    function receiveMessage(bytes32 guid, uint32 srcEid, address sender, bytes calldata payload) external {
        require(msg.sender == address(endpoint), "Bridge: not the endpoint");
        require(sender != address(0) && sender == remoteBridgeOf[srcEid], "Bridge: unknown source bridge");
        BridgeMessage memory m = abi.decode(payload, (BridgeMessage));
        m.messageId = guid;
        _deliver(m);
    }

    /// Pays the messaging fee (the endpoint pulls it) and sends the message as the payload.
    function _dispatch(BridgeParams calldata p, Charge memory c) internal override returns (bytes32 guid) {
        require(p.sourceBridgeToken == endpoint.feeToken(), "Bridge: fee token mismatch");
        IERC20(p.sourceBridgeToken).approve(address(endpoint), c.xprotoFee);
        BridgeMessage memory m = _message(p, c);
        guid = endpoint.send(uint32(p.destChainId), remoteBridgeOf[p.destChainId], abi.encode(m));
    }

    function _takeIn(address token, uint256 amount) internal override {
        IMintableToken(token).burn(amount);
    }

    function _obtain(address token, uint256 amount) internal override {
        IMintableToken(token).mint(address(this), amount);
    }

    function _release(address token, address to, uint256 amount) internal override {
        IMintableToken(token).mint(to, amount);
    }
}
