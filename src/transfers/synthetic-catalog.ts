/**
 * The chains, tokens and bridge contracts synthetic transfers are drawn from. Token decimals
 * follow the real deployments (USDC/USDT have 18 decimals on BNB Chain, 6 elsewhere) so that
 * generated data exercises cross-decimal amounts. Contract and token addresses are derived
 * deterministically from a label; they look real but are not the mainnet addresses.
 */
import { getAddress, keccak256, stringToBytes } from "viem";

export type TokenFamily = "USD" | "ETH" | "BTC";

export interface CatalogToken {
  symbol: string;
  decimals: number;
  address: string;
  family: TokenFamily;
}

export interface CatalogChain {
  name: string;
  /** Relative share of transfers that start or end on this chain. */
  weight: number;
  evm: boolean;
  tokens: readonly CatalogToken[];
  /** Bridge contract per bridge kind (0 lock-and-mint, 1 liquidity pool, 2 messaging). */
  bridges: readonly [string, string, string];
}

/** Rough USD prices, only to give amounts a realistic magnitude per token. */
export const FAMILY_USD_PRICE: Record<TokenFamily, number> = { USD: 1, ETH: 3000, BTC: 60000 };
/** The token each family is bridged as (the dest_bridge_token). */
export const FAMILY_BRIDGE_SYMBOL: Record<TokenFamily, readonly string[]> = {
  USD: ["USDC", "USDT"],
  ETH: ["WETH", "ETH"],
  BTC: ["WBTC", "BTCB"],
};
export const FAMILY_WEIGHTS: readonly { family: TokenFamily; weight: number }[] = [
  { family: "USD", weight: 70 },
  { family: "ETH", weight: 22 },
  { family: "BTC", weight: 8 },
];

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function derivedEvmAddress(label: string): string {
  return getAddress(`0x${keccak256(stringToBytes(label)).slice(-40)}`);
}

/** A deterministic base58 string of `length` characters (looks like a Solana key). */
export function derivedBase58(label: string, length = 44): string {
  let out = "";
  let round = 0;
  while (out.length < length) {
    const hash = keccak256(stringToBytes(`${label}#${round++}`));
    for (let i = 2; i + 2 <= hash.length && out.length < length; i += 2) {
      out += BASE58[Number.parseInt(hash.slice(i, i + 2), 16) % 58];
    }
  }
  return out;
}

type TokenSpec = [symbol: string, decimals: number, family: TokenFamily];

const EVM_TOKENS: TokenSpec[] = [
  ["USDC", 6, "USD"],
  ["USDT", 6, "USD"],
  ["DAI", 18, "USD"],
  ["WETH", 18, "ETH"],
  ["WBTC", 8, "BTC"],
];

const CHAIN_SPECS: { name: string; weight: number; tokens: TokenSpec[] }[] = [
  { name: "ethereum", weight: 26, tokens: EVM_TOKENS },
  { name: "arbitrum", weight: 20, tokens: EVM_TOKENS },
  { name: "base", weight: 16, tokens: EVM_TOKENS },
  { name: "optimism", weight: 10, tokens: EVM_TOKENS },
  { name: "polygon", weight: 10, tokens: EVM_TOKENS },
  {
    name: "bsc",
    weight: 10,
    tokens: [
      ["USDC", 18, "USD"],
      ["USDT", 18, "USD"],
      ["ETH", 18, "ETH"],
      ["BTCB", 18, "BTC"],
    ],
  },
  {
    name: "avalanche",
    weight: 6,
    tokens: [
      ["USDC", 6, "USD"],
      ["USDT", 6, "USD"],
      ["WETH.e", 18, "ETH"],
      ["WBTC.e", 8, "BTC"],
    ],
  },
];

/** Mints of the two real Solana stablecoins. */
const SOLANA_TOKENS: CatalogToken[] = [
  {
    symbol: "USDC",
    decimals: 6,
    family: "USD",
    address: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  },
  {
    symbol: "USDT",
    decimals: 6,
    family: "USD",
    address: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
  },
];

/** Builds the catalog (a few dozen keccak hashes; call once per generator). */
export function createSyntheticCatalog(): CatalogChain[] {
  const chains: CatalogChain[] = CHAIN_SPECS.map((spec) => ({
    name: spec.name,
    weight: spec.weight,
    evm: true,
    tokens: spec.tokens.map(([symbol, decimals, family]) => ({
      symbol,
      decimals,
      family,
      address: derivedEvmAddress(`token:${spec.name}:${symbol}`),
    })),
    bridges: [0, 1, 2].map((kind) => derivedEvmAddress(`bridge:${spec.name}:${kind}`)) as [
      string,
      string,
      string,
    ],
  }));
  // One non-EVM chain, rarely used, so that imports and lookups see base58 ids too.
  chains.push({
    name: "solana",
    weight: 2,
    evm: false,
    tokens: SOLANA_TOKENS,
    bridges: [0, 1, 2].map((kind) => derivedBase58(`bridge:solana:${kind}`, 44)) as [
      string,
      string,
      string,
    ],
  });
  return chains;
}
