/**
 * The router's public surface: the HTTP route uses createRouter / quoteFailureToApiError, the
 * state providers use stateRequirements and the StateSnapshot types, tests and the benchmark use
 * the fixture and toBridgeParams.
 */

export type { BridgeParams } from "../chain/bridge-params.js";
export { findBestRoute, isBetterRoute, type RouteFailure, type RouteResult } from "./best-route.js";
export { bridgeFee, totalFee } from "./bridge-fee.js";
export {
  createRouter,
  DEFAULT_SLIPPAGE_BPS,
  type QuoteFailure,
  type QuoteOptions,
  type QuoteResult,
  quoteFailureToApiError,
  type Router,
  type RouterDeps,
  routeFailureKind,
} from "./create-router.js";
export { getAmountIn, getAmountOut, getAmountsIn, getAmountsOut, swapFee } from "./dex.js";
export {
  type PreparedRoute,
  type PricedRoute,
  prepareRoute,
  priceRoute,
} from "./price-route.js";
export {
  buildQuoteData,
  type QuoteParams,
  type RouteQuoteData,
  type SignData,
  toBridgeParams,
} from "./quote-response.js";
export { type AmountRange, MAX_UINT256, routeAmountRange } from "./route-limits.js";
export { type CandidateRoute, createRouteIndex, enumerateRoutes } from "./routes.js";
export type {
  BridgeState,
  ChainState,
  PairReserves,
  StateSnapshot,
  TokenConfig,
} from "./state.js";
export {
  type BridgeStateRequirements,
  type ChainStateRequirements,
  stateRequirements,
} from "./state-requirements.js";
export { findSwapPath, type SwapHop, type SwapPath } from "./swap-path.js";
export {
  isEvmAddress,
  type RouterRequest,
  requestFailureToApiError,
  type ValidatedRouterRequest,
  validateRouterRequest,
} from "./validate-request.js";
