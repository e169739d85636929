// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

import { Ownable } from "@openzeppelin/contracts/access/Ownable.sol";
import { OFT } from "@layerzerolabs/oft-evm/contracts/OFT.sol";
import { Origin } from "@layerzerolabs/oapp-evm/contracts/oapp/OApp.sol";
import { DevnetReceivePause } from "./DevnetReceivePause.sol";

/*
 * A concrete LayerZero V2 OFT for the bridge-oracle devnet: LayerZero's own OFT (from the npm
 * package @layerzerolabs/oft-evm, compiled at build time, never vendored) plus two devnet knobs:
 * an owner mint to fund the devnet's users, and a receive pause so a delivery can revert in
 * lzReceive (the executor then raises LzReceiveAlert, and a retry after unpausing succeeds).
 */
contract DevnetOFT is OFT, DevnetReceivePause {
    constructor(
        string memory name_,
        string memory symbol_,
        address endpoint_,
        address owner_
    ) OFT(name_, symbol_, endpoint_, owner_) Ownable(owner_) {}

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function setReceivePaused(bool paused) external onlyOwner {
        _setReceivePaused(paused);
    }

    function _lzReceive(
        Origin calldata origin,
        bytes32 guid,
        bytes calldata message,
        address executor,
        bytes calldata extraData
    ) internal override {
        _requireReceiving();
        super._lzReceive(origin, guid, message, executor, extraData);
    }
}
