import type { Address } from "viem";

/**
 * contracts/interfaces/IBridge.sol `BridgeParams`: the fourteen fields of a quote's `params`
 * with amounts in base units, as viem encodes the tuple. The router produces it
 * (toBridgeParams), the devnet's traffic and the tests send it.
 */
export interface BridgeParams {
  destChainId: bigint;
  sourceToken: Address;
  destToken: Address;
  amount: bigint;
  fee: bigint;
  to: Address;
  sourceSwap: boolean;
  sourceSwapFee: bigint;
  sourceBridgeToken: Address;
  sourceMinAmount: bigint;
  destSwap: boolean;
  destSwapFee: bigint;
  destBridgeToken: Address;
  destMinAmount: bigint;
}
