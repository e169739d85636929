/**
 * The API's shapes, taken from the generated OpenAPI types (generated/openapi.ts), never written
 * again by hand: a change of the served document changes these.
 */
import type { components, paths } from "./generated/openapi.js";

type Json<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

/** The `data` of an operation's 200 answer; `unknown` while the served document lacks the path. */
type SuccessData<Path extends string, Method extends string> = Path extends keyof paths
  ? Method extends keyof paths[Path]
    ? paths[Path][Method] extends { responses: { 200: infer Ok } }
      ? Json<Ok> extends { data: infer Data }
        ? Data
        : never
      : never
    : never
  : unknown;

type Query<Path extends string> = Path extends keyof paths
  ? paths[Path] extends { get: { parameters: { query?: infer Q } } }
    ? NonNullable<Q>
    : Record<string, string | undefined>
  : Record<string, string | undefined>;

/** One bridge transaction record (the 32 fields of docs/http-api.md, "The record"). */
export type BridgeTransaction = components["schemas"]["BridgeTransaction"];
/** A transfer's status. */
export type TransferStatus = BridgeTransaction["status"];

export type ListTransfersQuery = Query<"/api/oracle/bridge-transactions">;
/** `{ data: BridgeTransaction[], total, page: { page, pageSize } }` */
export type TransferList = SuccessData<"/api/oracle/bridge-transactions", "get">;

/** The router request: sourceChain, sourceToken, destChain, destToken, amount, to. */
export type QuoteRequest = Json<paths["/api/oracle/router"]["post"]["requestBody"]>;
/** A route quote: the spec's fields and the ready transactions beside them. */
export type RouteQuote = SuccessData<"/api/oracle/router", "post">;
/** `{ chainId, to, data, value }` as eth_sendTransaction takes it. */
export type TransactionRequest = RouteQuote["transactionRequest"];

/** A query whose string values may also be numbers: a chain id as chains() gives it. */
type NumbersToo<Q> = { [K in keyof Q]: Q[K] extends string | undefined ? Q[K] | number : Q[K] };

export type ChainsData = SuccessData<"/api/oracle/chains", "get">;
export type TokensQuery = NumbersToo<Query<"/api/oracle/tokens">>;
export type TokensData = SuccessData<"/api/oracle/tokens", "get">;
export type ConnectionsQuery = NumbersToo<Query<"/api/oracle/connections">>;
export type ConnectionsData = SuccessData<"/api/oracle/connections", "get">;
