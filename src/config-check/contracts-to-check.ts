/**
 * Every contract a configuration names, per chain, with what it is for the messages: the
 * indexer configuration's bridges (reference bridges, other protocols' contracts such as
 * LayerZero's endpoints and OFTs, Across' SpokePools) and, when the same file is a router
 * registry too, its DEX contracts, tokens and messaging endpoint. Each address once per chain
 * (the reference bridges are in both). Pure.
 */
import type { Address } from "viem";
import { DEFAULT_PROTOCOL, type RegistryBridge } from "../domain/bridge-registry.js";
import { NATIVE_ADDRESS, type Registry } from "../domain/registry.js";

export interface ContractToCheck {
  chainId: number;
  address: Address;
  /** What it is: "reference bridge kind 1", "layerzero-oft OFTAdapter", "Uniswap V2 pair". */
  what: string;
}

export function describeBridge(b: RegistryBridge): string {
  const protocol = b.protocol ?? DEFAULT_PROTOCOL;
  if (protocol === "layerzero-oft") {
    return `layerzero-oft ${b.auxiliary === true ? "EndpointV2" : b.kind === 0 ? "OFTAdapter" : "OFT"}`;
  }
  if (protocol === "across") return "across SpokePool";
  if (protocol === DEFAULT_PROTOCOL) return `reference bridge kind ${b.kind}`;
  return `${protocol} contract kind ${b.kind}`;
}

export function contractsToCheck(
  bridges: readonly RegistryBridge[],
  registry?: Registry,
): ContractToCheck[] {
  const out: ContractToCheck[] = [];
  const seen = new Set<string>();
  const add = (chainId: number, address: Address, what: string) => {
    const key = `${chainId}:${address.toLowerCase()}`;
    if (address === NATIVE_ADDRESS || seen.has(key)) return;
    seen.add(key);
    out.push({ chainId, address, what });
  };
  for (const b of bridges) add(b.chainId, b.address, describeBridge(b));
  for (const chain of registry?.chains ?? []) {
    const id = chain.chainId;
    if (chain.messagingEndpoint !== undefined) {
      add(id, chain.messagingEndpoint, "reference messaging endpoint");
    }
    add(id, chain.dex.factory, "Uniswap V2 factory");
    add(id, chain.dex.router, "Uniswap V2 router");
    for (const pair of chain.dex.pairs) {
      add(id, pair.address, `Uniswap V2 pair ${pair.token0.symbol}/${pair.token1.symbol}`);
    }
    if (chain.uniswapV3 !== undefined) {
      add(id, chain.uniswapV3.factory, "Uniswap V3 factory");
      add(id, chain.uniswapV3.tickLens, "Uniswap V3 TickLens");
      for (const pool of chain.uniswapV3.pools) {
        add(
          id,
          pool.address,
          `Uniswap V3 pool ${pool.token0.symbol}/${pool.token1.symbol} ${pool.fee}`,
        );
      }
    }
    for (const token of chain.tokens) add(id, token.address, `token ${token.symbol}`);
  }
  return out;
}
