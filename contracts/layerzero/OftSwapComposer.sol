// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import { IERC20 } from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import { SafeERC20 } from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import { ILayerZeroComposer } from "@layerzerolabs/lz-evm-protocol-v2/contracts/interfaces/ILayerZeroComposer.sol";
import { IOFT } from "@layerzerolabs/oft-evm/contracts/interfaces/IOFT.sol";
import { OFTComposeMsgCodec } from "@layerzerolabs/oft-evm/contracts/libs/OFTComposeMsgCodec.sol";
import { ISwapAdapter } from "../interfaces/IDex.sol";
import { PeripheryReentrancyGuard } from "./PeripheryReentrancyGuard.sol";

/*
 * A destination swap after a LayerZero OFT transfer (bridge-oracle periphery, ours). The source
 * sends the OFT to this contract with SendParam.composeMsg = abi.encode(address tokenOut,
 * uint256 minAmountOut, address recipient); the destination OFT credits the tokens here and
 * queues a compose (EndpointV2.sendCompose); the executor then calls EndpointV2.lzCompose, which
 * calls lzCompose below. It swaps the credited amount (OFTComposeMsgCodec.amountLD) through the
 * chain's SwapAdapter into tokenOut for the recipient.
 *
 * Decisions:
 * - only the endpoint may call, and only for a compose queued by one of the OFTs fixed at
 *   deployment (the endpoint keys its compose queue by the OApp that queued it, so `from` is the
 *   OFT that credited the tokens here);
 * - a swap that fails (below minAmountOut, no route, no liquidity) does not revert: the
 *   recipient gets the bridged token itself (ComposeFallback), so funds never wait here on a
 *   price that may not come back;
 * - except when the swap ran out of gas: then the compose reverts, as the executor gave too
 *   little gas (EndpointV2.lzCompose is permissionless; without this, anyone could force the
 *   fallback with a low gas limit); the compose stays queued and can be executed again;
 * - a compose message that is not the 96-byte encoding above, or names no recipient, reverts:
 *   nobody can be paid, so the tokens stay here and the compose stays queued (only a sender that
 *   bypassed our builders can make one); native value is refused (our options never ask for any);
 * - the recipient is paid with the credited amount only, never this contract's whole balance.
 */
contract OftSwapComposer is ILayerZeroComposer, PeripheryReentrancyGuard {
    using SafeERC20 for IERC20;

    /// Bytes of abi.encode(address, uint256, address).
    uint256 private constant SWAP_MSG_LENGTH = 96;

    address public immutable endpoint;
    ISwapAdapter public immutable swapAdapter;
    mapping(address oft => bool) public trustedOft;

    event ComposeSwapped(
        bytes32 indexed guid,
        address indexed oft,
        address indexed recipient,
        address tokenOut,
        uint256 amountIn,
        uint256 amountOut
    );
    event ComposeFallback(
        bytes32 indexed guid,
        address indexed oft,
        address indexed recipient,
        address token,
        uint256 amount,
        bytes reason
    );

    error OnlyEndpoint(address caller);
    error UntrustedOft(address oft);
    error InvalidComposeMsg();
    error NativeValueRefused(uint256 value);
    error SwapOutOfGas();

    constructor(address endpoint_, address swapAdapter_, address[] memory ofts) {
        endpoint = endpoint_;
        swapAdapter = ISwapAdapter(swapAdapter_);
        for (uint256 i = 0; i < ofts.length; i++) trustedOft[ofts[i]] = true;
    }

    function lzCompose(
        address from,
        bytes32 guid,
        bytes calldata message,
        address /*executor*/,
        bytes calldata /*extraData*/
    ) external payable override nonReentrant {
        if (msg.sender != endpoint) revert OnlyEndpoint(msg.sender);
        if (!trustedOft[from]) revert UntrustedOft(from);
        if (msg.value != 0) revert NativeValueRefused(msg.value);
        uint256 amountLD = OFTComposeMsgCodec.amountLD(message);
        bytes memory swapMsg = OFTComposeMsgCodec.composeMsg(message);
        if (swapMsg.length != SWAP_MSG_LENGTH) revert InvalidComposeMsg();
        (address tokenOut, uint256 minAmountOut, address recipient) = abi.decode(
            swapMsg,
            (address, uint256, address)
        );
        if (recipient == address(0)) revert InvalidComposeMsg();
        IERC20 token = IERC20(IOFT(from).token());

        if (tokenOut == address(token)) {
            token.safeTransfer(recipient, amountLD);
            emit ComposeSwapped(guid, from, recipient, tokenOut, amountLD, amountLD);
            return;
        }
        token.forceApprove(address(swapAdapter), amountLD);
        uint256 gasBefore = gasleft();
        try swapAdapter.swapExactIn(address(token), tokenOut, amountLD, minAmountOut, recipient) returns (
            uint256 amountOut
        ) {
            emit ComposeSwapped(guid, from, recipient, tokenOut, amountLD, amountOut);
        } catch (bytes memory reason) {
            // The call gets at most 63/64 of the gas: this little left means it used it all up.
            if (gasleft() < gasBefore / 8) revert SwapOutOfGas();
            token.forceApprove(address(swapAdapter), 0);
            token.safeTransfer(recipient, amountLD);
            emit ComposeFallback(guid, from, recipient, address(token), amountLD, reason);
        }
    }
}
