/**
 * Uniswap's factories (and the TickLens the V3 state reader uses) on the mainnets the service
 * has presets for, as Uniswap publishes them:
 * - V2: docs.uniswap.org/contracts/v2/reference/smart-contracts/v2-deployments ("V2 Deployment
 *   Addresses": Factory and V2Router02 per network);
 * - V3 on Ethereum, Arbitrum, Optimism, Polygon: github.com/Uniswap/v3-periphery deploys.md
 *   ("Mainnet, Polygon, Optimism, Arbitrum" column), the same in
 *   docs.uniswap.org/contracts/v3/reference/deployments/arbitrum-deployments;
 * - V3 on Base: docs.uniswap.org/contracts/v3/reference/deployments/base-deployments (and
 *   docs.base.org/chain/contracts).
 * Registries for these chains take `dex.factory` / `dex.router` and `uniswapV3.factory` /
 * `uniswapV3.tickLens` from here; pools are listed per registry (docs/router.md).
 */
import type { Address } from "viem";

export interface UniswapPreset {
  chainId: number;
  name: string;
  v2: { factory: Address; router02: Address };
  v3: { factory: Address; tickLens: Address };
}

const V3_CANONICAL = {
  factory: "0x1F98431c8aD98523631AE4a59f267346ea31F984",
  tickLens: "0xbfd8137f7d1516D3ea5cA83523914859ec47F573",
} as const;

export const UNISWAP_PRESETS: readonly UniswapPreset[] = [
  {
    chainId: 1,
    name: "ethereum",
    v2: {
      factory: "0x5C69bEe701ef814a2B6a3EDD4B1652CB9cc5aA6f",
      router02: "0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D",
    },
    v3: V3_CANONICAL,
  },
  {
    chainId: 42161,
    name: "arbitrum",
    v2: {
      factory: "0xf1D7CC64Fb4452F05c498126312eBE29f30Fbcf9",
      router02: "0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24",
    },
    v3: V3_CANONICAL,
  },
  {
    chainId: 10,
    name: "optimism",
    v2: {
      factory: "0x0c3c1c532F1e39EdF36BE9Fe0bE1410313E074Bf",
      router02: "0x4A7b5Da61326A6379179b40d00F57E5bbDC962c2",
    },
    v3: V3_CANONICAL,
  },
  {
    chainId: 8453,
    name: "base",
    v2: {
      factory: "0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6",
      router02: "0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24",
    },
    v3: {
      factory: "0x33128a8fC17869897dcE68Ed026d694621f6FDfD",
      tickLens: "0x0CdeE061c75D43c82520eD998C23ac2991c9ac6d",
    },
  },
  {
    chainId: 137,
    name: "polygon",
    v2: {
      factory: "0x9e5A52f57b3038F1B8EeE45F28b3C1967e22799C",
      router02: "0xedf6066a2b290C185783862C7F4776A2C8077AD1",
    },
    v3: V3_CANONICAL,
  },
];

export function uniswapPreset(chainId: number): UniswapPreset | undefined {
  return UNISWAP_PRESETS.find((preset) => preset.chainId === chainId);
}
