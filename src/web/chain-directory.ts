/// <reference lib="dom" />
/**
 * What the page knows about chains and tokens from the discovery endpoints (GET
 * /api/oracle/chains and /tokens, once per page): chains' names for people, their block
 * explorers, and token symbols by address. Records name chains by `name` ("alpha"); a chain
 * the server does not list still reads well ("alpha" -> "Alpha") and simply has no explorer
 * links.
 */
import type { ExplorerChain } from "./api-client.js";
import { titleCase } from "./format.js";

export interface ChainDirectory {
  /** "Alpha" for "alpha" (the server's displayName when it lists the chain). */
  displayName(chainName: string): string;
  /** A block explorer link for a transaction, address or block; undefined without one. */
  explorerUrl(
    chainName: string,
    kind: "tx" | "address" | "block",
    value: string,
  ): string | undefined;
  /** The symbol of a token by its chain name and address; "" when unknown. */
  tokenSymbol(chainName: string, address: string): string;
  chainById(chainId: number): ExplorerChain | undefined;
  chains: readonly ExplorerChain[];
}

export function createChainDirectory(chains: readonly ExplorerChain[]): ChainDirectory {
  const byName = new Map(chains.map((chain) => [chain.name, chain]));
  return {
    chains,
    displayName: (name) => byName.get(name)?.displayName ?? titleCase(name),
    explorerUrl(name, kind, value) {
      const base = byName.get(name)?.blockExplorerUrls[0];
      return base === undefined || value === "" ? undefined : `${base}/${kind}/${value}`;
    },
    tokenSymbol(name, address) {
      const token = byName
        .get(name)
        ?.tokens.find((t) => t.address.toLowerCase() === address.toLowerCase());
      return token?.symbol ?? "";
    },
    chainById: (chainId) => chains.find((chain) => chain.chainId === chainId),
  };
}

/** A directory of no chains: names title-cased, no explorer links. */
export const EMPTY_DIRECTORY = createChainDirectory([]);
