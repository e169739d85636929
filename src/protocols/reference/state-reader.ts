/**
 * What the router reads of the reference bridges on one chain per block (docs/devnet-contracts.md,
 * "Views (what the router reads)"): for each kind with a link from or into the chain, the
 * `tokenConfig` of the bridge tokens it sends, the `availableLiquidity` of those it receives
 * (kinds 0 and 1) and the `xprotoFee` to each destination (kind 2). Derived from the registry
 * alone, once; then read at each new block into a ReferenceChainState.
 */
import { type Address, parseAbi } from "viem";
import { BRIDGE_KINDS, type BridgeKind } from "../../domain/bridge-kind.js";
import type { Registry, RegistryChain, RegistryToken } from "../../domain/registry.js";
import type { RoutingStateClient } from "../routing.js";
import type { BridgeState, ReferenceChainState, TokenConfig } from "./bridge-state.js";

export interface BridgeStateRequirements {
  kind: BridgeKind;
  /** The kind's bridge contract on this chain. */
  bridge: Address;
  /** `tokenConfig(token)` for each: the bridge tokens this chain SENDS with this kind. */
  tokenConfigTokens: RegistryToken[];
  /**
   * Kinds 0 and 1: `availableLiquidity(token)` for each: the bridge tokens this chain RECEIVES
   * (kind 1: the pool; kind 0: the locked balance on the token's home chain, unlimited for a
   * token the bridge mints).
   */
  availableLiquidityTokens: RegistryToken[];
  /**
   * Kind 2: `xprotoFee(bridgeChainId)` for each destination; store it in
   * BridgeState.xprotoFees under the EVM `chainId`.
   */
  xprotoFeeDestinations: { chainId: number; bridgeChainId: string }[];
}

function addOnce<T>(list: T[], item: T): void {
  if (!list.includes(item)) list.push(item);
}

/** The views to read on `chain`: only kinds with at least one link from or into it. */
export function referenceStateRequirements(
  registry: Registry,
  chain: RegistryChain,
): BridgeStateRequirements[] {
  const bridges: BridgeStateRequirements[] = [];
  for (const kind of BRIDGE_KINDS) {
    const bridge = chain.bridges[kind];
    if (bridge === undefined) continue;
    const entry: BridgeStateRequirements = {
      kind,
      bridge,
      tokenConfigTokens: [],
      availableLiquidityTokens: [],
      xprotoFeeDestinations: [],
    };
    for (const link of registry.links) {
      if (link.kind !== kind) continue;
      if (link.sourceChainId === chain.chainId) {
        addOnce(entry.tokenConfigTokens, link.sourceToken);
        const dest = registry.chain(link.destChainId)!;
        const bridgeChainId = dest.bridgeChainIds[kind]!;
        if (kind === 2 && !entry.xprotoFeeDestinations.some((d) => d.chainId === dest.chainId)) {
          entry.xprotoFeeDestinations.push({ chainId: dest.chainId, bridgeChainId });
        }
      }
      if (kind !== 2 && link.destChainId === chain.chainId) {
        addOnce(entry.availableLiquidityTokens, link.destToken);
      }
    }
    const used = entry.tokenConfigTokens.length > 0 || entry.availableLiquidityTokens.length > 0;
    if (used) bridges.push(entry);
  }
  return bridges;
}

const BRIDGE_ABI = parseAbi([
  "function tokenConfig(address token) view returns (uint256 feeBps, uint256 flatFee, uint256 minAmount, uint256 maxAmount)",
  "function availableLiquidity(address token) view returns (uint256)",
  "function xprotoFee(uint256 destChainId) view returns (uint256)",
]);

/** Reads `requirements` at `blockNumber`, every view in parallel (the transport batches them). */
export async function readReferenceState(
  client: RoutingStateClient,
  requirements: readonly BridgeStateRequirements[],
  blockNumber: bigint,
): Promise<ReferenceChainState> {
  const read = (address: Address, functionName: string, args: unknown[]) =>
    client.readContract({
      address,
      abi: BRIDGE_ABI,
      functionName,
      args,
      blockNumber,
    } as never) as Promise<unknown>;
  const entries = await Promise.all(
    requirements.map(async (b): Promise<[BridgeKind, BridgeState]> => {
      const configs = Promise.all(
        b.tokenConfigTokens.map(async (t): Promise<[string, TokenConfig]> => {
          const [feeBps, flatFee, minAmount, maxAmount] = (await read(b.bridge, "tokenConfig", [
            t.address,
          ])) as readonly [bigint, bigint, bigint, bigint];
          return [t.key, { feeBps, flatFee, minAmount, maxAmount }];
        }),
      );
      const liquidity = Promise.all(
        b.availableLiquidityTokens.map(
          async (t): Promise<[string, bigint]> => [
            t.key,
            (await read(b.bridge, "availableLiquidity", [t.address])) as bigint,
          ],
        ),
      );
      const fees = Promise.all(
        b.xprotoFeeDestinations.map(
          async (d): Promise<[number, bigint]> => [
            d.chainId,
            (await read(b.bridge, "xprotoFee", [BigInt(d.bridgeChainId)])) as bigint,
          ],
        ),
      );
      const state: BridgeState = { tokenConfigs: new Map(await configs) };
      if (b.kind !== 2) state.availableLiquidity = new Map(await liquidity);
      else await liquidity;
      if (b.kind === 2) state.xprotoFees = new Map(await fees);
      else await fees;
      return [b.kind, state];
    }),
  );
  return Object.fromEntries(entries) as ReferenceChainState;
}
