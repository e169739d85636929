/**
 * Across SpokePool logs -> normalised BridgeEvents (src/domain/bridge-event.ts):
 *
 * - `FundsDeposited` / `V3FundsDeposited` on the origin: role `sent`. Input token and amount are
 *   the send (and the fee token), output token and amount what the relayer must deliver on the
 *   destination (the minimum received); `bridgeFee` = input - output (pairing.ts, acrossFee);
 *   `xprotoFee` 0 (no messaging fee: the relayer is repaid through Across' hub, off-chain);
 *   `deadline` = `fillDeadline`, after which no fill can happen (a fill reverts).
 * - `FilledRelay` / `FilledV3Relay` on the destination: role `delivered`, with what the
 *   recipient got (`relayExecutionInfo.updatedOutputAmount`, the output amount unless the
 *   depositor sped it up) and to whom (the updated recipient when one was set).
 *
 * Both are keyed by acrossMessageId(origin chain id, deposit id). The origin chain id of a
 * deposit is its SpokePool's bridgeChainId in the registry (Across names chains by EVM id).
 * A deposit or fill naming a non-EVM address (bytes32 with upper bytes set) is left out.
 */
import { decodeEventLog, getAddress, type Hex } from "viem";
import type { RawLog } from "../../chain/create-chain-client.js";
import type { BridgeEvent, EventArgs } from "../../domain/bridge-event.js";
import type { DecodeContext } from "../protocol.js";
import { ACROSS_EVENTS_ABI } from "./events-abi.js";
import { acrossFee, acrossMessageId, bytes32ToAddress } from "./pairing.js";

export const ACROSS_PROTOCOL = "across";

const ZERO32 = `0x${"0".repeat(64)}`;

function decode(log: RawLog) {
  try {
    return decodeEventLog({
      abi: ACROSS_EVENTS_ABI,
      data: log.data,
      topics: log.topics as [Hex, ...Hex[]],
      strict: true,
    });
  } catch {
    return undefined;
  }
}

/** An address argument of either event generation, EIP-55; undefined when not an EVM address. */
function evmAddress(value: string): string | undefined {
  const address = value.length === 66 ? bytes32ToAddress(value as Hex) : value;
  return address === undefined ? undefined : getAddress(address);
}

export function decodeAcrossLogs(logs: readonly RawLog[], context: DecodeContext): BridgeEvent[] {
  const events: BridgeEvent[] = [];
  for (const log of logs) {
    const contract = context.contract(log.address);
    if (contract === undefined) continue;
    const decoded = decode(log);
    if (decoded === undefined) continue;
    const at = {
      chainId: context.chainId,
      blockNumber: log.blockNumber,
      blockHash: log.blockHash.toLowerCase() as Hex,
      blockTime: context.blockTime(log),
      txHash: log.transactionHash.toLowerCase() as Hex,
      logIndex: log.logIndex,
      address: getAddress(log.address),
      protocol: ACROSS_PROTOCOL,
      kind: contract.kind,
      name: decoded.eventName,
    };
    if (decoded.eventName === "FundsDeposited" || decoded.eventName === "V3FundsDeposited") {
      const a = decoded.args;
      const inputToken = evmAddress(a.inputToken);
      const outputToken = evmAddress(a.outputToken);
      const sender = evmAddress(a.depositor);
      const recipient = evmAddress(a.recipient);
      if (!inputToken || !outputToken || !sender || !recipient) continue;
      const inputDecimals = context.tokenDecimals?.(context.chainId, inputToken);
      const outputDecimals = context.tokenDecimals?.(Number(a.destinationChainId), outputToken);
      // Without both tokens' decimals (a destination chain that is not indexed, a context with no
      // metadata) the amounts are taken as in the same units, as Across' routes between equal
      // tokens mostly are.
      const known = inputDecimals !== undefined && outputDecimals !== undefined;
      const { bridgeFee, subsidy } = acrossFee(
        a.inputAmount,
        a.outputAmount,
        known ? inputDecimals : 0,
        known ? outputDecimals : 0,
      );
      const args: EventArgs = {
        depositId: a.depositId.toString(),
        originChainId: contract.bridgeChainId,
        sender,
        recipient,
        destChainId: a.destinationChainId.toString(),
        sourceToken: inputToken,
        sendAmount: a.inputAmount.toString(),
        sourceBridgeToken: inputToken,
        bridgeAmount: a.inputAmount.toString(),
        destBridgeToken: outputToken,
        destBridgeAmount: a.outputAmount.toString(),
        destToken: outputToken,
        minReceiveAmount: a.outputAmount.toString(),
        bridgeFee: bridgeFee.toString(),
        xprotoFee: "0",
        subsidy: subsidy.toString(),
        deadline: a.fillDeadline.toString(),
        quoteTimestamp: a.quoteTimestamp.toString(),
        exclusivityDeadline: a.exclusivityDeadline.toString(),
      };
      events.push({
        ...at,
        role: "sent",
        messageId: acrossMessageId(contract.bridgeChainId, BigInt(a.depositId)),
        args,
      });
    } else {
      const a = decoded.args;
      const info = a.relayExecutionInfo;
      const updated = info.updatedRecipient;
      const updatedIsSet = updated !== ZERO32 && updated !== `0x${"0".repeat(40)}`;
      const recipient = evmAddress(updatedIsSet ? updated : a.recipient);
      const outputToken = evmAddress(a.outputToken);
      const relayer = evmAddress(a.relayer);
      if (!recipient || !outputToken || !relayer) continue;
      events.push({
        ...at,
        role: "delivered",
        messageId: acrossMessageId(a.originChainId, BigInt(a.depositId)),
        args: {
          depositId: a.depositId.toString(),
          originChainId: a.originChainId.toString(),
          recipient,
          destToken: outputToken,
          receiveAmount: info.updatedOutputAmount.toString(),
          relayer,
          fillType: info.fillType.toString(),
        },
      });
    }
  }
  return events;
}
