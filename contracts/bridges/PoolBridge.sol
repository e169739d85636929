// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {BridgeMessage, BridgeParams} from "../interfaces/IBridge.sol";
import {IERC20} from "../interfaces/IERC20.sol";
import {BridgeBase} from "./BridgeBase.sol";

/// Bridge kind 1, liquidity pools: each chain's bridge holds a pool per token, fed by liquidity
/// providers. Sent tokens stay in the source pool; delivery pays from the destination pool and
/// fails (to be refunded) when the pool cannot cover it. Chains are named by pool ids.
contract PoolBridge is BridgeBase {
    mapping(address => mapping(address => uint256)) public liquidityOf;

    event LiquidityAdded(address indexed provider, address indexed token, uint256 amount);
    event LiquidityRemoved(address indexed provider, address indexed token, uint256 amount);

    constructor(uint256 localChainId_, address router_, address relayer_)
        BridgeBase(localChainId_, router_, relayer_)
    {}

    function deliver(BridgeMessage calldata m) external onlyRelayer {
        _deliver(m);
    }

    function addLiquidity(address token, uint256 amount) external {
        require(IERC20(token).transferFrom(msg.sender, address(this), amount), "Pool: pull failed");
        liquidityOf[msg.sender][token] += amount;
        emit LiquidityAdded(msg.sender, token, amount);
    }

    /// Providers take back at most what they added and what the pool can pay right now.
    function removeLiquidity(address token, uint256 amount) external {
        require(liquidityOf[msg.sender][token] >= amount, "Pool: more than provided");
        require(_ownLiquidity(token) >= amount, "Pool: insufficient liquidity");
        liquidityOf[msg.sender][token] -= amount;
        _send(token, msg.sender, amount);
        emit LiquidityRemoved(msg.sender, token, amount);
    }

    function availableLiquidity(address token) public view override returns (uint256) {
        return _ownLiquidity(token);
    }

    function _dispatch(BridgeParams calldata, Charge memory) internal override returns (bytes32) {
        return _nextMessageId();
    }

    /// The sent tokens simply stay in the pool.
    function _takeIn(address, uint256) internal override {}

    function _obtain(address token, uint256 amount) internal view override {
        require(_ownLiquidity(token) >= amount, "Bridge: insufficient pool liquidity");
    }

    function _release(address token, address to, uint256 amount) internal override {
        _send(token, to, amount);
    }
}
