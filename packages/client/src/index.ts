export {
  type BridgeOracleClient,
  type CreateClientParameters,
  createClient,
} from "./create-client.js";
export { BridgeOracleError, type BridgeOracleErrorParameters } from "./errors.js";
export {
  type ExecuteQuoteParameters,
  type ExecuteQuoteReturnType,
  executeQuote,
} from "./execute-quote.js";
export type { components, paths } from "./generated/openapi.js";
export type { FetchFunction, RequestOptions } from "./request.js";
export type {
  BridgeTransaction,
  ChainsData,
  ConnectionsData,
  ConnectionsQuery,
  ListTransfersQuery,
  QuoteRequest,
  RouteQuote,
  TokensData,
  TokensQuery,
  TransactionRequest,
  TransferList,
  TransferStatus,
} from "./types.js";
export type { WaitForTransferOptions, WaitForTransferResult } from "./wait-for-transfer.js";
