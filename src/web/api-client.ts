/**
 * The explorer's HTTP client: the list and router endpoints and the explorer's own chain list.
 * Every answer is the `{ code, msg, data }` envelope (docs/http-api.md, "The envelope"); a failure
 * of any kind (HTTP error, network error, a body that is not an envelope) becomes
 * `{ ok: false, msg }` so the page has one thing to show the user.
 */
import type { RouteQuoteData } from "../router/quote-response.js";
import type { RouterRequest } from "../router/validate-request.js";
import type { BridgeTransaction } from "../store/types.js";

export interface TransferPage {
  data: BridgeTransaction[];
  total: number;
  page: { page: number; pageSize: number };
}

/** The body of POST /router, as the server reads it. */
export type QuoteRequest = RouterRequest;

/** A chain of the router's registry, with its tokens (GET /explorer/chains.json). */
export interface ExplorerChain {
  chainId: number;
  name: string;
  tokens: { address: string; symbol: string; decimals: number }[];
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
  /** The registry's chains and tokens; `chains: []` when the server routes nothing. */
  chains(): Promise<ApiResult<{ chains: ExplorerChain[] }>>;
}

export const LIST_TRANSFERS_PATH = "/api/oracle/bridge-transactions";
export const ROUTER_PATH = "/api/oracle/router";
export const CHAINS_PATH = "/explorer/chains.json";

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
      return call<{ chains: ExplorerChain[] }>(CHAINS_PATH, {
        headers: { accept: "application/json" },
      });
    },
  };
}
