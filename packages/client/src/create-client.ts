/**
 * `createClient({ baseUrl, apiKey, fetch })`: the API's endpoints as typed functions
 * (docs/client.md). Every function resolves to the envelope's `data` (for discovery, its list)
 * and rejects with a BridgeOracleError carrying the service's `code`, `msg` and HTTP status.
 */
import { callApi, type FetchFunction, type RequestOptions, type Transport } from "./request.js";
import type {
  ChainsData,
  ConnectionsData,
  ConnectionsQuery,
  ListTransfersQuery,
  QuoteRequest,
  RouteQuote,
  TokensData,
  TokensQuery,
  TransferList,
} from "./types.js";
import {
  type WaitForTransferOptions,
  type WaitForTransferResult,
  waitForTransfer,
} from "./wait-for-transfer.js";

export interface CreateClientParameters {
  /** Where the API is, e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  baseUrl: string;
  /** An API key: needed by getQuote, raises the rate limit elsewhere. */
  apiKey?: string | undefined;
  /** A fetch to use instead of the global one (tests, proxies, retries of your own). */
  fetch?: FetchFunction | undefined;
}

type ListOf<Data, Key extends string> = Data extends { [K in Key]: infer List } ? List : unknown;

export interface BridgeOracleClient {
  /** `GET /api/oracle/bridge-transactions`; pageNo defaults to 1 and pageSize to 10. */
  listTransfers(
    query: Omit<ListTransfersQuery, "pageNo" | "pageSize"> & {
      pageNo?: string | number;
      pageSize?: string | number;
    },
    options?: RequestOptions,
  ): Promise<TransferList>;
  /** `POST /api/oracle/router` (needs apiKey). */
  getQuote(request: QuoteRequest, options?: RequestOptions): Promise<RouteQuote>;
  /** `GET /api/oracle/chains`. */
  chains(options?: RequestOptions): Promise<ListOf<ChainsData, "chains">>;
  /** `GET /api/oracle/tokens` (one chain with `chainId`). */
  tokens(query?: TokensQuery, options?: RequestOptions): Promise<ListOf<TokensData, "tokens">>;
  /** `GET /api/oracle/connections` (filtered by `sourceChain` / `destChain`). */
  connections(
    query?: ConnectionsQuery,
    options?: RequestOptions,
  ): Promise<ListOf<ConnectionsData, "connections">>;
  /** Follows the transfer sent in `sourceTxHash` until it is Success or Failed. */
  waitForTransfer(
    sourceTxHash: string,
    options?: WaitForTransferOptions,
  ): Promise<WaitForTransferResult>;
}

export function createClient(parameters: CreateClientParameters): BridgeOracleClient {
  const fetchFunction = parameters.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const transport: Transport = {
    baseUrl: parameters.baseUrl,
    apiKey: parameters.apiKey,
    fetch: fetchFunction,
  };
  const get = <T>(path: string, query: object | undefined, options: RequestOptions | undefined) =>
    callApi<T>(transport, {
      method: "GET",
      path,
      query: query as Record<string, string | number | undefined> | undefined,
      signal: options?.signal,
    });

  const client: BridgeOracleClient = {
    listTransfers: (query, options) =>
      get<TransferList>(
        "/api/oracle/bridge-transactions",
        { pageNo: 1, pageSize: 10, ...query },
        options,
      ),
    getQuote: (request, options) =>
      callApi<RouteQuote>(transport, {
        method: "POST",
        path: "/api/oracle/router",
        body: request,
        signal: options?.signal,
      }),
    chains: async (options) =>
      (await get<{ chains: unknown }>("/api/oracle/chains", undefined, options)).chains as never,
    tokens: async (query, options) =>
      (await get<{ tokens: unknown }>("/api/oracle/tokens", query, options)).tokens as never,
    connections: async (query, options) =>
      (await get<{ connections: unknown }>("/api/oracle/connections", query, options))
        .connections as never,
    waitForTransfer: (sourceTxHash, options) =>
      waitForTransfer({ transport, listTransfers: client.listTransfers }, sourceTxHash, options),
  };
  return client;
}
