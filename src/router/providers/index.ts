/** State providers: where the router's StateSnapshot comes from. */
export {
  type ChainReadStatus,
  type ChainStateProvider,
  type ChainStateProviderOptions,
  createChainStateProvider,
  type ProviderLogger,
  type StateReaderClient,
  type StateSource,
} from "./chain-state-provider.js";
export { createStaticStateProvider, type StaticStateProvider } from "./static-state-provider.js";
