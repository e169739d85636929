// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Owned} from "../access/Owned.sol";
import {IERC20} from "../interfaces/IERC20.sol";
import {IMessageReceiver} from "../interfaces/IMessaging.sol";

/// A messaging endpoint: names chains by endpoint id (eid), charges a per-destination fee in
/// `feeToken` on send, and hands packets to their receiver when the executor (the devnet relayer)
/// delivers them. Delivery is idempotent per guid.
contract MessagingEndpoint is Owned {
    uint32 public immutable eid;
    address public immutable feeToken;
    address public executor;
    uint64 public outboundNonce;

    mapping(uint32 => bool) public isDestination;
    mapping(uint32 => uint256) public messageFee;
    mapping(bytes32 => bool) public delivered;

    event PacketSent(bytes32 indexed guid, uint32 srcEid, uint32 dstEid, address sender, address receiver, bytes payload);
    event PacketDelivered(bytes32 indexed guid, uint32 srcEid, address sender, address receiver);
    event DestinationSet(uint32 indexed dstEid, uint256 messageFee);
    event ExecutorSet(address indexed executor);

    constructor(uint32 eid_, address feeToken_, address executor_) {
        eid = eid_;
        feeToken = feeToken_;
        executor = executor_;
        emit ExecutorSet(executor_);
    }

    function setExecutor(address executor_) external onlyOwner {
        executor = executor_;
        emit ExecutorSet(executor_);
    }

    function setDestination(uint32 dstEid, uint256 fee) external onlyOwner {
        isDestination[dstEid] = true;
        messageFee[dstEid] = fee;
        emit DestinationSet(dstEid, fee);
    }

    /// Pulls messageFee(dstEid) of feeToken from the sender; the guid is unique per packet.
    function send(uint32 dstEid, address receiver, bytes calldata payload) external returns (bytes32 guid) {
        require(isDestination[dstEid], "Endpoint: unknown destination");
        uint256 fee = messageFee[dstEid];
        if (fee > 0) require(IERC20(feeToken).transferFrom(msg.sender, address(this), fee), "Endpoint: fee");
        uint64 nonce = ++outboundNonce;
        guid = keccak256(abi.encodePacked(nonce, eid, msg.sender, dstEid, receiver));
        emit PacketSent(guid, eid, dstEid, msg.sender, receiver, payload);
    }

    function deliver(bytes32 guid, uint32 srcEid, address sender, address receiver, bytes calldata payload) external {
        require(msg.sender == executor, "Endpoint: not the executor");
        require(!delivered[guid], "Endpoint: already delivered");
        delivered[guid] = true;
        IMessageReceiver(receiver).receiveMessage(guid, srcEid, sender, payload);
        emit PacketDelivered(guid, srcEid, sender, receiver);
    }

    function withdrawFees(address to) external onlyOwner {
        IERC20 token = IERC20(feeToken);
        require(token.transfer(to, token.balanceOf(address(this))), "Endpoint: withdraw");
    }
}
