/**
 * Uniswap V3 on one devnet chain, from Uniswap's published artifacts (uniswap-artifacts.ts):
 * UniswapV3Factory (with the 0.01 % tier enabled, as governance did on mainnet),
 * NonfungiblePositionManager, SwapRouter, QuoterV2 and TickLens; then the pools and positions of
 * uniswap-v3-config.ts, created and minted through the position manager.
 */
import {
  type Address,
  encodeAbiParameters,
  getContractAddress,
  keccak256,
  maxUint256,
  zeroAddress,
} from "viem";
import { toBaseUnits } from "../amount.js";
import { sqrtFloor } from "../router/uniswap-v3/full-math.js";
import { getTickAtSqrtRatio } from "../router/uniswap-v3/tick-math.js";
import type { TokenSpec, TokenSymbol } from "./deploy-config.js";
import type { TxSender } from "./deploy-tx.js";
import { UNISWAP_V3_POOL_INIT_CODE_HASH, uniswapArtifact } from "./uniswap-artifacts.js";
import { V3_TICK_SPACING, type V3PoolSeed } from "./uniswap-v3-config.js";

/** A deployed V3 pool (token0 < token1, lowercase order as the factory sorts them). */
export interface ManifestV3Pool {
  address: Address;
  token0: Address;
  token1: Address;
  fee: number;
  tickSpacing: number;
}

export interface ManifestUniswapV3 {
  factory: Address;
  positionManager: Address;
  swapRouter: Address;
  quoterV2: Address;
  tickLens: Address;
  pools: ManifestV3Pool[];
}

/** Gas of a pool creation through the position manager (about 4.6M used). */
const CREATE_POOL_GAS = 6_000_000n;

/**
 * sqrt(price of token0 in token1, base units) as a Q64.96, floor: what `initialize` takes.
 * `priceAInB` is human units of tokenB per tokenA.
 */
export function sqrtPriceX96For(
  a: { decimals: number },
  b: { decimals: number },
  priceAInB: string,
  aIsToken0: boolean,
): bigint {
  const SCALE = 18;
  const priceNum = toBaseUnits(priceAInB, SCALE); // priceAInB * 10^18
  // price(B per A) in base units = priceAInB * 10^decB / 10^decA.
  let num = priceNum * 10n ** BigInt(b.decimals);
  let den = 10n ** BigInt(SCALE) * 10n ** BigInt(a.decimals);
  if (!aIsToken0) [num, den] = [den, num];
  return sqrtFloor((num << 192n) / den);
}

/** The CREATE2 address UniswapV3Factory gives the pool (PoolAddress.computeAddress). */
export function v3PoolAddress(
  factory: Address,
  token0: Address,
  token1: Address,
  fee: number,
): Address {
  const salt = keccak256(
    encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint24" }],
      [token0, token1, fee],
    ),
  );
  return getContractAddress({
    opcode: "CREATE2",
    from: factory,
    salt,
    bytecodeHash: UNISWAP_V3_POOL_INIT_CODE_HASH,
  });
}

export interface DeployUniswapV3Parameters {
  tx: TxSender;
  weth: Address;
  tokenOf: (symbol: TokenSymbol) => TokenSpec & { address: Address };
  seeds: V3PoolSeed[];
}

export async function deployUniswapV3(p: DeployUniswapV3Parameters): Promise<ManifestUniswapV3> {
  const { tx } = p;
  const factoryArtifact = uniswapArtifact("UniswapV3Factory");
  const manager = uniswapArtifact("NonfungiblePositionManager");
  const factory = await tx.deploy("UniswapV3Factory", factoryArtifact);
  await tx.call("enableFeeAmount 100", factory, factoryArtifact.abi, "enableFeeAmount", [100, 1]);
  // No token descriptor: tokenURI is not used on the devnet.
  const positionManager = await tx.deploy("NonfungiblePositionManager", manager, [
    factory,
    p.weth,
    zeroAddress,
  ]);
  const swapRouter = await tx.deploy("SwapRouter", uniswapArtifact("SwapRouter"), [
    factory,
    p.weth,
  ]);
  const quoterV2 = await tx.deploy("QuoterV2", uniswapArtifact("QuoterV2"), [factory, p.weth]);
  const tickLens = await tx.deploy("TickLens", uniswapArtifact("TickLens"));

  const erc20 = uniswapArtifact("WETH9").abi; // approve / deposit
  const needs = new Map<TokenSymbol, bigint>();
  for (const seed of p.seeds) {
    for (const position of seed.positions) {
      for (const [symbol, human] of [
        [seed.tokenA, position.amountA],
        [seed.tokenB, position.amountB],
      ] as const) {
        const amount = toBaseUnits(human, p.tokenOf(symbol).decimals);
        needs.set(symbol, (needs.get(symbol) ?? 0n) + amount);
      }
    }
  }
  for (const [symbol, amount] of needs) {
    const token = p.tokenOf(symbol).address;
    if (symbol === "WETH") {
      await tx.call("WETH.deposit (V3)", token, erc20, "deposit", [], amount);
    } else {
      await tx.call(`${symbol}.mint (V3)`, token, mintAbi, "mint", [tx.from, amount]);
    }
    await tx.call(`${symbol}.approve (V3)`, token, erc20, "approve", [positionManager, maxUint256]);
  }

  const pools: ManifestV3Pool[] = [];
  for (const seed of p.seeds) {
    const a = p.tokenOf(seed.tokenA);
    const b = p.tokenOf(seed.tokenB);
    const aIsToken0 = a.address.toLowerCase() < b.address.toLowerCase();
    const [t0, t1] = aIsToken0 ? [a, b] : [b, a];
    const tickSpacing = V3_TICK_SPACING[String(seed.fee)];
    if (tickSpacing === undefined) throw new Error(`no V3 fee tier ${seed.fee}`);
    const sqrtPriceX96 = sqrtPriceX96For(a, b, seed.priceAInB, aIsToken0);
    const label = `${seed.tokenA}/${seed.tokenB} ${seed.fee}`;
    await tx.call(
      `create V3 pool ${label}`,
      positionManager,
      manager.abi,
      "createAndInitializePoolIfNecessary",
      [t0.address, t1.address, seed.fee, sqrtPriceX96],
      undefined,
      CREATE_POOL_GAS,
    );
    const center = Math.floor(getTickAtSqrtRatio(sqrtPriceX96) / tickSpacing) * tickSpacing;
    for (const position of seed.positions) {
      const amountA = toBaseUnits(position.amountA, a.decimals);
      const amountB = toBaseUnits(position.amountB, b.decimals);
      // Ticks rise with the price of token0 in token1: a range "above" for A is below for B.
      const [lower, upper] = aIsToken0
        ? [position.lower, position.upper]
        : [-position.upper, -position.lower];
      await tx.call(`mint V3 ${label} [${lower}, ${upper}]`, positionManager, manager.abi, "mint", [
        {
          token0: t0.address,
          token1: t1.address,
          fee: seed.fee,
          tickLower: center + lower * tickSpacing,
          tickUpper: center + upper * tickSpacing,
          amount0Desired: aIsToken0 ? amountA : amountB,
          amount1Desired: aIsToken0 ? amountB : amountA,
          amount0Min: 0n,
          amount1Min: 0n,
          recipient: tx.from,
          deadline: maxUint256,
        },
      ]);
    }
    pools.push({
      address: v3PoolAddress(factory, t0.address, t1.address, seed.fee),
      token0: t0.address,
      token1: t1.address,
      fee: seed.fee,
      tickSpacing,
    });
  }
  return { factory, positionManager, swapRouter, quoterV2, tickLens, pools };
}

const mintAbi = [
  {
    type: "function",
    name: "mint",
    stateMutability: "nonpayable",
    inputs: [
      { name: "to", type: "address" },
      { name: "amount", type: "uint256" },
    ],
    outputs: [],
  },
] as const;
