// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20 {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    function name() external view returns (string memory);
    function symbol() external view returns (string memory);
    function decimals() external view returns (uint8);
    function totalSupply() external view returns (uint256);
    function balanceOf(address account) external view returns (uint256);
    function allowance(address owner, address spender) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
    function approve(address spender, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// Tokens the bridges mint on delivery and burn on departure.
interface IMintableToken is IERC20 {
    function mint(address to, uint256 value) external;
    function burn(uint256 value) external;
}

/// The wrapped native coin.
interface IWETH is IERC20 {
    function deposit() external payable;
    function withdraw(uint256 value) external;
}
