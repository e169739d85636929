/**
 * A second, minimal bridge protocol for the seam test (second-protocol.test.ts): two events and
 * a pairing key built the way CCTP's is, from (source domain, nonce). Everything it needs is in
 * this folder; it plugs in through src/protocols/protocol.ts like src/protocols/reference/.
 *
 * - `Departed(uint64 indexed nonce, address indexed sender, address recipient, uint32
 *   destDomain, address token, address destToken, uint256 amount, uint256 fee)` on the source:
 *   the send; `fee` is a messaging fee paid in the native coin.
 * - `Arrived(uint32 sourceDomain, uint64 indexed nonce, address indexed recipient, address
 *   token, uint256 amount)` on the destination: the delivery.
 * Chains are named by "domains" (the registry's bridgeChainId of this protocol's contracts).
 */
import {
  decodeEventLog,
  encodeAbiParameters,
  getAddress,
  type Hex,
  keccak256,
  parseAbi,
  toEventSelector,
  zeroAddress,
} from "viem";
import type { BridgeEvent } from "../../../src/domain/bridge-event.js";
import type { Protocol } from "../../../src/protocols/protocol.js";

export const TOY_PROTOCOL = "toy";

export const TOY_ABI = parseAbi([
  "event Departed(uint64 indexed nonce, address indexed sender, address recipient, uint32 destDomain, address token, address destToken, uint256 amount, uint256 fee)",
  "event Arrived(uint32 sourceDomain, uint64 indexed nonce, address indexed recipient, address token, uint256 amount)",
]);

/** The pairing key: both sides know the source domain and the nonce. */
export function toyPairingKey(sourceDomain: string | number | bigint, nonce: bigint): Hex {
  return keccak256(
    encodeAbiParameters([{ type: "uint32" }, { type: "uint64" }], [Number(sourceDomain), nonce]),
  );
}

function decodeToy(data: Hex, topics: readonly Hex[]) {
  return decodeEventLog({ abi: TOY_ABI, data, topics: topics as [Hex, ...Hex[]], strict: true });
}

export const toyProtocol: Protocol = {
  name: TOY_PROTOCOL,
  indexing: {
    topics: TOY_ABI.map((item) => toEventSelector(item)),
    decodeLogs(logs, context) {
      const events: BridgeEvent[] = [];
      for (const log of logs) {
        const contract = context.contract(log.address);
        if (contract === undefined) continue;
        let decoded: ReturnType<typeof decodeToy>;
        try {
          decoded = decodeToy(log.data, log.topics);
        } catch {
          continue;
        }
        const at = {
          chainId: context.chainId,
          blockNumber: log.blockNumber,
          blockHash: log.blockHash.toLowerCase() as Hex,
          blockTime: context.blockTime(log),
          txHash: log.transactionHash.toLowerCase() as Hex,
          logIndex: log.logIndex,
          address: getAddress(log.address),
          protocol: TOY_PROTOCOL,
          kind: contract.kind,
          name: decoded.eventName,
        };
        if (decoded.eventName === "Departed") {
          const a = decoded.args;
          events.push({
            ...at,
            role: "sent",
            messageId: toyPairingKey(contract.bridgeChainId, a.nonce),
            args: {
              nonce: a.nonce.toString(),
              sender: getAddress(a.sender),
              recipient: getAddress(a.recipient),
              destChainId: a.destDomain.toString(),
              sourceToken: getAddress(a.token),
              sendAmount: a.amount.toString(),
              sourceBridgeToken: getAddress(a.token),
              bridgeAmount: a.amount.toString(),
              destBridgeToken: getAddress(a.destToken),
              destBridgeAmount: a.amount.toString(),
              destToken: getAddress(a.destToken),
              minReceiveAmount: a.amount.toString(),
              bridgeFee: "0",
              xprotoFee: a.fee.toString(),
              xprotoFeeToken: zeroAddress,
              subsidy: "0",
            },
          });
        } else {
          const a = decoded.args;
          events.push({
            ...at,
            role: "delivered",
            messageId: toyPairingKey(a.sourceDomain, a.nonce),
            args: {
              nonce: a.nonce.toString(),
              recipient: getAddress(a.recipient),
              destToken: getAddress(a.token),
              receiveAmount: a.amount.toString(),
            },
          });
        }
      }
      return events;
    },
  },
};
