/**
 * The devnet's base on one chain, what every protocol builds on: tokens, Uniswap V2 with seeded
 * pairs, Uniswap V3 with seeded pools, the SwapAdapter over both, funded users. The protocols'
 * contracts come after it (src/devnet/protocols/, deploy.ts).
 */
import { type Address, maxUint256, type PublicClient } from "viem";
import { toBaseUnits } from "../amount.js";
import type { Artifacts } from "./artifacts.js";
import {
  type ChainRole,
  chainRole,
  DEPLOYER_NATIVE_WEI,
  pairSeeds,
  type TokenSpec,
  type TokenSymbol,
  tokenSpecs,
  USER_FUNDING,
  USER_NATIVE_WEI,
} from "./deploy-config.js";
import { createTxSender, type TxSender } from "./deploy-tx.js";
import { deployUniswapV3, type ManifestUniswapV3 } from "./deploy-uniswap-v3.js";
import type { ManifestPair } from "./manifest.js";
import { uniswapArtifact } from "./uniswap-artifacts.js";
import { v3PoolSeeds } from "./uniswap-v3-config.js";

export interface ChainIds {
  /** kind 0 scheme = EVM chain id */
  evm: number;
  pool: number;
  endpoint: number;
}

export interface DeployedChain {
  name: string;
  rpcUrl: string;
  index: number;
  ids: ChainIds;
  role: ChainRole;
  deployBlock: number;
  tokens: Array<TokenSpec & { address: Address }>;
  factory: Address;
  router: Address;
  /** SwapAdapter: what the bridges swap through. */
  adapter: Address;
  pairs: ManifestPair[];
  uniswapV3: ManifestUniswapV3;
  client: PublicClient;
  sender: TxSender;
}

export interface DeployChainParameters {
  client: PublicClient;
  name: string;
  rpcUrl: string;
  index: number;
  ids: ChainIds;
  artifacts: Artifacts;
  deployer: Address;
  users: Address[];
}

/** Wrapped DAI minted on a non-home chain: its pair seed plus every user's funding. */
export function wrappedDaiSupply(userCount: number): bigint {
  const pair = pairSeeds(chainRole(1)).find(([a]) => a === "DAI");
  return toBaseUnits(pair?.[1] ?? "0", 18) + BigInt(userCount) * toBaseUnits(USER_FUNDING.DAI, 18);
}

export async function deployChain(p: DeployChainParameters): Promise<DeployedChain> {
  const { client, artifacts } = p;
  const role = chainRole(p.index);
  await client.request({
    method: "anvil_setBalance",
    params: [p.deployer, `0x${DEPLOYER_NATIVE_WEI.toString(16)}`],
  } as never);
  // Distinct deployer nonces per chain give every contract a chain-unique address, so a client
  // that mixes up chains fails loudly instead of hitting a same-address twin.
  const startNonce = p.index * 1000;
  if ((await client.getTransactionCount({ address: p.deployer })) < startNonce) {
    await client.request({
      method: "anvil_setNonce",
      params: [p.deployer, `0x${startNonce.toString(16)}`],
    } as never);
  }
  // Users beyond anvil's ten default accounts (or on a node started with other balances) still
  // get native coin.
  await Promise.all(
    p.users.map((user) =>
      client.request({
        method: "anvil_setBalance",
        params: [user, `0x${USER_NATIVE_WEI.toString(16)}`],
      } as never),
    ),
  );
  const deployBlock = Number(await client.getBlockNumber()) + 1;
  const tx = await createTxSender(client, p.deployer);
  const token = artifacts.get("MintableToken");

  const tokens: Array<TokenSpec & { address: Address }> = [];
  for (const spec of tokenSpecs(role)) {
    const address =
      spec.symbol === "WETH"
        ? await tx.deploy("WETH9", uniswapArtifact("WETH9"))
        : await tx.deploy(spec.symbol, token, [spec.name, spec.symbol, spec.decimals]);
    tokens.push({ ...spec, address });
  }
  const tokenOf = (symbol: TokenSymbol) => {
    const found = tokens.find((t) => t.symbol === symbol);
    if (found === undefined) throw new Error(`${p.name} has no ${symbol}`);
    return found;
  };
  const units = (symbol: TokenSymbol, human: string) =>
    toBaseUnits(human, tokenOf(symbol).decimals);
  const weth = tokenOf("WETH").address;

  // Uniswap V2 as published (uniswap-artifacts.ts); the deployer is the factory's feeToSetter.
  const factory = await tx.deploy("UniswapV2Factory", uniswapArtifact("UniswapV2Factory"), [
    p.deployer,
  ]);
  const router = await tx.deploy("UniswapV2Router02", uniswapArtifact("UniswapV2Router02"), [
    factory,
    weth,
  ]);
  const uniswapV3 = await deployUniswapV3({ tx, weth, tokenOf, seeds: v3PoolSeeds(role) });
  // The bridges swap through our adapter over both (docs/protocol.md "DEX").
  const adapter = await tx.deploy("SwapAdapter", artifacts.get("SwapAdapter"), [
    router,
    uniswapV3.factory,
    uniswapV3.quoterV2,
    uniswapV3.swapRouter,
  ]);
  await seedLiquidity(tx, p, role, { tokenOf, units, router, artifacts });
  await fundUsers(tx, p, tokens, units);
  await tx.flush();

  const pairs = await readPairs(client, factory);
  return {
    name: p.name,
    rpcUrl: p.rpcUrl,
    index: p.index,
    ids: p.ids,
    role,
    deployBlock,
    tokens,
    factory,
    router,
    adapter,
    pairs,
    uniswapV3,
    client,
    sender: tx,
  };
}

interface SeedContext {
  tokenOf: (symbol: TokenSymbol) => TokenSpec & { address: Address };
  units: (symbol: TokenSymbol, human: string) => bigint;
  router: Address;
  artifacts: Artifacts;
}

/** The deployer mints (wraps, for WETH) what the pairs need, then adds it. */
async function seedLiquidity(
  tx: TxSender,
  p: DeployChainParameters,
  role: ChainRole,
  ctx: SeedContext,
): Promise<void> {
  const erc20 = ctx.artifacts.get("MintableToken").abi;
  const routerAbi = uniswapArtifact("UniswapV2Router02").abi;
  const needs = new Map<TokenSymbol, bigint>();
  const add = (symbol: TokenSymbol, amount: bigint) =>
    needs.set(symbol, (needs.get(symbol) ?? 0n) + amount);
  const seeds = pairSeeds(role);
  for (const [a, amountA, b, amountB] of seeds) {
    add(a, ctx.units(a, amountA));
    add(b, ctx.units(b, amountB));
  }
  add("WETH", BigInt(p.users.length) * ctx.units("WETH", USER_FUNDING.WETH));

  for (const [symbol, amount] of needs) {
    const address = ctx.tokenOf(symbol).address;
    if (symbol === "WETH") {
      await tx.call("WETH.deposit", address, uniswapArtifact("WETH9").abi, "deposit", [], amount);
    } else {
      await tx.call(`${symbol}.mint`, address, erc20, "mint", [p.deployer, amount]);
    }
    await tx.call(`${symbol}.approve`, address, erc20, "approve", [ctx.router, maxUint256]);
  }
  for (const [a, amountA, b, amountB] of seeds) {
    await tx.call(`addLiquidity ${a}/${b}`, ctx.router, routerAbi, "addLiquidity", [
      ctx.tokenOf(a).address,
      ctx.tokenOf(b).address,
      ctx.units(a, amountA),
      ctx.units(b, amountB),
      0n,
      0n,
      p.deployer,
      maxUint256,
    ]);
  }
}

async function fundUsers(
  tx: TxSender,
  p: DeployChainParameters,
  tokens: Array<TokenSpec & { address: Address }>,
  units: (symbol: TokenSymbol, human: string) => bigint,
): Promise<void> {
  const erc20 = p.artifacts.get("MintableToken").abi;
  for (const user of p.users) {
    for (const token of tokens) {
      const amount = units(token.symbol, USER_FUNDING[token.symbol]);
      const fn = token.symbol === "WETH" ? "transfer" : "mint";
      await tx.call(`fund ${token.symbol}`, token.address, erc20, fn, [user, amount]);
    }
  }
}

async function readPairs(client: PublicClient, factory: Address): Promise<ManifestPair[]> {
  const factoryAbi = uniswapArtifact("UniswapV2Factory").abi;
  const pairAbi = uniswapArtifact("UniswapV2Pair").abi;
  const count = (await client.readContract({
    address: factory,
    abi: factoryAbi,
    functionName: "allPairsLength",
  })) as bigint;
  const indexes = Array.from({ length: Number(count) }, (_, i) => BigInt(i));
  return Promise.all(
    indexes.map(async (i) => {
      const address = (await client.readContract({
        address: factory,
        abi: factoryAbi,
        functionName: "allPairs",
        args: [i],
      })) as Address;
      const [token0, token1] = await Promise.all(
        (["token0", "token1"] as const).map(
          (fn) =>
            client.readContract({ address, abi: pairAbi, functionName: fn }) as Promise<Address>,
        ),
      );
      return { address, token0: token0!, token1: token1! };
    }),
  );
}
