// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/*
 * One-transaction reentrancy lock for our LayerZero periphery (OftSwapSender, OftSwapComposer),
 * kept in transient storage (EIP-1153, cancun): the flag clears itself at the end of the
 * transaction and costs no storage write.
 */
abstract contract PeripheryReentrancyGuard {
    bool private transient entered;

    error Reentered();

    modifier nonReentrant() {
        if (entered) revert Reentered();
        entered = true;
        _;
        entered = false;
    }
}
