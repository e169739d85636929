/**
 * The devnet's Uniswap V3 pools: which couples, fee tiers, starting prices and positions each
 * chain gets (human units; the deployer converts). Prices follow docs/protocol.md (WETH = 3,000
 * USDC, DAI = 1 USDC, ORC = 15 USDC, GOV = 2 USDC). Positions of several widths, some wholly
 * above or below the price, make swaps cross initialized ticks at realistic sizes.
 */
import type { ChainRole, TokenSymbol } from "./deploy-config.js";

/** Tick spacing of each fee tier enabled in a fresh UniswapV3Factory (plus 100, enabled here). */
export const V3_TICK_SPACING: Readonly<Record<string, number>> = {
  "100": 1,
  "500": 10,
  "3000": 60,
  "10000": 200,
};

export interface V3PositionSeed {
  /** Range ends in tick spacings from the starting tick (rounded down to the spacing). */
  lower: number;
  upper: number;
  /** Desired amounts, human units; the position manager takes what the range needs. */
  amountA: string;
  amountB: string;
}

export interface V3PoolSeed {
  tokenA: TokenSymbol;
  tokenB: TokenSymbol;
  /** Fee in hundredths of a basis point: 100, 500, 3000 or 10000. */
  fee: number;
  /** Price of one tokenA in tokenB, human units (decimal string). */
  priceAInB: string;
  positions: V3PositionSeed[];
}

export function v3PoolSeeds(role: ChainRole): V3PoolSeed[] {
  const seeds: V3PoolSeed[] = [
    {
      tokenA: "WETH",
      tokenB: "USDC",
      fee: 500,
      priceAInB: "3000",
      positions: [
        { lower: -1, upper: 1, amountA: "5", amountB: "15000" },
        { lower: -6, upper: 6, amountA: "20", amountB: "60000" },
        { lower: -60, upper: 60, amountA: "60", amountB: "180000" },
        { lower: -600, upper: 600, amountA: "100", amountB: "300000" },
        { lower: 12, upper: 40, amountA: "10", amountB: "30000" },
        { lower: -40, upper: -12, amountA: "10", amountB: "30000" },
      ],
    },
    {
      tokenA: "WETH",
      tokenB: "USDC",
      fee: 3000,
      priceAInB: "3000",
      positions: [
        { lower: -1, upper: 1, amountA: "10", amountB: "30000" },
        { lower: -10, upper: 10, amountA: "40", amountB: "120000" },
        { lower: -100, upper: 100, amountA: "60", amountB: "180000" },
      ],
    },
  ];
  // Chosen so that routes the devnet tests pin stay on V2 pairs: DAI/USDC on alpha and beta
  // (DAI to DAI stays kind 0's, DAI on alpha to USDC on beta keeps its source swap) and gamma's
  // GOV/USDC (moved by a test).
  if (!role.daiHome && !role.hasOrc) {
    seeds.push({
      tokenA: "DAI",
      tokenB: "USDC",
      fee: 100,
      priceAInB: "1",
      positions: [
        { lower: -1, upper: 2, amountA: "20000", amountB: "20000" },
        { lower: -5, upper: 5, amountA: "100000", amountB: "100000" },
        { lower: -50, upper: 50, amountA: "300000", amountB: "300000" },
        { lower: 8, upper: 20, amountA: "50000", amountB: "50000" },
      ],
    });
  }
  if (role.hasOrc) {
    seeds.push({
      tokenA: "ORC",
      tokenB: "WETH",
      fee: 10000,
      priceAInB: "0.005",
      positions: [
        { lower: -1, upper: 1, amountA: "1000", amountB: "5" },
        { lower: -20, upper: 20, amountA: "8000", amountB: "40" },
        { lower: 25, upper: 60, amountA: "2000", amountB: "10" },
      ],
    });
  }
  if (role.hasGov && role.hasOrc) {
    seeds.push({
      tokenA: "GOV",
      tokenB: "USDC",
      fee: 10000,
      priceAInB: "2",
      positions: [
        { lower: -1, upper: 1, amountA: "10000", amountB: "20000" },
        { lower: -5, upper: 5, amountA: "50000", amountB: "100000" },
        { lower: -40, upper: 40, amountA: "100000", amountB: "200000" },
      ],
    });
  }
  return seeds;
}
