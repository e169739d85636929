/**
 * The reference bridge on the devnet (docs/protocol.md): on every chain the messaging endpoint
 * and the three bridges over the chain's SwapAdapter, their fee rules, minting rights (the
 * messaging bridge's USDC, kind 0's wrapped DAI, backed by DAI locked on the home chain) and the
 * pool bridge's USDC; then every bridge linked to every other chain's (remote bridges, token
 * links, messaging fees).
 */
import type { Address } from "viem";
import { toBaseUnits } from "../../../amount.js";
import type { BridgeKind } from "../../../domain/bridge-kind.js";
import { wrappedDaiSupply } from "../../deploy-chain.js";
import {
  FEE_RULES,
  messageFeeUsdc,
  POOL_LIQUIDITY_USDC,
  type TokenSymbol,
} from "../../deploy-config.js";
import type { ManifestChain, ManifestLink } from "../../manifest.js";
import type { DevnetChain, DevnetDeployContext, ManifestPart } from "../protocol-devnet.js";

interface ReferenceChain {
  chain: DevnetChain;
  endpoint: Address;
  bridges: Record<`${BridgeKind}`, Address>;
}

/** The bridge token each kind carries. */
const CARRIED: Record<BridgeKind, TokenSymbol> = { 0: "DAI", 1: "USDC", 2: "USDC" };

const tokenOf = (chain: DevnetChain, symbol: string) => {
  const token = chain.tokens.find((t) => t.symbol === symbol);
  if (token === undefined) throw new Error(`${chain.name} has no ${symbol}`);
  return token;
};

/** Scheme id of `chain` for bridge `kind`. */
const idOf = (chain: DevnetChain, kind: BridgeKind): number =>
  kind === 0 ? chain.ids.evm : kind === 1 ? chain.ids.pool : chain.ids.endpoint;

export async function deployReference(context: DevnetDeployContext): Promise<ManifestPart> {
  const { artifacts } = context;
  // Wrapped DAI minted on all other chains together: locked on the DAI home chain as backing.
  const wrappedDaiBacking =
    BigInt(context.chains.length - 1) * wrappedDaiSupply(context.users.length);
  const deployed = await Promise.all(
    context.chains.map(async (ready) => deployOnChain(context, await ready, wrappedDaiBacking)),
  );
  await Promise.all(deployed.map((own) => linkChain(context, own, deployed)));
  context.log(`deployed and linked the reference bridges on ${deployed.length} chains`);

  const links: ManifestLink[] = [];
  for (const source of deployed) {
    for (const dest of deployed) {
      if (source === dest) continue;
      for (const kind of [0, 1, 2] as const) {
        links.push({
          kind,
          sourceChainId: source.chain.ids.evm,
          sourceToken: tokenOf(source.chain, CARRIED[kind]).address,
          destChainId: dest.chain.ids.evm,
          destToken: tokenOf(dest.chain, CARRIED[kind]).address,
        });
      }
    }
  }
  const abi = (name: string) => artifacts.get(name).abi;
  return {
    chains: deployed.map(
      ({ chain, endpoint, bridges }): Partial<ManifestChain> => ({
        bridgeChainIds: {
          "0": String(chain.ids.evm),
          "1": String(chain.ids.pool),
          "2": String(chain.ids.endpoint),
        },
        bridges,
        messagingEndpoint: endpoint,
      }),
    ),
    top: {
      links,
      abis: {
        bridge: abi("IBridge"),
        lockMintBridge: abi("LockMintBridge"),
        poolBridge: abi("PoolBridge"),
        messagingBridge: abi("MessagingBridge"),
        messagingEndpoint: abi("MessagingEndpoint"),
      },
    },
  };
}

async function deployOnChain(
  context: DevnetDeployContext,
  chain: DevnetChain,
  wrappedDaiBacking: bigint,
): Promise<ReferenceChain> {
  const { artifacts } = context;
  const tx = chain.sender;
  const erc20 = artifacts.get("MintableToken").abi;
  const usdc = tokenOf(chain, "USDC").address;
  const dai = tokenOf(chain, "DAI").address;
  const relayer = context.relayer.address;
  const adapter = chain.dex.adapter;
  const endpoint = await tx.deploy("MessagingEndpoint", artifacts.get("MessagingEndpoint"), [
    chain.ids.endpoint,
    usdc,
    relayer,
  ]);
  const bridges: Record<`${BridgeKind}`, Address> = {
    "0": await tx.deploy("LockMintBridge", artifacts.get("LockMintBridge"), [
      chain.ids.evm,
      adapter,
      relayer,
    ]),
    "1": await tx.deploy("PoolBridge", artifacts.get("PoolBridge"), [
      chain.ids.pool,
      adapter,
      relayer,
    ]),
    "2": await tx.deploy("MessagingBridge", artifacts.get("MessagingBridge"), [
      endpoint,
      adapter,
      relayer,
    ]),
  };

  // Minting rights: the messaging bridge burns and mints USDC; kind 0 mints wrapped DAI.
  await tx.call("USDC.setMinter", usdc, erc20, "setMinter", [bridges["2"], true]);
  if (!chain.role.daiHome) {
    await tx.call("DAI.setMinter", dai, erc20, "setMinter", [bridges["0"], true]);
    await tx.call("setWrapped", bridges["0"], artifacts.get("LockMintBridge").abi, "setWrapped", [
      dai,
      true,
    ]);
  } else if (wrappedDaiBacking > 0n) {
    await tx.call("DAI backing", dai, erc20, "mint", [bridges["0"], wrappedDaiBacking]);
  }

  // Fee rules per kind (docs/protocol.md steps 4-5).
  const units = (symbol: TokenSymbol, human: string) =>
    toBaseUnits(human, tokenOf(chain, symbol).decimals);
  const bridgeAbi = artifacts.get("PoolBridge").abi; // setTokenConfig lives in BridgeBase
  for (const kind of [0, 1, 2] as const) {
    const rule = FEE_RULES[kind];
    await tx.call(`tokenConfig kind ${kind}`, bridges[`${kind}`], bridgeAbi, "setTokenConfig", [
      tokenOf(chain, rule.symbol).address,
      BigInt(rule.feeBps),
      units(rule.symbol, rule.flatFee),
      units(rule.symbol, rule.minAmount),
      units(rule.symbol, rule.maxAmount),
    ]);
  }

  // The pool bridge's own USDC, minted by the deployer.
  const poolUsdc = units("USDC", POOL_LIQUIDITY_USDC);
  await tx.call("USDC.mint pool", usdc, erc20, "mint", [tx.from, poolUsdc]);
  await tx.call("USDC.approve pool", usdc, erc20, "approve", [bridges["1"], poolUsdc]);
  await tx.call("pool.addLiquidity", bridges["1"], bridgeAbi, "addLiquidity", [usdc, poolUsdc]);
  await tx.flush();
  return { chain, endpoint, bridges };
}

/** Every bridge of `own` knows every other chain's bridge and token counterpart. */
async function linkChain(
  context: DevnetDeployContext,
  own: ReferenceChain,
  all: readonly ReferenceChain[],
): Promise<void> {
  const tx = own.chain.sender;
  const bridgeAbi = context.artifacts.get("PoolBridge").abi;
  const endpointAbi = context.artifacts.get("MessagingEndpoint").abi;
  for (const dest of all) {
    if (dest === own) continue;
    for (const kind of [0, 1, 2] as const) {
      const bridge = own.bridges[`${kind}`];
      const destId = BigInt(idOf(dest.chain, kind));
      const symbol = CARRIED[kind];
      await tx.call(`setRemoteBridge ${kind}`, bridge, bridgeAbi, "setRemoteBridge", [
        destId,
        dest.bridges[`${kind}`],
      ]);
      await tx.call(`setLink ${kind}`, bridge, bridgeAbi, "setLink", [
        tokenOf(own.chain, symbol).address,
        destId,
        tokenOf(dest.chain, symbol).address,
        tokenOf(dest.chain, symbol).decimals,
      ]);
    }
    await tx.call("setDestination", own.endpoint, endpointAbi, "setDestination", [
      dest.chain.ids.endpoint,
      toBaseUnits(messageFeeUsdc(dest.chain.index), 6),
    ]);
  }
  await tx.flush();
}
