/**
 * The explorer's HTTP client: the list and router endpoints and the explorer's own chain list.
 * Every answer is the `{ code, msg, data }` envelope (docs/http-api.md, "The envelope"); a failure
 * of any kind (HTTP error, network error, a body that is not an envelope) becomes
 * `{ ok: false, msg }` so the page has one thing to show the user.
 */

import type { BridgeTransaction } from "../domain/bridge-transaction.js";
import type {
  RouteQuoteData,
  RouterRequest,
  TransferSummary,
  TransferTimeline,
} from "./api-types.js";

export interface TransferPage {
  data: BridgeTransaction[];
  total: number;
  page: { page: number; pageSize: number };
}

/** The body of POST /router, as the server reads it. */
export type QuoteRequest = RouterRequest;

/** A chain the router quotes, with its tokens (GET /api/oracle/chains and /tokens). */
export interface ExplorerChain {
  chainId: number;
  name: string;
  /** The chain's name for people (the server's displayName; older servers: the name). */
  displayName: string;
  /** The chain's block explorer (`<url>/tx/<hash>` ...); empty when none is published. */
  blockExplorerUrls: string[];
  nativeName: string;
  nativeSymbol: string;
  nativeDecimals: number;
  /** Public RPC URLs the server publishes (for wallet_addEthereumChain); often none. */
  rpcUrls: string[];
  tokens: { address: string; symbol: string; decimals: number }[];
}

/** What the page reads of a GET /api/oracle/chains entry. */
interface DiscoveredChain {
  chainId: number;
  name: string;
  displayName?: string;
  blockExplorerUrls?: string[];
  nativeCurrency: { name: string; symbol: string; decimals: number };
  rpcUrls: string[];
}

export type ApiResult<T> =
  | { ok: true; data: T }
  | { ok: false; code: number | undefined; status: number; msg: string };

export interface ApiClient {
  listTransfers(
    query: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<ApiResult<TransferPage>>;
  quote(request: QuoteRequest, apiKey: string): Promise<ApiResult<RouteQuoteData>>;
  /** The router's chains and tokens (discovery); `[]` when the server routes nothing. */
  chains(): Promise<ApiResult<ExplorerChain[]>>;
  /** The newest transfers across the service. */
  latest(limit: number): Promise<ApiResult<{ data: BridgeTransaction[] }>>;
  summary(): Promise<ApiResult<TransferSummary>>;
  /** One transfer by its message id or a transaction hash only it has. */
  timeline(id: string): Promise<ApiResult<TransferTimeline>>;
}

export const LIST_TRANSFERS_PATH = "/api/oracle/bridge-transactions";
export const ROUTER_PATH = "/api/oracle/router";
export const CHAINS_PATH = "/api/oracle/chains";
export const TOKENS_PATH = "/api/oracle/tokens";
export const LATEST_PATH = "/api/oracle/bridge-transactions/latest";
export const SUMMARY_PATH = "/api/oracle/stats/summary";

const JSON_ACCEPT = { accept: "application/json" };

/** Calls the API on the page's own origin. */
export function createApiClient(): ApiClient {
  async function call<T>(path: string, init: RequestInit): Promise<ApiResult<T>> {
    let response: Response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      if ((error as Error).name === "AbortError") throw error;
      return { ok: false, code: undefined, status: 0, msg: "the API could not be reached" };
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      return {
        ok: false,
        code: undefined,
        status: response.status,
        msg: `the API answered HTTP ${response.status} without a JSON body`,
      };
    }
    const envelope = body as { code?: unknown; msg?: unknown; data?: unknown };
    if (response.ok && envelope.code === 0) return { ok: true, data: envelope.data as T };
    return {
      ok: false,
      code: typeof envelope.code === "number" ? envelope.code : undefined,
      status: response.status,
      msg:
        typeof envelope.msg === "string" && envelope.msg !== ""
          ? envelope.msg
          : `the API answered HTTP ${response.status}`,
    };
  }

  async function readChains(): Promise<ApiResult<ExplorerChain[]>> {
    const [chains, tokens] = await Promise.all([
      call<{ chains: DiscoveredChain[] }>(CHAINS_PATH, { headers: JSON_ACCEPT }),
      call<{ tokens: { chainId: number; address: string; symbol: string; decimals: number }[] }>(
        TOKENS_PATH,
        { headers: JSON_ACCEPT },
      ),
    ]);
    if (!chains.ok) return chains;
    if (!tokens.ok) return tokens;
    return {
      ok: true,
      data: chains.data.chains.map((chain) => ({
        chainId: chain.chainId,
        name: chain.name,
        displayName: chain.displayName ?? chain.name,
        blockExplorerUrls: chain.blockExplorerUrls ?? [],
        nativeName: chain.nativeCurrency.name,
        nativeSymbol: chain.nativeCurrency.symbol,
        nativeDecimals: chain.nativeCurrency.decimals,
        rpcUrls: chain.rpcUrls,
        tokens: tokens.data.tokens
          .filter((token) => token.chainId === chain.chainId)
          .map(({ address, symbol, decimals }) => ({ address, symbol, decimals })),
      })),
    };
  }

  /** The registry changes only when the server restarts: read once per page. */
  let chainsOnce: Promise<ApiResult<ExplorerChain[]>> | undefined;

  return {
    listTransfers(query, signal) {
      const search = new URLSearchParams(query).toString();
      return call<TransferPage>(`${LIST_TRANSFERS_PATH}?${search}`, {
        headers: { accept: "application/json" },
        ...(signal !== undefined ? { signal } : {}),
      });
    },
    quote(request, apiKey) {
      const headers: Record<string, string> = {
        accept: "application/json",
        "content-type": "application/json",
      };
      // No key: send none, so the server's own "missing API key" message is what the user sees.
      if (apiKey.trim() !== "") headers.authorization = apiKey.trim();
      return call<RouteQuoteData>(ROUTER_PATH, {
        method: "POST",
        headers,
        body: JSON.stringify(request),
      });
    },
    chains() {
      chainsOnce ??= readChains().then((answer) => {
        if (!answer.ok) chainsOnce = undefined; // a failure is asked again next time
        return answer;
      });
      return chainsOnce;
    },
    latest(limit) {
      return call<{ data: BridgeTransaction[] }>(`${LATEST_PATH}?limit=${limit}`, {
        headers: JSON_ACCEPT,
      });
    },
    summary() {
      return call<TransferSummary>(SUMMARY_PATH, { headers: JSON_ACCEPT });
    },
    timeline(id) {
      return call<TransferTimeline>(`${LIST_TRANSFERS_PATH}/${encodeURIComponent(id)}/timeline`, {
        headers: JSON_ACCEPT,
      });
    },
  };
}
