// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The messaging endpoint of bridge kind 2 (a stand-in for a third-party messaging protocol).
interface IMessagingEndpoint {
    function eid() external view returns (uint32);
    function feeToken() external view returns (address);
    function messageFee(uint32 dstEid) external view returns (uint256);
    function send(uint32 dstEid, address receiver, bytes calldata payload) external returns (bytes32 guid);
}

/// Implemented by contracts the endpoint delivers packets to.
interface IMessageReceiver {
    function receiveMessage(bytes32 guid, uint32 srcEid, address sender, bytes calldata payload) external;
}
