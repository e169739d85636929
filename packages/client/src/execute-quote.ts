/**
 * `executeQuote({ walletClient, publicClient, quote })`: what an integrator does with a quote
 * (docs/client.md, "executeQuote"): when the quote carries an approval and the sender's current
 * allowance is short of it, send `approval.transactionRequest` and wait for its receipt (the
 * bridge call's gas estimate needs the allowance); then send `transactionRequest` (its `to`,
 * `data` and `value` unchanged, with a gas limit of the estimate plus half: withGasMargin), wait
 * for its receipt and return its hash, the source transaction hash waitForTransfer follows.
 */
import {
  type Account,
  type Chain,
  decodeFunctionData,
  erc20Abi,
  type Hex,
  type PublicClient,
  type Transport,
  type WalletClient,
} from "viem";
import type { RouteQuote, TransactionRequest } from "./types.js";

export interface ExecuteQuoteParameters {
  /** Signs and sends; its account is the sender (and must hold the source token). */
  walletClient: WalletClient<Transport, Chain | undefined, Account>;
  /** Reads the allowance and waits for receipts, on the quote's source chain. */
  publicClient: PublicClient;
  quote: Pick<RouteQuote, "transactionRequest" | "approval">;
}

/** The source transaction hash of the bridge call. */
export type ExecuteQuoteReturnType = Hex;

export async function executeQuote(
  parameters: ExecuteQuoteParameters,
): Promise<ExecuteQuoteReturnType> {
  const { walletClient, publicClient, quote } = parameters;
  const account = walletClient.account;
  const chainId = await publicClient.getChainId();
  if (chainId !== quote.transactionRequest.chainId) {
    throw new Error(
      `executeQuote: the quote is to be sent on chain ${quote.transactionRequest.chainId}, the publicClient is on chain ${chainId}`,
    );
  }
  const send = async (request: TransactionRequest, what: string): Promise<Hex> => {
    const call = { to: request.to as Hex, data: request.data as Hex, value: BigInt(request.value) };
    const estimate = await publicClient.estimateGas({ account, ...call });
    const hash = await walletClient.sendTransaction({
      account,
      chain: walletClient.chain ?? null,
      ...call,
      gas: withGasMargin(estimate),
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`executeQuote: the ${what} ${hash} reverted`);
    return hash;
  };
  const { approval } = quote;
  if (approval !== null) {
    const call = decodeFunctionData({
      abi: erc20Abi,
      data: approval.transactionRequest.data as Hex,
    });
    if (call.functionName !== "approve") {
      throw new Error("executeQuote: approval.transactionRequest is not an approve call");
    }
    const [, needed] = call.args;
    const allowance = await publicClient.readContract({
      address: approval.token as Hex,
      abi: erc20Abi,
      functionName: "allowance",
      args: [account.address, approval.spender as Hex],
    });
    if (allowance < needed) await send(approval.transactionRequest, "approval");
  }
  return send(quote.transactionRequest, "bridge call");
}

/**
 * The gas limit sent: the estimate plus half. An estimate runs in the latest block, where a
 * Uniswap pool already swapped in that block skips its price-oracle writes; mined in the next
 * block the same call makes them, and an exact estimate runs out of gas. Unused gas is not paid.
 */
export function withGasMargin(estimate: bigint): bigint {
  return estimate + estimate / 2n;
}
