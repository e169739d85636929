/**
 * viem clients for one devnet chain. Each caller gets its own nonce manager, so two relayers (or
 * a relayer and the traffic generator) in one process never share a cached nonce.
 */
import {
  type Account,
  type Chain,
  createPublicClient,
  createWalletClient,
  defineChain,
  type Hex,
  http,
  type PublicClient,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  type Transport,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { createNonceManager, jsonRpc } from "viem/nonce";
import type { ManifestChain } from "./manifest.js";

export type DevnetWalletClient = WalletClient<Transport, Chain, Account>;

export interface DevnetChainClients {
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  walletClient: DevnetWalletClient;
}

/** A viem Chain for a manifest chain (anvil's native coin is ETH). */
export function devnetChain(chain: ManifestChain): Chain {
  return defineChain({
    id: chain.chainId,
    name: chain.name,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
}

export function createDevnetClients(
  chain: ManifestChain,
  privateKey: Hex,
  pollingIntervalMs = 200,
): DevnetChainClients {
  const viemChain = devnetChain(chain);
  // Retries with backoff live in the transport: a briefly unreachable anvil is not an error.
  const transport = http(chain.rpcUrl, { retryCount: 3, retryDelay: 200, timeout: 10_000 });
  const account = privateKeyToAccount(privateKey, {
    nonceManager: createNonceManager({ source: jsonRpc() }),
  });
  return {
    chain: viemChain,
    publicClient: createPublicClient({
      chain: viemChain,
      transport,
      pollingInterval: pollingIntervalMs,
    }),
    walletClient: createWalletClient({
      chain: viemChain,
      transport,
      account,
      pollingInterval: pollingIntervalMs,
    }),
  };
}

/**
 * Polls for a transaction's receipt until it exists, `signal` aborts or `timeoutMs` passes.
 * Unlike viem's waitForTransactionReceipt it gives up at once when aborted and surfaces RPC
 * errors, so stopping the devnet is never held up by a node that is already gone.
 */
export async function waitForReceipt(
  publicClient: PublicClient<Transport, Chain>,
  hash: Hex,
  options: { signal?: AbortSignal; timeoutMs?: number; pollMs?: number } = {},
): Promise<TransactionReceipt> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (options.signal?.aborted) throw new Error(`stopped while waiting for ${hash}`);
    try {
      return await publicClient.getTransactionReceipt({ hash });
    } catch (error) {
      if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
    }
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash} in time`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 200));
  }
}

/**
 * The gas limit for a transaction whose eth_estimateGas was `estimate`: 50 % more. The estimate
 * runs in the latest block's environment, but the transaction is mined in a later block, and a
 * swap's gas depends on block.timestamp: a Uniswap V2 pair updates its price accumulators (two
 * more SSTOREs) and a V3 pool writes an oracle observation only on its first swap of a new
 * timestamp. A pair last swapped in the latest block is estimated without those writes and then
 * needs them: with the bare estimate as limit, such a bridge() or delivery ran out of gas (gas used
 * == limit). The headroom also covers pools moved by transactions mined first (the SwapAdapter's
 * venue choice, QuoterV2 calls and V3 tick crossings follow the pool state).
 */
export function withGasHeadroom(estimate: bigint): bigint {
  return estimate + estimate / 2n;
}
