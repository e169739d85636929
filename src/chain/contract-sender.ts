/**
 * The shape of a deployer's transaction sender: contract creations and calls sent without waiting,
 * checked together by `flush()`. src/devnet/deploy-tx.ts implements it for the devnet (anvil's
 * unlocked accounts, local nonces); protocol folders' devnet deployers take one, so every contract
 * on a chain goes out through that chain's one sender and its nonces.
 */
import type { Abi, Address, Hex } from "viem";

export interface ContractSender {
  readonly from: Address;
  /** Sends a contract creation; resolves with the address it will have. */
  deploy(
    label: string,
    contract: { abi: Abi; bytecode: Hex },
    args?: readonly unknown[],
  ): Promise<Address>;
  /** Sends a contract call (the sender's default gas limit unless `gas` is given). */
  call(
    label: string,
    to: Address,
    abi: Abi,
    functionName: string,
    args?: readonly unknown[],
    value?: bigint,
    gas?: bigint,
  ): Promise<Hex>;
  /** Waits for every transaction sent so far and throws naming the first one that failed. */
  flush(): Promise<void>;
}
