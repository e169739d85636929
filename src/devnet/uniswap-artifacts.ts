/**
 * Uniswap's own compiled contracts, as published on npm (pinned in package.json; GPL / BUSL, so
 * they are dependencies, never committed): read from node_modules when the devnet deploys.
 *
 *   @uniswap/v2-core@1.0.1       build/UniswapV2Factory.json, build/UniswapV2Pair.json
 *   @uniswap/v2-periphery@1.1.0-beta.0  build/UniswapV2Router02.json, build/WETH9.json
 *   @uniswap/v3-core@1.0.1       artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json, ...
 *   @uniswap/v3-periphery@1.4.4  artifacts/contracts/{SwapRouter,NonfungiblePositionManager}.sol/,
 *                                artifacts/contracts/lens/{QuoterV2,TickLens}.sol/
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Abi, Hex } from "viem";

export interface UniswapArtifact {
  abi: Abi;
  /** Creation code as published. */
  bytecode: Hex;
}

const UNISWAP_ARTIFACT_PATHS = {
  UniswapV2Factory: "@uniswap/v2-core/build/UniswapV2Factory.json",
  UniswapV2Pair: "@uniswap/v2-core/build/UniswapV2Pair.json",
  UniswapV2Router02: "@uniswap/v2-periphery/build/UniswapV2Router02.json",
  WETH9: "@uniswap/v2-periphery/build/WETH9.json",
  UniswapV3Factory:
    "@uniswap/v3-core/artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json",
  UniswapV3Pool: "@uniswap/v3-core/artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json",
  NonfungiblePositionManager:
    "@uniswap/v3-periphery/artifacts/contracts/NonfungiblePositionManager.sol/NonfungiblePositionManager.json",
  SwapRouter: "@uniswap/v3-periphery/artifacts/contracts/SwapRouter.sol/SwapRouter.json",
  QuoterV2: "@uniswap/v3-periphery/artifacts/contracts/lens/QuoterV2.sol/QuoterV2.json",
  TickLens: "@uniswap/v3-periphery/artifacts/contracts/lens/TickLens.sol/TickLens.json",
} as const;

export type UniswapContractName = keyof typeof UNISWAP_ARTIFACT_PATHS;

/** Mainnet's UniswapV2Factory init code hash: keccak256 of UniswapV2Pair's creation code. */
export const UNISWAP_V2_PAIR_INIT_CODE_HASH =
  "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f";
/** v3-periphery's PoolAddress.POOL_INIT_CODE_HASH: keccak256 of UniswapV3Pool's creation code. */
export const UNISWAP_V3_POOL_INIT_CODE_HASH =
  "0xe34f199b19b2b4f47f68442619d555527d244f78a3297ea89325f843f87b8b54";

const require = createRequire(import.meta.url);
const cache = new Map<UniswapContractName, UniswapArtifact>();

/** The published artifact of `name` (read once per process). */
export function uniswapArtifact(name: UniswapContractName): UniswapArtifact {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const path = require.resolve(UNISWAP_ARTIFACT_PATHS[name]);
  const json = JSON.parse(readFileSync(path, "utf8")) as { abi: Abi; bytecode: string };
  const bytecode = (json.bytecode.startsWith("0x") ? json.bytecode : `0x${json.bytecode}`) as Hex;
  const artifact = { abi: json.abi, bytecode };
  cache.set(name, artifact);
  return artifact;
}
