// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IDexFactory, IDexPair} from "../interfaces/IDex.sol";

/// The pricing of docs/protocol.md "DEX": integer math with floor division, 0.3 % fee.
library DexLibrary {
    function sortTokens(address tokenA, address tokenB) internal pure returns (address token0, address token1) {
        require(tokenA != tokenB, "Dex: identical tokens");
        (token0, token1) = tokenA < tokenB ? (tokenA, tokenB) : (tokenB, tokenA);
        require(token0 != address(0), "Dex: zero address");
    }

    function getReserves(address factory, address tokenA, address tokenB)
        internal
        view
        returns (uint256 reserveA, uint256 reserveB)
    {
        address pair = IDexFactory(factory).getPair(tokenA, tokenB);
        require(pair != address(0), "Dex: no pair");
        (uint256 reserve0, uint256 reserve1,) = IDexPair(pair).getReserves();
        (reserveA, reserveB) = tokenA == IDexPair(pair).token0() ? (reserve0, reserve1) : (reserve1, reserve0);
    }

    /// amountOut = amountIn*997*reserveOut / (reserveIn*1000 + amountIn*997)
    function getAmountOut(uint256 amountIn, uint256 reserveIn, uint256 reserveOut)
        internal
        pure
        returns (uint256)
    {
        require(amountIn > 0, "Dex: insufficient input amount");
        require(reserveIn > 0 && reserveOut > 0, "Dex: insufficient liquidity");
        uint256 amountInWithFee = amountIn * 997;
        return (amountInWithFee * reserveOut) / (reserveIn * 1000 + amountInWithFee);
    }

    /// The smallest input whose getAmountOut is at least amountOut:
    /// amountIn = reserveIn*amountOut*1000 / ((reserveOut - amountOut)*997) + 1
    function getAmountIn(uint256 amountOut, uint256 reserveIn, uint256 reserveOut)
        internal
        pure
        returns (uint256)
    {
        require(amountOut > 0, "Dex: insufficient output amount");
        require(reserveIn > 0 && reserveOut > amountOut, "Dex: insufficient liquidity");
        return (reserveIn * amountOut * 1000) / ((reserveOut - amountOut) * 997) + 1;
    }

    function getAmountsOut(address factory, uint256 amountIn, address[] memory path)
        internal
        view
        returns (uint256[] memory amounts)
    {
        require(path.length >= 2, "Dex: invalid path");
        amounts = new uint256[](path.length);
        amounts[0] = amountIn;
        for (uint256 i = 0; i < path.length - 1; i++) {
            (uint256 reserveIn, uint256 reserveOut) = getReserves(factory, path[i], path[i + 1]);
            amounts[i + 1] = getAmountOut(amounts[i], reserveIn, reserveOut);
        }
    }

    function getAmountsIn(address factory, uint256 amountOut, address[] memory path)
        internal
        view
        returns (uint256[] memory amounts)
    {
        require(path.length >= 2, "Dex: invalid path");
        amounts = new uint256[](path.length);
        amounts[path.length - 1] = amountOut;
        for (uint256 i = path.length - 1; i > 0; i--) {
            (uint256 reserveIn, uint256 reserveOut) = getReserves(factory, path[i - 1], path[i]);
            amounts[i - 1] = getAmountIn(amounts[i], reserveIn, reserveOut);
        }
    }
}
