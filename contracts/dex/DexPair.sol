// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "../interfaces/IERC20.sol";

/// Constant-product pair (Uniswap V2 without the LP-token ERC-20, flash swaps and price oracle).
/// Invariant after every swap: (balance0*1000 - in0*3) * (balance1*1000 - in1*3) >= reserve0*reserve1*1000^2,
/// i.e. the 0.3 % fee of docs/protocol.md stays in the pool.
contract DexPair {
    uint256 private constant MINIMUM_LIQUIDITY = 1000;

    address public immutable factory;
    address public token0;
    address public token1;

    uint112 private reserve0;
    uint112 private reserve1;
    uint32 private blockTimestampLast;

    /// Liquidity shares; not transferable (the devnet never removes liquidity).
    uint256 public totalSupply;
    mapping(address => uint256) public liquidityOf;

    bool private locked;

    event Mint(address indexed sender, uint256 amount0, uint256 amount1, address indexed to, uint256 liquidity);
    event Swap(
        address indexed sender,
        uint256 amount0In,
        uint256 amount1In,
        uint256 amount0Out,
        uint256 amount1Out,
        address indexed to
    );
    event Sync(uint112 reserve0, uint112 reserve1);

    modifier lock() {
        require(!locked, "DexPair: locked");
        locked = true;
        _;
        locked = false;
    }

    constructor() {
        factory = msg.sender;
    }

    function initialize(address token0_, address token1_) external {
        require(msg.sender == factory && token0 == address(0), "DexPair: forbidden");
        token0 = token0_;
        token1 = token1_;
    }

    function getReserves() public view returns (uint112, uint112, uint32) {
        return (reserve0, reserve1, blockTimestampLast);
    }

    /// Credits liquidity for the tokens sent to the pair since the last sync.
    function mint(address to) external lock returns (uint256 liquidity) {
        uint256 balance0 = IERC20(token0).balanceOf(address(this));
        uint256 balance1 = IERC20(token1).balanceOf(address(this));
        uint256 amount0 = balance0 - reserve0;
        uint256 amount1 = balance1 - reserve1;
        if (totalSupply == 0) {
            liquidity = _sqrt(amount0 * amount1) - MINIMUM_LIQUIDITY;
            totalSupply = MINIMUM_LIQUIDITY; // locked forever, as in Uniswap V2
        } else {
            uint256 by0 = (amount0 * totalSupply) / reserve0;
            uint256 by1 = (amount1 * totalSupply) / reserve1;
            liquidity = by0 < by1 ? by0 : by1;
        }
        require(liquidity > 0, "DexPair: insufficient liquidity minted");
        totalSupply += liquidity;
        liquidityOf[to] += liquidity;
        _update(balance0, balance1);
        emit Mint(msg.sender, amount0, amount1, to, liquidity);
    }

    /// Sends the outputs, then checks that the inputs (sent beforehand) keep the fee-adjusted k.
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external lock {
        require(amount0Out > 0 || amount1Out > 0, "DexPair: insufficient output amount");
        require(amount0Out < reserve0 && amount1Out < reserve1, "DexPair: insufficient liquidity");
        require(to != token0 && to != token1, "DexPair: invalid to");
        if (amount0Out > 0) _safeTransfer(token0, to, amount0Out);
        if (amount1Out > 0) _safeTransfer(token1, to, amount1Out);
        uint256 balance0 = IERC20(token0).balanceOf(address(this));
        uint256 balance1 = IERC20(token1).balanceOf(address(this));
        uint256 amount0In = balance0 > reserve0 - amount0Out ? balance0 - (reserve0 - amount0Out) : 0;
        uint256 amount1In = balance1 > reserve1 - amount1Out ? balance1 - (reserve1 - amount1Out) : 0;
        require(amount0In > 0 || amount1In > 0, "DexPair: insufficient input amount");
        uint256 adjusted0 = balance0 * 1000 - amount0In * 3;
        uint256 adjusted1 = balance1 * 1000 - amount1In * 3;
        require(adjusted0 * adjusted1 >= uint256(reserve0) * reserve1 * 1_000_000, "DexPair: K");
        _update(balance0, balance1);
        emit Swap(msg.sender, amount0In, amount1In, amount0Out, amount1Out, to);
    }

    function _update(uint256 balance0, uint256 balance1) private {
        require(balance0 <= type(uint112).max && balance1 <= type(uint112).max, "DexPair: overflow");
        reserve0 = uint112(balance0);
        reserve1 = uint112(balance1);
        blockTimestampLast = uint32(block.timestamp);
        emit Sync(reserve0, reserve1);
    }

    function _safeTransfer(address token, address to, uint256 value) private {
        require(IERC20(token).transfer(to, value), "DexPair: transfer failed");
    }

    function _sqrt(uint256 y) private pure returns (uint256 z) {
        if (y > 3) {
            z = y;
            uint256 x = y / 2 + 1;
            while (x < z) {
                z = x;
                x = (y / x + x) / 2;
            }
        } else if (y != 0) {
            z = 1;
        }
    }
}
