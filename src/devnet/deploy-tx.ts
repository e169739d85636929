/**
 * Fast transaction sending for the deployer: transactions go out through anvil's unlocked
 * accounts (`eth_sendTransaction`, no local signing) with nonces and gas set here, so nothing
 * waits for estimates or receipts until `flush()`, which checks every receipt at once.
 */
import {
  type Address,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  type PublicClient,
} from "viem";
import type { ContractSender } from "../chain/contract-sender.js";

/** The devnet's sender (src/chain/contract-sender.ts has the shape). */
export interface TxSender extends ContractSender {
  /**
   * Another sender from the same account that shares this one's nonces but waits only for its
   * own transactions in `flush()`: each protocol's deployment on a chain gets one, so protocols
   * deploy side by side without one's flush waiting for (or reporting) another's transactions.
   */
  fork(): TxSender;
}

const DEPLOY_GAS = 8_000_000n;
// Generous: addLiquidity creates a pair contract (~1.5M gas); anvil charges only gas used.
const CALL_GAS = 3_000_000n;

const toHex = (n: bigint): Hex => `0x${n.toString(16)}`;

export async function createTxSender(client: PublicClient, from: Address): Promise<TxSender> {
  const first = BigInt(await client.getTransactionCount({ address: from, blockTag: "pending" }));
  return senderOver(client, from, { nonce: first, queue: Promise.resolve() });
}

/** The nonce counter and send queue every fork of one account's sender shares. */
interface SharedNonces {
  nonce: bigint;
  /**
   * Sends go out one after another in nonce order, whichever fork calls: parallel requests
   * could reach anvil out of order and leave a nonce gap.
   */
  queue: Promise<unknown>;
}

function senderOver(client: PublicClient, from: Address, shared: SharedNonces): TxSender {
  let pending: Array<{ label: string; hash: Hex }> = [];

  function send(label: string, tx: { to?: Address; data: Hex; value?: bigint; gas: bigint }) {
    const request = {
      from,
      ...(tx.to === undefined ? {} : { to: tx.to }),
      data: tx.data,
      gas: toHex(tx.gas),
      nonce: toHex(shared.nonce),
      ...(tx.value === undefined ? {} : { value: toHex(tx.value) }),
    };
    shared.nonce += 1n;
    const sent = shared.queue.then(async () => {
      let hash: Hex;
      try {
        hash = (await client.request({
          method: "eth_sendTransaction",
          params: [request],
        } as never)) as Hex;
      } catch (error) {
        throw new Error(`deploy step "${label}" was rejected: ${(error as Error).message}`);
      }
      pending.push({ label, hash });
      return hash;
    });
    // The next send waits for this one's request, not for its success.
    shared.queue = sent.catch(() => {});
    return sent;
  }

  return {
    from,
    async deploy(label, contract, args = []) {
      const address = getContractAddress({ from, nonce: shared.nonce });
      const data = encodeDeployData({ abi: contract.abi, bytecode: contract.bytecode, args });
      await send(label, { data, gas: DEPLOY_GAS });
      return address;
    },
    call(label, to, abi, functionName, args = [], value, gas = CALL_GAS) {
      const data = encodeFunctionData({ abi, functionName, args } as never);
      return send(label, { to, data, gas, ...(value === undefined ? {} : { value }) });
    },
    async flush() {
      const batch = pending;
      pending = [];
      const receipts = await Promise.all(
        batch.map(({ hash }) => client.waitForTransactionReceipt({ hash, pollingInterval: 25 })),
      );
      receipts.forEach((receipt, i) => {
        if (receipt.status !== "success") {
          throw new Error(
            `deploy step "${batch[i]?.label}" reverted (tx ${receipt.transactionHash})`,
          );
        }
      });
    },
    fork: () => senderOver(client, from, shared),
  };
}
