// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import { IERC20 } from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import { SafeERC20 } from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import { IOFT, SendParam, OFTReceipt } from "@layerzerolabs/oft-evm/contracts/interfaces/IOFT.sol";
import { MessagingFee, MessagingReceipt } from "@layerzerolabs/oapp-evm/contracts/oapp/OAppSender.sol";
import { ISwapAdapter } from "../interfaces/IDex.sol";
import { PeripheryReentrancyGuard } from "./PeripheryReentrancyGuard.sol";

/*
 * A source swap before a LayerZero OFT send, in one transaction (bridge-oracle periphery, ours):
 * pull the caller's tokenIn, swap it into the OFT's token through the chain's SwapAdapter (the
 * venue rule the reference bridge swaps by, docs/protocol.md "DEX") with a minimum output, then
 * OFT.send the whole output with msg.value as the messaging fee.
 *
 * Where things go:
 * - the native fee: all of msg.value goes to OFT.send as MessagingFee.nativeFee (OAppSender wants
 *   them equal); the endpoint refunds what the send library did not charge to `refundAddress`;
 * - dust: the OFT debits only the dust-free part of the swap output (OFTCore._removeDust), so the
 *   rest (below one shared-decimal unit) goes back to the caller in the OFT's token, in the same
 *   transaction; so does anything of tokenIn the swap did not take;
 * - nothing stays: balances are accounted as deltas of this call (tokens someone sent here by
 *   mistake are never paid to a caller), allowances to the adapter and the OFT are set for the
 *   amount and reset to zero before returning, and the contract has no receive() for native coin.
 *
 * Any OFT may be named (permissionless): the contract holds nothing between transactions, so a
 * malicious "OFT" can at most take what its own caller put in. The lock stops reentry from a
 * token or OFT callback. A swap below `minAmountOut` reverts the whole transaction (the
 * SwapAdapter's "insufficient output amount"), as does the OFT's SlippageExceeded below
 * `minAmountLD`.
 */
contract OftSwapSender is PeripheryReentrancyGuard {
    using SafeERC20 for IERC20;

    /// What one swap-and-send does; the OFT-side fields are OFT.send's SendParam.
    struct SwapSendParam {
        /// The OFT or OFTAdapter to send through.
        address oft;
        /// What the caller pays (approved to this contract); may be the OFT's token (no swap).
        address tokenIn;
        uint256 amountIn;
        /// Minimum swap output, in the OFT token's local decimals.
        uint256 minAmountOut;
        uint32 dstEid;
        /// Recipient on the destination (an OftSwapComposer for a destination swap).
        bytes32 to;
        /// The OFT's minimum received on the destination (dust-free), as in SendParam.
        uint256 minAmountLD;
        bytes extraOptions;
        bytes composeMsg;
        /// Gets the native fee the endpoint did not charge.
        address refundAddress;
    }

    ISwapAdapter public immutable swapAdapter;

    event OftSwapSent(
        bytes32 indexed guid,
        address indexed sender,
        address indexed oft,
        address tokenIn,
        uint256 amountIn,
        uint256 amountSwapped,
        uint256 amountSentLD,
        uint256 amountReceivedLD
    );

    error ZeroAmount();
    error ZeroRefundAddress();

    constructor(address swapAdapter_) {
        swapAdapter = ISwapAdapter(swapAdapter_);
    }

    function swapAndSend(
        SwapSendParam calldata p
    )
        external
        payable
        nonReentrant
        returns (MessagingReceipt memory msgReceipt, OFTReceipt memory oftReceipt)
    {
        if (p.amountIn == 0) revert ZeroAmount();
        if (p.refundAddress == address(0)) revert ZeroRefundAddress();
        IERC20 token = IERC20(IOFT(p.oft).token());
        uint256 tokenBefore = token.balanceOf(address(this));
        uint256 tokenInBefore = IERC20(p.tokenIn).balanceOf(address(this));
        uint256 amountSwapped = _pullAndSwap(p, token, tokenBefore, tokenInBefore);
        (msgReceipt, oftReceipt) = _send(p, token, amountSwapped);
        _refund(token, tokenBefore);
        if (p.tokenIn != address(token)) _refund(IERC20(p.tokenIn), tokenInBefore);
        emit OftSwapSent(
            msgReceipt.guid,
            msg.sender,
            p.oft,
            p.tokenIn,
            p.amountIn,
            amountSwapped,
            oftReceipt.amountSentLD,
            oftReceipt.amountReceivedLD
        );
    }

    /// Takes amountIn from the caller and swaps what arrived into `token`; returns the output.
    function _pullAndSwap(
        SwapSendParam calldata p,
        IERC20 token,
        uint256 tokenBefore,
        uint256 tokenInBefore
    ) private returns (uint256 amountSwapped) {
        IERC20 tokenIn = IERC20(p.tokenIn);
        tokenIn.safeTransferFrom(msg.sender, address(this), p.amountIn);
        // What arrived (a token that charges on transfer delivers less than amountIn).
        uint256 received = tokenIn.balanceOf(address(this)) - tokenInBefore;
        if (address(tokenIn) == address(token)) {
            amountSwapped = received;
        } else {
            tokenIn.forceApprove(address(swapAdapter), received);
            swapAdapter.swapExactIn(address(tokenIn), address(token), received, p.minAmountOut, address(this));
            tokenIn.forceApprove(address(swapAdapter), 0);
            amountSwapped = token.balanceOf(address(this)) - tokenBefore;
        }
        if (amountSwapped < p.minAmountOut) revert IOFT.SlippageExceeded(amountSwapped, p.minAmountOut);
    }

    /// OFT.send of `amountLD` with all of msg.value as the native fee; the allowance is reset.
    function _send(
        SwapSendParam calldata p,
        IERC20 token,
        uint256 amountLD
    ) private returns (MessagingReceipt memory msgReceipt, OFTReceipt memory oftReceipt) {
        IOFT oft = IOFT(p.oft);
        bool approval = oft.approvalRequired();
        if (approval) token.forceApprove(address(oft), amountLD);
        (msgReceipt, oftReceipt) = oft.send{ value: msg.value }(
            SendParam({
                dstEid: p.dstEid,
                to: p.to,
                amountLD: amountLD,
                minAmountLD: p.minAmountLD,
                extraOptions: p.extraOptions,
                composeMsg: p.composeMsg,
                oftCmd: ""
            }),
            MessagingFee({ nativeFee: msg.value, lzTokenFee: 0 }),
            p.refundAddress
        );
        if (approval) token.forceApprove(address(oft), 0);
    }

    /// Pays the caller what this call left of `token` (dust, input the swap did not take).
    function _refund(IERC20 token, uint256 balanceBefore) private {
        uint256 left = token.balanceOf(address(this)) - balanceBefore;
        if (left > 0) token.safeTransfer(msg.sender, left);
    }
}
