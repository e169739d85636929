// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {DexPair} from "./DexPair.sol";
import {DexLibrary} from "./DexLibrary.sol";

/// Creates one pair per unordered token couple; getPair answers in both orders.
contract DexFactory {
    mapping(address => mapping(address => address)) public getPair;
    address[] public allPairs;

    event PairCreated(address indexed token0, address indexed token1, address pair, uint256 count);

    function allPairsLength() external view returns (uint256) {
        return allPairs.length;
    }

    function createPair(address tokenA, address tokenB) external returns (address pair) {
        (address token0, address token1) = DexLibrary.sortTokens(tokenA, tokenB);
        require(getPair[token0][token1] == address(0), "DexFactory: pair exists");
        DexPair created = new DexPair();
        created.initialize(token0, token1);
        pair = address(created);
        getPair[token0][token1] = pair;
        getPair[token1][token0] = pair;
        allPairs.push(pair);
        emit PairCreated(token0, token1, pair, allPairs.length);
    }
}
