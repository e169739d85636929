/**
 * Deploys LayerZero V2 onto the devnet's anvil chains, after the devnet's own contracts:
 *
 * - per chain: LayerZero's EndpointV2(eid, deployer) and SimpleMessageLib(endpoint, deployer)
 *   from the package artifacts, the library registered as default send and receive library for
 *   every other chain's eid, with a flat native fee per message;
 * - mesh "OMNI": our DevnetOFT on every chain (burn / mint: bridgeType 2), users funded;
 * - mesh "lzDAI": a DevnetOFTAdapter over the DAI of the first chain (lock / unlock: bridgeType 0
 *   legs) and a DevnetOFT on every other chain;
 * - every OFT of a mesh set as peer of the others; the executor account funded;
 * - our periphery over the chain's SwapAdapter: OftSwapSender (a source swap, then OFT.send, in
 *   one transaction) and OftSwapComposer (a destination swap by lzCompose, trusting both meshes'
 *   OFTs of the chain), in the same batch as the rest.
 *
 * Transactions go through the caller's ContractSender (src/chain/contract-sender.ts; the devnet's
 * deploy-tx.ts implements it), so nonces stay in one place per chain.
 */
import { type Address, type Hex, keccak256, type PublicClient, toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { toBaseUnits } from "../../../amount.js";
import type { ContractSender } from "../../../chain/contract-sender.js";
import { devnetOftAbi, endpointAbi, simpleMessageLibAbi } from "../abi.js";
import { type LayerZeroArtifacts, loadLayerZeroArtifacts } from "../artifacts.js";
import { addressToBytes32 } from "../packet.js";
import { LAYERZERO_PINS } from "../pins.js";
import type {
  LayerZeroManifest,
  LayerZeroManifestChain,
  LayerZeroManifestMesh,
} from "./manifest.js";

export interface LayerZeroDevnetChain {
  chainId: number;
  eid: number;
  client: PublicClient;
  sender: ContractSender;
  /** The devnet's tokens on this chain (the adapter mesh wraps the first chain's DAI). */
  tokens: ReadonlyArray<{ symbol: string; address: Address; decimals: number }>;
  /** The devnet's SwapAdapter on this chain (contracts/dex/SwapAdapter.sol): the periphery swaps through it. */
  swapAdapter: Address;
}

export interface DeployLayerZeroParameters {
  /** In devnet order: the first chain hosts the OFTAdapter. */
  chains: LayerZeroDevnetChain[];
  users: readonly Address[];
  artifacts?: LayerZeroArtifacts;
  log?: (line: string) => void;
}

/** OMNI each user gets on each chain. */
export const USER_OMNI = "10000";
/** SimpleMessageLib's flat fee on the chain at `index`: 0.0001, 0.0002, 0.0003 ETH, repeating. */
export const messagingFeeWei = (index: number): bigint => BigInt(1 + (index % 3)) * 10n ** 14n;
const EXECUTOR_NATIVE_WEI = 10n ** 24n;

/** A fixed, devnet-only key (not one of anvil's, so no other devnet part shares its nonces). */
export function devnetExecutor(): { address: Address; privateKey: Hex } {
  const privateKey = keccak256(toHex("bridge-oracle devnet LayerZero executor"));
  return { address: privateKeyToAccount(privateKey).address, privateKey };
}

interface ChainContracts {
  chain: LayerZeroDevnetChain;
  endpoint: Address;
  messageLib: Address;
  omni: Address;
  lzDai: Address;
  dai: Address;
  adapter: boolean;
  swapSender: Address;
  swapComposer: Address;
}

export async function deployLayerZeroDevnet(
  p: DeployLayerZeroParameters,
): Promise<LayerZeroManifest> {
  const artifacts = p.artifacts ?? loadLayerZeroArtifacts({ progress: p.log });
  const executor = devnetExecutor();
  const eids = p.chains.map((c) => c.eid);
  const deployed = await Promise.all(
    p.chains.map(async (chain, index): Promise<ChainContracts> => {
      const tx = chain.sender;
      const dai = chain.tokens.find((t) => t.symbol === "DAI");
      if (dai === undefined)
        throw new Error(`chain ${chain.chainId} has no DAI for the OFTAdapter mesh`);
      await chain.client.request({
        method: "anvil_setBalance",
        params: [executor.address, toHex(EXECUTOR_NATIVE_WEI)],
      } as never);
      const endpoint = await tx.deploy("EndpointV2", artifacts.EndpointV2, [chain.eid, tx.from]);
      const messageLib = await tx.deploy("SimpleMessageLib", artifacts.SimpleMessageLib, [
        endpoint,
        tx.from,
      ]);
      await tx.call("registerLibrary", endpoint, endpointAbi, "registerLibrary", [messageLib]);
      for (const eid of eids) {
        if (eid === chain.eid) continue;
        await tx.call("setDefaultSendLibrary", endpoint, endpointAbi, "setDefaultSendLibrary", [
          eid,
          messageLib,
        ]);
        await tx.call(
          "setDefaultReceiveLibrary",
          endpoint,
          endpointAbi,
          "setDefaultReceiveLibrary",
          [eid, messageLib, 0n],
        );
      }
      await tx.call("setMessagingFee", messageLib, simpleMessageLibAbi, "setMessagingFee", [
        messagingFeeWei(index),
        0n,
      ]);
      const omni = await tx.deploy("DevnetOFT OMNI", artifacts.DevnetOFT, [
        "Omni Token",
        "OMNI",
        endpoint,
        tx.from,
      ]);
      const adapter = index === 0;
      const lzDai = adapter
        ? await tx.deploy("DevnetOFTAdapter DAI", artifacts.DevnetOFTAdapter, [
            dai.address,
            endpoint,
            tx.from,
          ])
        : await tx.deploy("DevnetOFT lzDAI", artifacts.DevnetOFT, [
            "Dai Stablecoin (LayerZero OFT)",
            "lzDAI",
            endpoint,
            tx.from,
          ]);
      const swapSender = await tx.deploy("OftSwapSender", artifacts.OftSwapSender, [
        chain.swapAdapter,
      ]);
      const swapComposer = await tx.deploy("OftSwapComposer", artifacts.OftSwapComposer, [
        endpoint,
        chain.swapAdapter,
        [omni, lzDai],
      ]);
      for (const user of p.users) {
        await tx.call("mint OMNI", omni, devnetOftAbi, "mint", [user, toBaseUnits(USER_OMNI, 18)]);
      }
      await tx.flush();
      return {
        chain,
        endpoint,
        messageLib,
        omni,
        lzDai,
        dai: dai.address,
        adapter,
        swapSender,
        swapComposer,
      };
    }),
  );
  await Promise.all(
    deployed.map(async (self) => {
      for (const other of deployed) {
        if (other === self) continue;
        for (const [label, from, to] of [
          ["OMNI", self.omni, other.omni],
          ["lzDAI", self.lzDai, other.lzDai],
        ] as const) {
          await self.chain.sender.call(`setPeer ${label}`, from, devnetOftAbi, "setPeer", [
            other.chain.eid,
            addressToBytes32(to),
          ]);
        }
      }
      await self.chain.sender.flush();
    }),
  );
  p.log?.(
    `deployed LayerZero V2 (EndpointV2, SimpleMessageLib, 2 OFT meshes, swap periphery) on ${deployed.length} chains`,
  );

  const chains: LayerZeroManifestChain[] = deployed.map((d, index) => ({
    chainId: d.chain.chainId,
    eid: d.chain.eid,
    endpoint: d.endpoint,
    messageLib: d.messageLib,
    nativeFee: messagingFeeWei(index).toString(),
    periphery: {
      swapAdapter: d.chain.swapAdapter,
      swapSender: d.swapSender,
      swapComposer: d.swapComposer,
    },
  }));
  const meshes: LayerZeroManifestMesh[] = [
    {
      symbol: "OMNI",
      name: "Omni Token",
      decimals: 18,
      sharedDecimals: 6,
      deployments: deployed.map((d) => ({
        chainId: d.chain.chainId,
        eid: d.chain.eid,
        oft: d.omni,
        token: d.omni,
        adapter: false,
      })),
    },
    {
      symbol: "lzDAI",
      name: "Dai Stablecoin (LayerZero OFT)",
      decimals: 18,
      sharedDecimals: 6,
      deployments: deployed.map((d) => ({
        chainId: d.chain.chainId,
        eid: d.chain.eid,
        oft: d.lzDai,
        token: d.adapter ? d.dai : d.lzDai,
        adapter: d.adapter,
      })),
    },
  ];
  return {
    packages: {
      [LAYERZERO_PINS.artifacts.package]: LAYERZERO_PINS.artifacts.version,
      ...Object.fromEntries(
        Object.entries(LAYERZERO_PINS.sources).map(([pkg, pin]) => [pkg, pin.version]),
      ),
    },
    executor,
    chains,
    meshes,
  };
}
