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
 * Swaps around a leg go through our periphery (contracts/layerzero/OftSwap*.sol), named per
 * OFT in the registry (`swapSender`, `swapComposer`); a leg accepts (BridgeLeg.swaps):
 * - a source swap when its source chain has an OftSwapSender: the transaction is `swapAndSend`
 *   (periphery.ts), which swaps the source token through the chain's SwapAdapter to the OFT's
 *   token (minAmountOut = the quote's sourceMinAmount, priced by the router's swap hops exactly as
 *   for the reference bridge) and sends what it got; the approval is the source token to the
 *   sender;
 * - a destination swap when the destination OFT has an OftSwapComposer: the send goes to the
 *   composer with a compose message (tokenOut, minAmountOut = destMinAmount, recipient) and
 *   compose gas (compose.ts); such a send's messaging fee is the composed message's, read per
 *   block apart from the plain one (state.ts). If the swap would pay less than destMinAmount, the
 *   composer pays the bridged token to the recipient instead (docs/router.md).
 * Neither swap starts from or ends in the native coin (the periphery moves ERC-20s only).
 *
 * A contract whose state cannot be read (it reverts, or has no code) leaves its own legs unpriced
 * (`missing` names the reason); the chain's other state still publishes (`unreadable`).
 */
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  type Hex,
} from "viem";
import type { Registry, RegistryChain, RegistryProtocolContract } from "../../domain/registry.js";
import type {
  BridgeLeg,
  LegQuote,
  LegTransaction,
  ProtocolRouting,
  RoutedLeg,
  RoutingStateClient,
} from "../routing.js";
import { erc20Abi } from "./abi.js";
import { buildDestinationSwap } from "./compose.js";
import { addressToBytes32 } from "./packet.js";
import { buildOftSwapSendApproval, buildOftSwapSendTransaction } from "./periphery.js";
import { maxSendableLD, removeDust } from "./quote-math.js";
import { LAYERZERO_OFT_PROTOCOL } from "./registry.js";
import {
  COMPOSED_SEND_FEE_FIELDS,
  type OftFixedFields,
  type OftState,
  readOftState,
} from "./state.js";
import { buildOftApproval, buildOftSendTransaction } from "./transaction.js";

/** One OFT's state on its chain at one block. */
export interface OftRoutingState extends OftState {
  /** An adapter's inner token balance (what it can unlock); undefined for an OFT (it mints). */
  locked: bigint | undefined;
}

/** A contract whose state could not be read at this block: why (it reverted, it has no code). */
export interface OftReadFailure {
  failed: string;
}

/** The protocol's state on one chain: by lowercase OFT address. */
export type OftChainState = ReadonlyMap<string, OftRoutingState | OftReadFailure>;

/** An OFT leg: with the periphery its swaps go through (the registry's, absent: none). */
interface OftLeg extends BridgeLeg {
  swapSender?: Address;
  swapComposer?: Address;
}

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
  /** OftSwapSender on the source chain, when the route swaps before the send. */
  swapSender?: Address;
  /** The destination's OftSwapComposer, when the route swaps after delivery (nativeFee is then the composed send's). */
  swapComposer?: Address;
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
        const leg: OftLeg = {
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
          swaps: { source: source.swapSender !== undefined, dest: dest.swapComposer !== undefined },
          swapsNative: false,
          ...(source.swapSender === undefined ? {} : { swapSender: source.swapSender }),
          ...(dest.swapComposer === undefined ? {} : { swapComposer: dest.swapComposer }),
        };
        list.push(leg);
      }
    }
    byChains.set(key, list);
  }
  return list;
}

/** What to read on `chain`: each mesh contract with the endpoint ids of its mesh's other chains. */
function stateReader(registry: Registry, chain: RegistryChain) {
  const contracts = meshContracts(chain).map((c) => {
    const peers = registry.chains
      .filter((other) => other !== chain)
      .flatMap((other) => meshContracts(other))
      .filter((d) => d.mesh === c.mesh && d.bridgeChainId !== "");
    return {
      contract: c,
      dstEids: peers.map((d) => Number(d.bridgeChainId)),
      // A destination swap is offered where the destination OFT has a composer.
      composedDstEids: peers
        .filter((d) => d.swapComposer !== undefined)
        .map((d) => Number(d.bridgeChainId)),
    };
  });
  if (contracts.length === 0) return undefined;
  // Each OFT's fixed fields, read with its first state (state.ts OftFixedFields).
  const fixedByOft = new Map<string, OftFixedFields>();
  return {
    async read(client: RoutingStateClient, blockNumber: bigint): Promise<OftChainState> {
      const reader = {
        readContract: (args: never) => client.readContract(args),
        getBlockNumber: () => Promise.resolve(blockNumber),
      } as Parameters<typeof readOftState>[0];
      const entries = await Promise.all(
        contracts.map(async ({ contract, dstEids, composedDstEids }) => {
          const key = contract.address.toLowerCase();
          try {
            return [key, await readOne(contract, dstEids, composedDstEids)] as const;
          } catch (error) {
            // This contract's legs go unpriced; a transport failure still fails the chain's read
            // (the provider keeps the last good state and retries).
            const failed = contractFailure(error);
            if (failed === undefined) throw error;
            return [key, { failed }] as const;
          }
        }),
      );
      return new Map<string, OftRoutingState | OftReadFailure>(entries);

      async function readOne(
        contract: RegistryProtocolContract,
        dstEids: number[],
        composedDstEids: number[],
      ): Promise<OftRoutingState> {
        const [state, locked] = await Promise.all([
          readOftState(reader, {
            oft: contract.address,
            dstEids,
            composedDstEids,
            blockNumber,
            fixed: fixedByOft.get(contract.address.toLowerCase()),
          }).then((state) => {
            const { token, approvalRequired, sharedDecimals, decimalConversionRate } = state;
            fixedByOft.set(contract.address.toLowerCase(), {
              token,
              approvalRequired,
              sharedDecimals,
              decimalConversionRate,
            });
            return state;
          }),
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
        return { ...state, locked };
      }
    },
    unreadable(state: unknown) {
      const failures = new Map<string, string>();
      for (const [address, entry] of state as OftChainState) {
        if ("failed" in entry) failures.set(address, entry.failed);
      }
      return failures;
    },
  };
}

/**
 * The reason when `error` is the contract's own (a revert, or no code: empty return data), not
 * the transport's; undefined otherwise.
 */
function contractFailure(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const own = error.walk(
    (e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError,
  );
  if (own === null) return undefined;
  return error.shortMessage.split("\n")[0];
}

export const layerZeroOftRouting: ProtocolRouting<OftTerms> = {
  legs,
  // Per leg (BridgeLeg.swaps): where the chain has our periphery.
  swaps: false,
  messagingFeeToken: "native",
  stateReader,
  prepare(bridgeLeg, sourceState, destState, swaps) {
    const leg = bridgeLeg as OftLeg;
    const sourceId = leg.sourceChain.chainId;
    const destId = leg.destChain.chainId;
    const symbol = leg.sourceBridgeToken.symbol;
    const source = (sourceState as OftChainState | undefined)?.get(leg.bridge.toLowerCase());
    if (source === undefined || "failed" in source) {
      const why = source === undefined ? "" : ` (unreadable: ${source.failed})`;
      return {
        ok: false,
        chainId: sourceId,
        missing: `OFT state of ${symbol} ${leg.bridge}${why}`,
      };
    }
    const destContract = leg.destContract!;
    const dest = (destState as OftChainState | undefined)?.get(destContract.toLowerCase());
    if (dest === undefined || "failed" in dest) {
      const why = dest === undefined ? "" : ` (unreadable: ${dest.failed})`;
      const what = `OFT state of ${leg.destBridgeToken.symbol} ${destContract}${why}`;
      return { ok: false, chainId: destId, missing: what };
    }
    if (swaps.source && leg.swapSender === undefined)
      return { ok: false, chainId: sourceId, missing: `an OftSwapSender for ${symbol}` };
    if (swaps.dest && leg.swapComposer === undefined) {
      const what = `an OftSwapComposer for ${leg.destBridgeToken.symbol}`;
      return { ok: false, chainId: destId, missing: what };
    }
    const dstEid = Number(leg.destBridgeChainId);
    const peer: Hex | undefined = source.peers.get(dstEid);
    if (peer === undefined || peer.toLowerCase() !== addressToBytes32(destContract).toLowerCase()) {
      const what = `${symbol} OFT ${leg.bridge} peer for endpoint ${dstEid} (${peer ?? "none"}, the registry's is ${destContract})`;
      return { ok: false, chainId: sourceId, missing: what };
    }
    // A destination swap's send is composed: a longer message with compose gas, its own fee.
    const fee = (swaps.dest ? source.composeFeeByDstEid : source.feeByDstEid).get(dstEid);
    if (fee === undefined) {
      const what = `${symbol} OFT quoteSend${swaps.dest ? " (composed)" : ""} to ${dstEid}`;
      return { ok: false, chainId: sourceId, missing: what };
    }
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
        ...(swaps.source ? { swapSender: leg.swapSender! } : {}),
        ...(swaps.dest ? { swapComposer: leg.swapComposer! } : {}),
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
  transaction: oftTransaction,
};

/**
 * The quote's transaction: OFT.send, or swapAndSend through the source chain's OftSwapSender
 * for a source swap; to the destination's composer with its compose message for a destination
 * swap. Its minimums hold for the worst case the quote allows:
 * - without a destination swap, minAmountLD is destMinAmount (destination local decimals) as a
 *   whole number of shared-decimals units, rounded up, in source local decimals (_debitView
 *   checks amountReceivedLD against it). With a source swap paying only sourceMinAmount, what is
 *   sent is removeDust(sourceMinAmount), and the router's destMinAmount is at most what that
 *   delivers (price-route.ts), so the send does not revert within the tolerance;
 * - with a destination swap, minAmountLD bounds the bridged token: removeDust(sourceMinAmount)
 *   (sourceMinAmount is the amount itself without a source swap), and destMinAmount is the
 *   composer's minimum of the destination token.
 * The refund address is the recipient, the one address the quote knows (the value is exactly
 * the quoted fee, so nothing is refunded).
 */
function oftTransaction(
  leg: RoutedLeg,
  terms: OftTerms,
  _template: unknown,
  q: LegQuote,
): LegTransaction {
  const chainId = leg.sourceChain.chainId;
  const dstEid = Number(leg.destBridgeChainId);
  let minAmountLD: bigint;
  let send: { to: Address; extraOptions?: Hex; composeMsg?: Hex } = { to: q.to };
  if (q.destSwap) {
    const composed = buildDestinationSwap({
      composer: terms.swapComposer!,
      tokenOut: leg.destToken.address,
      minAmountOut: q.destMinAmount,
      recipient: q.to,
    });
    // The fee was read for exactly these options (state.ts COMPOSED_SEND_FEE_FIELDS).
    if (composed.extraOptions !== COMPOSED_SEND_FEE_FIELDS.extraOptions)
      throw new Error("destination swap options differ from those the fee was read for");
    send = composed;
    minAmountLD = removeDust(q.sourceMinAmount, terms.rate);
  } else {
    const minSD = (q.destMinAmount + terms.destRate - 1n) / terms.destRate;
    minAmountLD = minSD * terms.rate;
  }
  if (q.sourceSwap) {
    const sender = terms.swapSender!;
    const tx = buildOftSwapSendTransaction({
      chainId,
      sender,
      oft: leg.bridge,
      tokenIn: leg.sourceToken.address,
      amountIn: q.amount,
      minAmountOut: q.sourceMinAmount,
      dstEid,
      minAmountLD,
      nativeFee: q.messagingFee,
      refundAddress: q.to,
      ...send,
    });
    const approval = buildOftSwapSendApproval({
      chainId,
      tokenIn: leg.sourceToken.address,
      sender,
      amountIn: q.amount,
    });
    return {
      transactionRequest: tx,
      approval: {
        token: approval.token,
        spender: approval.spender,
        transactionRequest: approval.transactionRequest,
      },
    };
  }
  const transactionRequest = buildOftSendTransaction({
    chainId,
    oft: leg.bridge,
    dstEid,
    amountLD: q.amount,
    minAmountLD,
    nativeFee: q.messagingFee,
    refundAddress: q.to,
    ...send,
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
}
