// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "../interfaces/IERC20.sol";
import {IDexFactory, IDexPair} from "../interfaces/IDex.sol";
import {DexLibrary} from "./DexLibrary.sol";

/// Uniswap-V2-style router: exact-input multi-hop swaps and quotes over the factory's pairs.
contract DexRouter {
    address public immutable factory;
    address public immutable WETH;

    constructor(address factory_, address weth_) {
        factory = factory_;
        WETH = weth_;
    }

    modifier ensure(uint256 deadline) {
        require(deadline >= block.timestamp, "DexRouter: expired");
        _;
    }

    /// Simplified liquidity entry: creates the pair if needed and adds the amounts as given when
    /// the pair is empty, else at the current ratio (the surplus of one side is not taken).
    function addLiquidity(
        address tokenA,
        address tokenB,
        uint256 amountADesired,
        uint256 amountBDesired,
        uint256 amountAMin,
        uint256 amountBMin,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256 amountA, uint256 amountB, uint256 liquidity) {
        address pair = IDexFactory(factory).getPair(tokenA, tokenB);
        if (pair == address(0)) pair = IDexFactory(factory).createPair(tokenA, tokenB);
        (amountA, amountB) = _liquidityAmounts(tokenA, tokenB, amountADesired, amountBDesired);
        require(amountA >= amountAMin && amountB >= amountBMin, "DexRouter: insufficient amount");
        _transferFrom(tokenA, msg.sender, pair, amountA);
        _transferFrom(tokenB, msg.sender, pair, amountB);
        liquidity = IDexPair(pair).mint(to);
    }

    function swapExactTokensForTokens(
        uint256 amountIn,
        uint256 amountOutMin,
        address[] calldata path,
        address to,
        uint256 deadline
    ) external ensure(deadline) returns (uint256[] memory amounts) {
        amounts = DexLibrary.getAmountsOut(factory, amountIn, path);
        require(amounts[amounts.length - 1] >= amountOutMin, "DexRouter: insufficient output amount");
        _transferFrom(path[0], msg.sender, IDexFactory(factory).getPair(path[0], path[1]), amounts[0]);
        _swap(amounts, path, to);
    }

    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut) external pure returns (uint256) {
        return DexLibrary.getAmountOut(amountIn, reserveIn, reserveOut);
    }

    function getAmountIn(uint256 amountOut, uint256 reserveIn, uint256 reserveOut) external pure returns (uint256) {
        return DexLibrary.getAmountIn(amountOut, reserveIn, reserveOut);
    }

    function getAmountsOut(uint256 amountIn, address[] calldata path) external view returns (uint256[] memory) {
        return DexLibrary.getAmountsOut(factory, amountIn, path);
    }

    function getAmountsIn(uint256 amountOut, address[] calldata path) external view returns (uint256[] memory) {
        return DexLibrary.getAmountsIn(factory, amountOut, path);
    }

    /// Each hop's output goes straight into the next pair; the last one to `to`.
    function _swap(uint256[] memory amounts, address[] calldata path, address to) private {
        for (uint256 i = 0; i < path.length - 1; i++) {
            (address input, address output) = (path[i], path[i + 1]);
            (address token0,) = DexLibrary.sortTokens(input, output);
            uint256 amountOut = amounts[i + 1];
            (uint256 amount0Out, uint256 amount1Out) = input == token0 ? (uint256(0), amountOut) : (amountOut, uint256(0));
            address recipient = i < path.length - 2 ? IDexFactory(factory).getPair(output, path[i + 2]) : to;
            IDexPair(IDexFactory(factory).getPair(input, output)).swap(amount0Out, amount1Out, recipient);
        }
    }

    function _liquidityAmounts(address tokenA, address tokenB, uint256 desiredA, uint256 desiredB)
        private
        view
        returns (uint256, uint256)
    {
        (uint256 reserveA, uint256 reserveB) = DexLibrary.getReserves(factory, tokenA, tokenB);
        if (reserveA == 0 && reserveB == 0) return (desiredA, desiredB);
        uint256 optimalB = (desiredA * reserveB) / reserveA;
        if (optimalB <= desiredB) return (desiredA, optimalB);
        return ((desiredB * reserveA) / reserveB, desiredB);
    }

    function _transferFrom(address token, address from, address to, uint256 value) private {
        require(IERC20(token).transferFrom(from, to, value), "DexRouter: transferFrom failed");
    }
}
