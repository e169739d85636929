// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BridgeMessage, BridgeParams} from "../interfaces/IBridge.sol";
import {IMintableToken} from "../interfaces/IERC20.sol";
import {BridgeBase} from "./BridgeBase.sol";

/// Bridge kind 0, lock-and-mint. On the canonical token's home chain it locks on departure and
/// unlocks on arrival; for a wrapped token (minted by this bridge) it burns and mints. Chains are
/// named by EVM chain id. `maxAmount` of the token config is the per-transfer cap.
contract LockMintBridge is BridgeBase {
    /// Tokens this bridge mints and burns (it must be their minter); others are locked.
    mapping(address => bool) public isWrapped;

    event WrappedSet(address indexed token, bool wrapped);

    constructor(uint256 localChainId_, address router_, address relayer_)
        BridgeBase(localChainId_, router_, relayer_)
    {}

    function setWrapped(address token, bool wrapped) external onlyOwner {
        isWrapped[token] = wrapped;
        emit WrappedSet(token, wrapped);
    }

    function deliver(BridgeMessage calldata m) external onlyRelayer {
        _deliver(m);
    }

    /// Locked balance for a canonical token; unlimited for a wrapped one.
    function availableLiquidity(address token) public view override returns (uint256) {
        return isWrapped[token] ? type(uint256).max : _ownLiquidity(token);
    }

    function _dispatch(BridgeParams calldata, Charge memory) internal override returns (bytes32) {
        return _nextMessageId();
    }

    function _takeIn(address token, uint256 amount) internal override {
        if (isWrapped[token]) IMintableToken(token).burn(amount);
    }

    function _obtain(address token, uint256 amount) internal override {
        if (isWrapped[token]) IMintableToken(token).mint(address(this), amount);
        else require(_ownLiquidity(token) >= amount, "Bridge: insufficient locked balance");
    }

    function _release(address token, address to, uint256 amount) internal override {
        if (isWrapped[token]) IMintableToken(token).mint(to, amount);
        else _send(token, to, amount);
    }
}
