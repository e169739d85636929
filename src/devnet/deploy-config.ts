/**
 * What the deployer puts on each devnet chain: tokens, seeded DEX pairs, bridge fee rules and
 * user funding, in human units (converted with the token's decimals by the deployer). The values
 * follow docs/protocol.md: WETH = 3,000 USDC, DAI = 1 USDC, ORC = 15 USDC, GOV = 2 USDC.
 */
import type { BridgeKind } from "../domain/bridge-kind.js";

export type TokenSymbol = "USDC" | "DAI" | "WETH" | "ORC" | "GOV";

export interface TokenSpec {
  symbol: TokenSymbol;
  name: string;
  decimals: number;
  bridgeKinds: BridgeKind[];
}

/** Which tokens a chain has, by its position in the devnet (alpha = 0, beta = 1, gamma = 2). */
export interface ChainRole {
  /** Canonical DAI lives here (kind 0 locks it); elsewhere DAI is wrapped (kind 0 mints it). */
  daiHome: boolean;
  hasOrc: boolean;
  hasGov: boolean;
}

export function chainRole(index: number): ChainRole {
  return { daiHome: index === 0, hasOrc: index <= 1, hasGov: index >= 1 };
}

export function tokenSpecs(role: ChainRole): TokenSpec[] {
  const specs: TokenSpec[] = [
    { symbol: "USDC", name: "USD Coin", decimals: 6, bridgeKinds: [1, 2] },
    {
      symbol: "DAI",
      name: role.daiHome ? "Dai Stablecoin" : "Dai Stablecoin (bridged)",
      decimals: 18,
      bridgeKinds: [0],
    },
    { symbol: "WETH", name: "Wrapped Ether", decimals: 18, bridgeKinds: [] },
  ];
  if (role.hasOrc) specs.push({ symbol: "ORC", name: "Orc Token", decimals: 8, bridgeKinds: [] });
  if (role.hasGov) {
    specs.push({ symbol: "GOV", name: "Governance Token", decimals: 18, bridgeKinds: [] });
  }
  return specs;
}

/** Seeded pairs: [tokenA, amountA, tokenB, amountB] in human units; deep enough for price impact. */
export function pairSeeds(role: ChainRole): Array<[TokenSymbol, string, TokenSymbol, string]> {
  const seeds: Array<[TokenSymbol, string, TokenSymbol, string]> = [
    ["USDC", "3000000", "WETH", "1000"],
    ["DAI", "2000000", "USDC", "2000000"],
  ];
  if (role.hasOrc) seeds.push(["ORC", "40000", "WETH", "200"]);
  if (role.hasGov) seeds.push(["GOV", "500000", "USDC", "1000000"]);
  return seeds;
}

/** Bridge fee rules (`setTokenConfig`), human units of the bridge token. */
export interface FeeRule {
  symbol: TokenSymbol;
  feeBps: number;
  flatFee: string;
  minAmount: string;
  /** "0": no per-transfer cap. */
  maxAmount: string;
}

export const FEE_RULES: Record<BridgeKind, FeeRule> = {
  0: { symbol: "DAI", feeBps: 10, flatFee: "1", minAmount: "5", maxAmount: "50000" },
  1: { symbol: "USDC", feeBps: 6, flatFee: "0.5", minAmount: "1", maxAmount: "0" },
  2: { symbol: "USDC", feeBps: 2, flatFee: "0.1", minAmount: "1", maxAmount: "1000000" },
};

/** USDC each chain's pool bridge (kind 1) starts with. */
export const POOL_LIQUIDITY_USDC = "200000";

/** Messaging fee (kind 2) to the chain at `destIndex`: 0.8, 1.0, 1.2 USDC, repeating. */
export function messageFeeUsdc(destIndex: number): string {
  return ["0.8", "1", "1.2"][destIndex % 3] ?? "1";
}

/** What every user account (indexes 2-9) gets of each token the chain has. */
export const USER_FUNDING: Record<TokenSymbol, string> = {
  USDC: "100000",
  DAI: "100000",
  WETH: "50",
  ORC: "5000",
  GOV: "50000",
};

/** Native coin of the deployer (set with anvil_setBalance): wraps WETH for pairs and users. */
export const DEPLOYER_NATIVE_WEI = 10n ** 27n;

/** Native coin of every user account: 10,000 ETH, anvil's default. */
export const USER_NATIVE_WEI = 10_000n * 10n ** 18n;

/** Per-chain ids of the bridge kinds' schemes for the chain at `index` (docs/protocol.md table). */
export function defaultBridgeIds(index: number): { poolChainId: number; endpointId: number } {
  return { poolChainId: 101 + index, endpointId: 40101 + index };
}
