/// <reference lib="dom" />
/**
 * Bridging a quote from a browser wallet (EIP-1193), found through EIP-6963 (each wallet
 * answers `eip6963:requestProvider` with an `eip6963:announceProvider` event) or, for wallets
 * that do not announce, `window.ethereum`. The flow:
 *   1. eth_requestAccounts: the sender;
 *   2. refuse an expired quote (its expiresAt passed: the service no longer stands by it);
 *   3. the wallet on the source chain: wallet_switchEthereumChain, and on 4902 (unknown chain)
 *      wallet_addEthereumChain with the RPC URLs the server publishes for it (GET
 *      /api/oracle/chains `rpcUrls`; none: the user is told to add it by hand), then a switch
 *      again for wallets that add without switching (EIP-3085 leaves that open); checked after;
 *   4. the source token balance (and the native coin's, for value) covers the amount;
 *   5. the approval when the quote has one and the allowance (read through the wallet) is short;
 *      waits for its receipt;
 *   6. the bridge transaction (transactionRequest) from the sender; waits for its receipt.
 * Returns the bridge transaction's hash; the page then follows the transfer on its own page.
 */
import { WalletFlowError, walletErrorCode } from "./wallet-errors.js";

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

export interface WalletInfo {
  name: string;
  provider: Eip1193Provider;
}

export interface TransactionRequest {
  chainId: number;
  to: string;
  data: string;
  value: string;
}

/** What bridging needs of a quote (the quote's extension fields, docs/router.md). */
export interface ExecutableQuote {
  transactionRequest: TransactionRequest;
  approval: {
    token: string;
    spender: string;
    amount: string;
    transactionRequest: TransactionRequest;
  } | null;
  /** UTC "YYYY-MM-DD HH:MM:SS". */
  expiresAt: string;
}

export function executableQuote(quote: unknown): ExecutableQuote | undefined {
  const q = quote as Partial<ExecutableQuote> | undefined;
  const tx = q?.transactionRequest;
  if (tx === undefined || typeof tx.to !== "string" || typeof tx.data !== "string")
    return undefined;
  return {
    transactionRequest: tx,
    approval: q?.approval ?? null,
    expiresAt: typeof q?.expiresAt === "string" ? q.expiresAt : "",
  };
}

/** Wallets that announce themselves (EIP-6963), else window.ethereum, else none. */
export async function discoverWallets(win: Window, waitMs = 100): Promise<WalletInfo[]> {
  const found: WalletInfo[] = [];
  const onAnnounce = (event: Event) => {
    const detail = (event as CustomEvent).detail as
      | { info?: { name?: string; uuid?: string }; provider?: Eip1193Provider }
      | undefined;
    if (detail?.provider === undefined || found.some((w) => w.provider === detail.provider)) return;
    found.push({ name: detail.info?.name ?? "wallet", provider: detail.provider });
  };
  win.addEventListener("eip6963:announceProvider", onAnnounce);
  win.dispatchEvent(new Event("eip6963:requestProvider"));
  // Wallets answer at once (synchronously, or from their content script within a few ms).
  await new Promise((resolve) => win.setTimeout(resolve, waitMs));
  win.removeEventListener("eip6963:announceProvider", onAnnounce);
  const injected = (win as unknown as { ethereum?: Eip1193Provider }).ethereum;
  if (found.length === 0 && injected !== undefined && typeof injected.request === "function") {
    found.push({ name: "browser wallet", provider: injected });
  }
  return found;
}

const hexQuantity = (n: number | bigint) => `0x${n.toString(16)}`;
const pad32 = (address: string) => address.toLowerCase().replace(/^0x/, "").padStart(64, "0");

/** Milliseconds of a "YYYY-MM-DD HH:MM:SS" UTC time; NaN for anything else. */
export function utcMillis(text: string): number {
  return Date.parse(`${text.replace(" ", "T")}Z`);
}

export interface BridgeChain {
  chainId: number;
  name: string;
  /** The native coin's name for wallet_addEthereumChain (default: its symbol). */
  nativeName?: string;
  nativeSymbol?: string;
  /** The native coin's decimals (default 18). */
  nativeDecimals?: number;
  /** Public RPC URLs for wallet_addEthereumChain (the server's `rpcUrls`); none: no adding. */
  rpcUrls?: readonly string[];
  /** The chain's block explorer for wallet_addEthereumChain (the server's `blockExplorerUrls`). */
  blockExplorerUrls?: readonly string[];
}

export interface BridgeFlowDeps {
  provider: Eip1193Provider;
  quote: ExecutableQuote;
  /** The source chain, for messages and wallet_addEthereumChain. */
  chain: BridgeChain;
  /** Tells the user what is happening (one line). */
  onStatus(text: string): void;
  now?: () => number;
  /** Between receipt polls. */
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export async function bridgeWithWallet(deps: BridgeFlowDeps): Promise<string> {
  const { provider, quote, chain, onStatus } = deps;
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const pollMs = deps.pollMs ?? 1000;
  const tx = quote.transactionRequest;
  const chainName = `${chain.name} (${chain.chainId})`;

  onStatus("Connecting to your wallet…");
  const accounts = (await provider.request({ method: "eth_requestAccounts" })) as string[];
  const from = accounts[0];
  if (from === undefined)
    throw new WalletFlowError("Your wallet gave no account. Unlock it and try again.");

  const expires = utcMillis(quote.expiresAt);
  if (Number.isFinite(expires) && now() > expires) {
    throw new WalletFlowError(
      `This quote expired at ${quote.expiresAt} UTC: prices may have moved. Get a new quote and bridge again.`,
    );
  }

  await ensureChain(provider, chain, onStatus);
  const current = Number(await provider.request({ method: "eth_chainId" }));
  if (current !== tx.chainId) {
    throw new WalletFlowError(
      `Your wallet is on chain ${current}, not on ${chainName}. Switch it to ${chainName} and try again.`,
    );
  }

  const value = BigInt(tx.value === "" ? "0x0" : tx.value);
  const call = (to: string, data: string) =>
    provider.request({ method: "eth_call", params: [{ to, data }, "latest"] }) as Promise<string>;
  if (quote.approval !== null) {
    const needed = BigInt(`0x${quote.approval.transactionRequest.data.slice(-64)}`);
    const balance = BigInt(await call(quote.approval.token, `0x70a08231${pad32(from)}`));
    if (balance < needed) {
      throw new WalletFlowError(
        `Your account ${from} does not hold enough of the token to send on ${chainName} (the quote needs ${quote.approval.amount}). Nothing was sent.`,
      );
    }
    const allowance = BigInt(
      await call(quote.approval.token, `0xdd62ed3e${pad32(from)}${pad32(quote.approval.spender)}`),
    );
    if (allowance < needed) {
      onStatus("Approve the bridge to spend the token, in your wallet…");
      const approval = await send(provider, from, quote.approval.transactionRequest);
      onStatus("Waiting for the approval to be mined…");
      await waitForReceipt(provider, approval, "The approval", sleep, pollMs);
    }
  }
  const native = BigInt(
    (await provider.request({ method: "eth_getBalance", params: [from, "latest"] })) as string,
  );
  if (native <= value) {
    throw new WalletFlowError(
      `Your account ${from} does not have enough of ${chain.nativeSymbol ?? "the native coin"} on ${chainName} for the amount and gas. Nothing was sent.`,
    );
  }
  onStatus("Confirm the bridge transaction in your wallet…");
  const hash = await send(provider, from, tx);
  onStatus("Waiting for the bridge transaction to be mined…");
  await waitForReceipt(provider, hash, "The bridge transaction", sleep, pollMs);
  return hash;
}

async function ensureChain(
  provider: Eip1193Provider,
  chain: BridgeChain,
  onStatus: (text: string) => void,
): Promise<void> {
  const current = Number(await provider.request({ method: "eth_chainId" }));
  if (current === chain.chainId) return;
  onStatus(`Switch your wallet to ${chain.name}…`);
  const chainId = hexQuantity(chain.chainId);
  const switchChain = () =>
    provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId }] });
  try {
    await switchChain();
  } catch (error) {
    if (walletErrorCode(error) !== 4902) throw error;
    await addChain(provider, chain, onStatus);
    // Wallets may add a chain without switching to it (EIP-3085); it is known now.
    const added = Number(await provider.request({ method: "eth_chainId" }));
    if (added !== chain.chainId) await switchChain();
  }
}

async function addChain(
  provider: Eip1193Provider,
  chain: BridgeChain,
  onStatus: (text: string) => void,
): Promise<void> {
  const rpcUrls = chain.rpcUrls ?? [];
  if (rpcUrls.length === 0) {
    throw new WalletFlowError(
      `Your wallet does not know ${chain.name} (chain id ${chain.chainId}) and this server publishes no RPC URL for it. Add it as a network with its RPC URL by hand and try again.`,
    );
  }
  onStatus(`Add ${chain.name} to your wallet…`);
  const symbol = chain.nativeSymbol ?? "ETH";
  await provider.request({
    method: "wallet_addEthereumChain",
    params: [
      {
        chainId: hexQuantity(chain.chainId),
        chainName: chain.name,
        nativeCurrency: {
          name: chain.nativeName ?? symbol,
          symbol,
          decimals: chain.nativeDecimals ?? 18,
        },
        rpcUrls: [...rpcUrls],
        ...(chain.blockExplorerUrls?.length
          ? { blockExplorerUrls: [...chain.blockExplorerUrls] }
          : {}),
      },
    ],
  });
}

async function send(
  provider: Eip1193Provider,
  from: string,
  tx: TransactionRequest,
): Promise<string> {
  return (await provider.request({
    method: "eth_sendTransaction",
    params: [{ from, to: tx.to, data: tx.data, value: tx.value, chainId: hexQuantity(tx.chainId) }],
  })) as string;
}

async function waitForReceipt(
  provider: Eip1193Provider,
  hash: string,
  what: string,
  sleep: (ms: number) => Promise<void>,
  pollMs: number,
): Promise<void> {
  for (;;) {
    const receipt = (await provider.request({
      method: "eth_getTransactionReceipt",
      params: [hash],
    })) as { status?: string } | null;
    if (receipt !== null && receipt !== undefined) {
      if (receipt.status === "0x1") return;
      throw new WalletFlowError(`${what} ${hash} failed on chain (reverted). Nothing was bridged.`);
    }
    await sleep(pollMs);
  }
}
