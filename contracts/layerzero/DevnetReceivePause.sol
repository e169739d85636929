// SPDX-License-Identifier: MIT
pragma solidity ^0.8.22;

/*
 * The devnet's receive pause, shared by DevnetOFT and DevnetOFTAdapter: while paused, their
 * lzReceive reverts with ReceivePaused(), so the executor raises LzReceiveAlert and the payload
 * stays stored on the endpoint until a retry after unpausing.
 */
abstract contract DevnetReceivePause {
    bool public receivePaused;

    error ReceivePaused();
    event ReceivePausedSet(bool paused);

    function _setReceivePaused(bool paused) internal {
        receivePaused = paused;
        emit ReceivePausedSet(paused);
    }

    function _requireReceiving() internal view {
        if (receivePaused) revert ReceivePaused();
    }
}
