/**
 * Across' own SpokePool on a devnet chain (artifacts from fetch-artifacts.ts), and the calls a
 * depositor and a relayer make on it. `Ethereum_SpokePool` is deployed as on mainnet: the
 * implementation, then an ERC1967Proxy whose constructor calls `initialize(initialDepositId,
 * withdrawalRecipient)`; the deployer becomes its owner (admin). Deposits take ERC-20s on any
 * route (current SpokePools check no route list); a fill transfers the relayer's own output
 * tokens to the recipient and reverts once the fill deadline has passed.
 */
import {
  type Abi,
  type Address,
  encodeFunctionData,
  type Hex,
  type PublicClient,
  pad,
  zeroAddress,
} from "viem";
import type { TxSender } from "../../deploy-tx.js";
import type { AcrossArtifacts } from "./fetch-artifacts.js";

/** Seconds a deposit's quote timestamp may lie in the past (mainnet uses 3600). */
export const DEPOSIT_QUOTE_TIME_BUFFER = 3600;
/** Largest distance of a fill deadline into the future, in seconds (mainnet: hours). */
export const FILL_DEADLINE_BUFFER = 6 * 3600;

export function spokePoolAbi(artifacts: AcrossArtifacts): Abi {
  return artifacts.contracts.Ethereum_SpokePool.abi;
}

/** Sends the implementation and its initialising proxy; returns the proxy's address. */
export async function deploySpokePool(
  tx: TxSender,
  artifacts: AcrossArtifacts,
  wrappedNativeToken: Address,
): Promise<Address> {
  const spoke = artifacts.contracts.Ethereum_SpokePool;
  const implementation = await tx.deploy("Across SpokePool implementation", spoke, [
    wrappedNativeToken,
    DEPOSIT_QUOTE_TIME_BUFFER,
    FILL_DEADLINE_BUFFER,
    zeroAddress,
  ]);
  const initialize = encodeFunctionData({
    abi: spoke.abi,
    functionName: "initialize",
    args: [0, tx.from],
  });
  return tx.deploy("Across SpokePool proxy", artifacts.contracts.ERC1967Proxy, [
    implementation,
    initialize,
  ]);
}

export const toBytes32 = (address: Address): Hex => pad(address, { size: 32 });

export interface AcrossDeposit {
  depositor: Address;
  recipient: Address;
  inputToken: Address;
  outputToken: Address;
  inputAmount: bigint;
  outputAmount: bigint;
  destinationChainId: bigint;
  quoteTimestamp: number;
  fillDeadline: number;
}

/** Arguments of `SpokePool.deposit` (no exclusive relayer, no message). */
export function depositArgs(d: AcrossDeposit): readonly unknown[] {
  return [
    toBytes32(d.depositor),
    toBytes32(d.recipient),
    toBytes32(d.inputToken),
    toBytes32(d.outputToken),
    d.inputAmount,
    d.outputAmount,
    d.destinationChainId,
    toBytes32(zeroAddress),
    d.quoteTimestamp,
    d.fillDeadline,
    0,
    "0x",
  ];
}

/** The relay data a relayer passes to `fillRelay`, from a deposit and its origin's ids. */
export function relayData(
  d: AcrossDeposit,
  originChainId: bigint,
  depositId: bigint,
): Record<string, unknown> {
  return {
    depositor: toBytes32(d.depositor),
    recipient: toBytes32(d.recipient),
    exclusiveRelayer: toBytes32(zeroAddress),
    inputToken: toBytes32(d.inputToken),
    outputToken: toBytes32(d.outputToken),
    inputAmount: d.inputAmount,
    outputAmount: d.outputAmount,
    originChainId,
    depositId,
    fillDeadline: d.fillDeadline,
    exclusivityDeadline: 0,
    message: "0x",
  };
}

/** The SpokePool's clock (block time), as its deposit and fill checks see it. */
export async function spokePoolTime(
  client: PublicClient,
  spokePool: Address,
  abi: Abi,
): Promise<number> {
  const time = await client.readContract({
    address: spokePool,
    abi,
    functionName: "getCurrentTime",
  });
  return Number(time as bigint);
}
