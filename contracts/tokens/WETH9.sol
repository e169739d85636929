// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";

/// Wrapped native coin: 1 WETH per wei deposited; the DEX's hub token.
contract WETH9 is ERC20 {
    event Deposit(address indexed account, uint256 value);
    event Withdrawal(address indexed account, uint256 value);

    constructor() ERC20("Wrapped Ether", "WETH", 18) {}

    receive() external payable {
        deposit();
    }

    function deposit() public payable {
        _mint(msg.sender, msg.value);
        emit Deposit(msg.sender, msg.value);
    }

    function withdraw(uint256 value) external {
        _burn(msg.sender, value);
        emit Withdrawal(msg.sender, value);
        (bool ok,) = msg.sender.call{value: value}("");
        require(ok, "WETH: native transfer failed");
    }
}
