/**
 * Token symbol and decimals, read from chain once per (chain, token) and cached in memory and
 * in token_metadata. Shared by every chain's loop: a send on alpha needs the metadata of its
 * destination tokens on beta, read through beta's client.
 */
import { type Hex, zeroAddress } from "viem";
import type { ChainClient } from "../chain/create-chain-client.js";
import type { TokenMetadata } from "../domain/send-tokens.js";
import type { TokenMetadataRow } from "../store/indexer-repository.js";
import { mapLimit } from "./map-limit.js";
import { boundedSymbol } from "./token-symbol.js";

export interface TokenMetadataCache {
  /** Synchronous lookup for the pure reducer; undefined when never loaded. */
  get(chainId: number, address: string): TokenMetadata | undefined;
  /** Reads the missing ones from chain; returns the rows that were new (to be stored). */
  ensure(tokens: readonly { chainId: number; address: string }[]): Promise<TokenMetadataRow[]>;
  /** Adds rows loaded from the database. */
  load(rows: readonly TokenMetadataRow[]): void;
  /** The cached rows of these tokens, each once (native coin and unknown ones left out). */
  rows(tokens: readonly { chainId: number; address: string }[]): TokenMetadataRow[];
}

export function createTokenMetadataCache(
  clients: ReadonlyMap<number, ChainClient>,
): TokenMetadataCache {
  const cache = new Map<string, TokenMetadata>();
  const key = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`;
  return {
    get: (chainId, address) => cache.get(key(chainId, address)),
    load(rows) {
      for (const r of rows)
        cache.set(key(r.chainId, r.address), { symbol: r.symbol, decimals: r.decimals });
    },
    rows(tokens) {
      const out = new Map<string, TokenMetadataRow>();
      for (const t of tokens) {
        const k = key(t.chainId, t.address);
        const meta = cache.get(k);
        if (meta === undefined || out.has(k)) continue;
        out.set(k, { chainId: t.chainId, address: t.address.toLowerCase(), ...meta });
      }
      return [...out.values()];
    },
    async ensure(tokens) {
      const missing = new Map<string, { chainId: number; address: string }>();
      for (const t of tokens) {
        if (t.address.toLowerCase() === zeroAddress) continue;
        if (!cache.has(key(t.chainId, t.address))) missing.set(key(t.chainId, t.address), t);
      }
      const known = [...missing.values()].filter((t) => clients.has(t.chainId));
      const read = await mapLimit(known, 8, (t) =>
        clients.get(t.chainId)!.readTokenMetadata(t.address as Hex),
      );
      return known.map((t, i) => {
        const meta = { ...read[i]!, symbol: boundedSymbol(read[i]!.symbol) };
        cache.set(key(t.chainId, t.address), meta);
        return { chainId: t.chainId, address: t.address.toLowerCase(), ...meta };
      });
    },
  };
}
