// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "../interfaces/IERC20.sol";
import {
    IQuoterV2,
    ISwapAdapter,
    ISwapRouter,
    IUniswapV2Factory,
    IUniswapV2Pair,
    IUniswapV2Router02,
    IUniswapV3Factory
} from "../interfaces/IDex.sol";

/// The bridges' swaps, through Uniswap V2 and V3 as deployed (docs/protocol.md "DEX"):
/// - path rule: [A, B] when a venue trades A/B, else [A, WETH, B] when both couples have one;
/// - venues of a couple, in this order: the V2 pair, then the V3 pools of fee 100, 500, 3000,
///   10000 that the V3 factory has;
/// - each hop takes the venue that pays the most for its input now (the earlier one on a tie):
///   V2 by the pair's formula, V3 by QuoterV2 (a pool that cannot take the whole input, i.e.
///   whose quote ends at the price limit, is skipped).
/// The router's pricing (src/router) follows the same rule on the same state, so a quote's hops
/// are the ones executed.
contract SwapAdapter is ISwapAdapter {
    uint160 private constant MIN_SQRT_RATIO_PLUS_1 = 4295128740;
    uint160 private constant MAX_SQRT_RATIO_MINUS_1 = 1461446703485210103287273052203988822378723970341;

    IUniswapV2Router02 public immutable v2Router;
    IUniswapV2Factory public immutable v2Factory;
    IUniswapV3Factory public immutable v3Factory;
    IQuoterV2 public immutable quoter;
    ISwapRouter public immutable v3Router;
    address public immutable override WETH;

    constructor(address v2Router_, address v3Factory_, address quoter_, address v3Router_) {
        v2Router = IUniswapV2Router02(v2Router_);
        v2Factory = IUniswapV2Factory(IUniswapV2Router02(v2Router_).factory());
        WETH = IUniswapV2Router02(v2Router_).WETH();
        v3Factory = IUniswapV3Factory(v3Factory_);
        quoter = IQuoterV2(quoter_);
        v3Router = ISwapRouter(v3Router_);
    }

    function feeTiers() public pure returns (uint24[4] memory) {
        return [uint24(100), 500, 3000, 10000];
    }

    /// Whether any venue trades the couple.
    function hasVenue(address a, address b) public view returns (bool) {
        if (v2Factory.getPair(a, b) != address(0)) return true;
        uint24[4] memory tiers = feeTiers();
        for (uint256 i = 0; i < tiers.length; i++) {
            if (v3Factory.getPool(a, b, tiers[i]) != address(0)) return true;
        }
        return false;
    }

    function swapPath(address tokenIn, address tokenOut) public view returns (address[] memory path) {
        if (hasVenue(tokenIn, tokenOut)) {
            path = new address[](2);
            (path[0], path[1]) = (tokenIn, tokenOut);
            return path;
        }
        require(
            tokenIn != WETH && tokenOut != WETH && hasVenue(tokenIn, WETH) && hasVenue(WETH, tokenOut),
            "Bridge: no swap route"
        );
        path = new address[](3);
        (path[0], path[1], path[2]) = (tokenIn, WETH, tokenOut);
    }

    function swapExactIn(address tokenIn, address tokenOut, uint256 amountIn, uint256 minOut, address to)
        external
        returns (uint256 amountOut)
    {
        address[] memory path = swapPath(tokenIn, tokenOut);
        require(IERC20(tokenIn).transferFrom(msg.sender, address(this), amountIn), "SwapAdapter: pull failed");
        amountOut = amountIn;
        for (uint256 i = 0; i + 1 < path.length; i++) {
            address recipient = i + 2 == path.length ? to : address(this);
            amountOut = _hop(path[i], path[i + 1], amountOut, recipient);
        }
        require(amountOut >= minOut, "SwapAdapter: insufficient output amount");
    }

    /// One hop through the best venue; `fee` 0 means the V2 pair.
    function _hop(address tokenIn, address tokenOut, uint256 amountIn, address to) private returns (uint256) {
        (uint24 fee, uint256 best) = (0, _v2Out(tokenIn, tokenOut, amountIn));
        uint24[4] memory tiers = feeTiers();
        for (uint256 i = 0; i < tiers.length; i++) {
            uint256 out = _v3Out(tokenIn, tokenOut, amountIn, tiers[i]);
            if (out > best) (fee, best) = (tiers[i], out);
        }
        require(best > 0, "SwapAdapter: no venue pays");
        if (fee == 0) {
            IERC20(tokenIn).approve(address(v2Router), amountIn);
            address[] memory path = new address[](2);
            (path[0], path[1]) = (tokenIn, tokenOut);
            uint256[] memory amounts = v2Router.swapExactTokensForTokens(amountIn, best, path, to, block.timestamp);
            return amounts[1];
        }
        IERC20(tokenIn).approve(address(v3Router), amountIn);
        return v3Router.exactInputSingle(
            ISwapRouter.ExactInputSingleParams({
                tokenIn: tokenIn,
                tokenOut: tokenOut,
                fee: fee,
                recipient: to,
                deadline: block.timestamp,
                amountIn: amountIn,
                amountOutMinimum: best,
                sqrtPriceLimitX96: 0
            })
        );
    }

    /// The V2 pair's output (UniswapV2Library.getAmountOut); 0 without a pair or reserves.
    function _v2Out(address tokenIn, address tokenOut, uint256 amountIn) private view returns (uint256) {
        address pair = v2Factory.getPair(tokenIn, tokenOut);
        if (pair == address(0)) return 0;
        (uint112 r0, uint112 r1,) = IUniswapV2Pair(pair).getReserves();
        (uint256 reserveIn, uint256 reserveOut) = IUniswapV2Pair(pair).token0() == tokenIn ? (r0, r1) : (r1, r0);
        if (amountIn == 0 || reserveIn == 0 || reserveOut == 0) return 0;
        // The pair's balances are uint112: a larger input would revert the swap.
        if (reserveIn + amountIn > type(uint112).max) return 0;
        uint256 amountInWithFee = amountIn * 997;
        return (amountInWithFee * reserveOut) / (reserveIn * 1000 + amountInWithFee);
    }

    /// The V3 pool's output by QuoterV2; 0 without a pool, when it cannot take the whole input, or
    /// when the quote reverts. An out-of-gas inside the quote is not a venue's answer: it reverts.
    function _v3Out(address tokenIn, address tokenOut, uint256 amountIn, uint24 fee) private returns (uint256) {
        if (v3Factory.getPool(tokenIn, tokenOut, fee) == address(0)) return 0;
        uint256 gasBefore = gasleft();
        try quoter.quoteExactInputSingle(
            IQuoterV2.QuoteExactInputSingleParams({
                tokenIn: tokenIn,
                tokenOut: tokenOut,
                amountIn: amountIn,
                fee: fee,
                sqrtPriceLimitX96: 0
            })
        ) returns (uint256 amountOut, uint160 sqrtPriceX96After, uint32, uint256) {
            if (sqrtPriceX96After == MIN_SQRT_RATIO_PLUS_1 || sqrtPriceX96After == MAX_SQRT_RATIO_MINUS_1) return 0;
            return amountOut;
        } catch {
            require(gasleft() > gasBefore / 8, "SwapAdapter: out of gas");
            return 0;
        }
    }
}
