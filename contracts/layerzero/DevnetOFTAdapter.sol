// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

import { Ownable } from "@openzeppelin/contracts/access/Ownable.sol";
import { OFTAdapter } from "@layerzerolabs/oft-evm/contracts/OFTAdapter.sol";
import { Origin } from "@layerzerolabs/oapp-evm/contracts/oapp/OApp.sol";
import { DevnetReceivePause } from "./DevnetReceivePause.sol";

/*
 * A concrete LayerZero V2 OFTAdapter for the bridge-oracle devnet: LayerZero's own OFTAdapter
 * (from @layerzerolabs/oft-evm, compiled at build time, never vendored) in front of an existing
 * devnet ERC-20: it locks on send and unlocks on receive. Like DevnetOFT it has a receive pause
 * to exercise a delivery that reverts in lzReceive and its retry.
 */
contract DevnetOFTAdapter is OFTAdapter, DevnetReceivePause {
    constructor(
        address token_,
        address endpoint_,
        address owner_
    ) OFTAdapter(token_, endpoint_, owner_) Ownable(owner_) {}

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
