// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "./ERC20.sol";
import {Owned} from "../access/Owned.sol";

/// A devnet token: the owner names minters (the deployer for seeding, a bridge that mints on
/// delivery); anyone may burn their own balance (bridges burn what they pulled from a sender).
contract MintableToken is ERC20, Owned {
    mapping(address => bool) public isMinter;

    event MinterSet(address indexed account, bool allowed);

    constructor(string memory name_, string memory symbol_, uint8 decimals_)
        ERC20(name_, symbol_, decimals_)
    {
        isMinter[msg.sender] = true;
        emit MinterSet(msg.sender, true);
    }

    function setMinter(address account, bool allowed) external onlyOwner {
        isMinter[account] = allowed;
        emit MinterSet(account, allowed);
    }

    function mint(address to, uint256 value) external {
        require(isMinter[msg.sender], "MintableToken: not a minter");
        _mint(to, value);
    }

    function burn(uint256 value) external {
        _burn(msg.sender, value);
    }
}
