/**
 * LayerZero V2 OFTs through the router's seam (../routing.ts). A leg runs from an OFT (or
 * OFTAdapter) of a mesh to the mesh's contract on another chain (registry `contracts` entries
 * with the same `mesh`); its source bridge token is what the source contract moves (the OFT, or
 * the adapter's inner token), its destination bridge token what the destination contract moves.
 *
 * - State, per block (state.ts readOftState; no RPC on the request path): each OFT's decimal
 *   conversion rate, quoteOFT's limits, its peers and quoteSend's native fee to each peer's
 *   endpoint id; for an adapter the inner token it holds (what it can unlock).
 * - Pricing exactly as OFTCore (quote-math.ts): the amount less its dust (below the shared
 *   decimals) is sent and received, so the quote's `fee` (source bridge token) is the dust; the
 *   messaging fee is quoteSend's nativeFee in the source chain's native coin, paid as the
 *   transaction's value beside the amount (messagingFeeToken "native"). What arrives is the
 *   amount in shared decimals times the destination's rate. Limits: quoteOFT's maxAmountLD and
 *   the uint64 of shared decimals; an adapter destination's locked balance.
 * - The transaction: `OFT.send` with value = the quoted nativeFee (OAppSender wants exactly it),
 *   minAmountLD = the quote's destMinAmount in source local decimals, rounded up to a whole
 *   shared-decimals unit (so what arrives is at least destMinAmount); an adapter needs the
 *   inner token's approval first (transaction.ts).
 * - params.destChainId is the destination's endpoint id; signData.bridgeType is 2, or 0 when
 *   either end is an OFTAdapter (lock / unlock), as the indexer records it.
 *
 * No swaps around the legs: a swap before the send or after delivery needs a periphery contract
 * (a source-swap sender, a lzCompose composer) that this service does not deploy yet, so
 * `swaps` is false and discovery says so.
 */
import type { Hex } from "viem";
import type { Registry, RegistryChain, RegistryProtocolContract } from "../../domain/registry.js";
import type { BridgeLeg, LegTransaction, ProtocolRouting, RoutingStateClient } from "../routing.js";
import { erc20Abi } from "./abi.js";
import { addressToBytes32 } from "./packet.js";
import { maxSendableLD } from "./quote-math.js";
import { LAYERZERO_OFT_PROTOCOL } from "./registry.js";
import { type OftState, readOftState } from "./state.js";
import { buildOftApproval, buildOftSendTransaction } from "./transaction.js";

/** One OFT's state on its chain at one block. */
export interface OftRoutingState extends OftState {
  /** An adapter's inner token balance (what it can unlock); undefined for an OFT (it mints). */
  locked: bigint | undefined;
}

/** The protocol's state on one chain: by lowercase OFT address. */
export type OftChainState = ReadonlyMap<string, OftRoutingState>;

/** An OFT leg's terms in one snapshot. */
export interface OftTerms {
  /** Source decimalConversionRate (10^(local - shared decimals)). */
  rate: bigint;
  destRate: bigint;
  /** quoteSend's native fee to the destination endpoint (wei). */
  nativeFee: bigint;
  /** Largest amount (source local decimals): quoteOFT's maxAmountLD, the uint64 of shared decimals. */
  maxAmountLD: bigint;
  /** An adapter destination's locked balance; undefined when the destination mints. */
  destLiquidity: bigint | undefined;
  /** The source contract is an adapter: the inner token needs an approval. */
  approvalRequired: boolean;
}

/** The routed contracts of a chain: this protocol's, with a token and a mesh. */
function meshContracts(chain: RegistryChain): RegistryProtocolContract[] {
  return chain.protocolContracts.filter(
    (c) => c.protocol === LAYERZERO_OFT_PROTOCOL && c.token !== undefined && c.mesh !== undefined,
  );
}

/**
 * Legs per registry and chain pair, built once: discovery and route search must see the same
 * leg objects (the `link` identifies a leg).
 */
const legCache = new WeakMap<Registry, Map<string, BridgeLeg[]>>();

function legs(registry: Registry, sourceChain: RegistryChain, destChain: RegistryChain) {
  let byChains = legCache.get(registry);
  if (byChains === undefined) {
    byChains = new Map();
    legCache.set(registry, byChains);
  }
  const key = `${sourceChain.chainId}>${destChain.chainId}`;
  let list = byChains.get(key);
  if (list === undefined) {
    list = [];
    for (const source of meshContracts(sourceChain)) {
      for (const dest of meshContracts(destChain)) {
        if (dest.mesh !== source.mesh || dest.bridgeChainId === "") continue;
        const kind = source.kind === 0 || dest.kind === 0 ? 0 : 2;
        const sourceToken = source.token!;
        const destToken = dest.token!;
        list.push({
          protocol: LAYERZERO_OFT_PROTOCOL,
          kind,
          link: {
            kind,
            sourceChainId: sourceChain.chainId,
            sourceToken,
            destChainId: destChain.chainId,
            destToken,
          },
          sourceChain,
          destChain,
          sourceBridgeToken: sourceToken,
          destBridgeToken: destToken,
          bridge: source.address,
          destBridgeChainId: dest.bridgeChainId,
          destContract: dest.address,
        });
      }
    }
    byChains.set(key, list);
  }
  return list;
}

/** What to read on `chain`: each mesh contract with the endpoint ids of its mesh's other chains. */
function stateReader(registry: Registry, chain: RegistryChain) {
  const contracts = meshContracts(chain).map((c) => ({
    contract: c,
    dstEids: registry.chains
      .filter((other) => other !== chain)
      .flatMap((other) => meshContracts(other))
      .filter((d) => d.mesh === c.mesh && d.bridgeChainId !== "")
      .map((d) => Number(d.bridgeChainId)),
  }));
  if (contracts.length === 0) return undefined;
  return {
    async read(client: RoutingStateClient, blockNumber: bigint): Promise<OftChainState> {
      const reader = {
        readContract: (args: never) => client.readContract(args),
        getBlockNumber: () => Promise.resolve(blockNumber),
      } as Parameters<typeof readOftState>[0];
      const entries = await Promise.all(
        contracts.map(async ({ contract, dstEids }): Promise<[string, OftRoutingState]> => {
          const [state, locked] = await Promise.all([
            readOftState(reader, { oft: contract.address, dstEids, blockNumber }),
            contract.kind === 0
              ? (client.readContract({
                  address: contract.token!.address,
                  abi: erc20Abi,
                  functionName: "balanceOf",
                  args: [contract.address],
                  blockNumber,
                }) as Promise<bigint>)
              : Promise.resolve(undefined),
          ]);
          return [contract.address.toLowerCase(), { ...state, locked }];
        }),
      );
      return new Map(entries);
    },
  };
}

export const layerZeroOftRouting: ProtocolRouting<OftTerms> = {
  legs,
  swaps: false,
  messagingFeeToken: "native",
  stateReader,
  prepare(leg, sourceState, destState) {
    const sourceId = leg.sourceChain.chainId;
    const destId = leg.destChain.chainId;
    const symbol = leg.sourceBridgeToken.symbol;
    const source = (sourceState as OftChainState | undefined)?.get(leg.bridge.toLowerCase());
    if (source === undefined)
      return { ok: false, chainId: sourceId, missing: `OFT state of ${symbol} ${leg.bridge}` };
    const destContract = leg.destContract!;
    const dest = (destState as OftChainState | undefined)?.get(destContract.toLowerCase());
    if (dest === undefined) {
      const what = `OFT state of ${leg.destBridgeToken.symbol} ${destContract}`;
      return { ok: false, chainId: destId, missing: what };
    }
    const dstEid = Number(leg.destBridgeChainId);
    const peer: Hex | undefined = source.peers.get(dstEid);
    if (peer === undefined || peer.toLowerCase() !== addressToBytes32(destContract).toLowerCase()) {
      const what = `${symbol} OFT ${leg.bridge} peer for endpoint ${dstEid} (${peer ?? "none"}, the registry's is ${destContract})`;
      return { ok: false, chainId: sourceId, missing: what };
    }
    const fee = source.feeByDstEid.get(dstEid);
    if (fee === undefined)
      return { ok: false, chainId: sourceId, missing: `${symbol} OFT quoteSend to ${dstEid}` };
    const rate = source.decimalConversionRate;
    // quoteOFT's maximum, and no more than the uint64 of shared decimals (AmountSDOverflowed).
    let maxAmountLD = maxSendableLD(rate);
    if (source.maxAmountLD < maxAmountLD) maxAmountLD = source.maxAmountLD;
    return {
      ok: true,
      terms: {
        rate,
        destRate: dest.decimalConversionRate,
        nativeFee: fee.nativeFee,
        maxAmountLD,
        destLiquidity: dest.locked,
        approvalRequired: source.approvalRequired,
      },
    };
  },
  // _removeDust: the dust stays with the sender, nothing else is taken (a default OFT).
  fee: (terms, bridgeAmount) => bridgeAmount % terms.rate,
  messagingFee: (terms) => terms.nativeFee,
  // amountSD = amountLD / rate crosses; the destination credits amountSD * its own rate.
  delivered: (terms, _leg, bridgeAmount) => (bridgeAmount / terms.rate) * terms.destRate,
  minAmount: () => 0n,
  maxAmount: (terms) => terms.maxAmountLD,
  destLiquidity: (terms) => terms.destLiquidity,
  feeRule: (terms) => ({ feeBps: 0n, flatFee: 0n, messagingFee: terms.nativeFee }),
  transactionTemplate: () => undefined,
  transaction(leg, terms, _template, q): LegTransaction {
    const chainId = leg.sourceChain.chainId;
    // destMinAmount (destination local decimals) as a whole number of shared-decimals units,
    // rounded up, in source local decimals: _debitView checks amountReceivedLD against it.
    const minSD = (q.destMinAmount + terms.destRate - 1n) / terms.destRate;
    const transactionRequest = buildOftSendTransaction({
      chainId,
      oft: leg.bridge,
      dstEid: Number(leg.destBridgeChainId),
      to: q.to,
      amountLD: q.amount,
      minAmountLD: minSD * terms.rate,
      nativeFee: q.messagingFee,
      // The value is exactly the fee, so nothing is refunded; the recipient is the one address
      // the quote knows (the sender is not part of a request).
      refundAddress: q.to,
    });
    const approval = buildOftApproval({
      chainId,
      approvalRequired: terms.approvalRequired,
      token: leg.sourceBridgeToken.address,
      oft: leg.bridge,
      amountLD: q.amount,
    });
    return {
      transactionRequest,
      approval:
        approval === null
          ? null
          : {
              token: approval.token,
              spender: approval.spender,
              transactionRequest: approval.transactionRequest,
            },
    };
  },
};
