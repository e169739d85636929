/**
 * The router's part of the protocol seam (protocol.ts `Protocol.routing`): what a protocol tells
 * the router so that quotes of its bridge hops are found, priced and executed. The router keeps
 * what is the same for every protocol (swap hops, slippage, best route, range search, the quote
 * response, the memo) and asks the protocol, through this, for:
 *
 * - `legs`: the bridge hops it offers between two chains, from the registry alone;
 * - `stateReader`: what to read per block on a chain (the router's state provider calls it; the
 *   state is immutable once read and held per protocol in the chain's snapshot);
 * - `prepare`: a leg's terms from the source and destination chains' state, once per snapshot;
 * - the pure pricing of the hop on those terms (fee, messaging fee, amount delivered, limits);
 * - `transaction`: the quote's transaction and the approval it needs.
 *
 * Amounts are bigint base units of the token each comment names. Pricing functions must be
 * non-decreasing in the bridge amount where the comment says so: the router's limit search
 * (router/route-limits.ts) relies on the accepted amounts forming one interval.
 */
import type { Address, PublicClient } from "viem";
import type { BridgeKind } from "../domain/bridge-kind.js";
import type { Registry, RegistryChain, RegistryLink, RegistryToken } from "../domain/registry.js";

/** One bridge hop a protocol offers from one chain to another, from the registry alone. */
export interface BridgeLeg {
  /** The protocol's name (Protocol.name). */
  protocol: string;
  /** signData.bridgeType. */
  kind: BridgeKind;
  /** The hop's bridge tokens and chains (for a reference bridge: the registry's link). */
  link: RegistryLink;
  sourceChain: RegistryChain;
  destChain: RegistryChain;
  sourceBridgeToken: RegistryToken;
  destBridgeToken: RegistryToken;
  /** The contract the transaction calls on the source chain (signData.bridge). */
  bridge: Address;
  /** The destination in the protocol's chain naming (params.destChainId). */
  destBridgeChainId: string;
  /** The contract that delivers on the destination chain, when the protocol names one. */
  destContract?: Address;
  /**
   * Which DEX swaps the leg accepts before its bridge (source) and after it (dest), when that
   * depends on the leg (a LayerZero OFT: our periphery on the chain); absent: `routing.swaps`.
   */
  swaps?: LegSwaps;
  /** false: its swaps neither start from nor end in the native coin (ERC-20s only). */
  swapsNative?: false;
}

/** Swaps around a leg: accepted (BridgeLeg.swaps), or present in a route (prepare). */
export interface LegSwaps {
  source: boolean;
  dest: boolean;
}

/** The swaps a leg accepts: its own when it says, else its protocol's. */
export function legSwaps(leg: BridgeLeg, routing: Pick<ProtocolRouting, "swaps">): LegSwaps {
  return leg.swaps ?? { source: routing.swaps, dest: routing.swaps };
}

/** A leg inside a route: with the tokens the route starts from and ends in. */
export interface RoutedLeg extends BridgeLeg {
  sourceToken: RegistryToken;
  destToken: RegistryToken;
}

/** The RPC calls a state reader may make (a viem PublicClient has them). */
export type RoutingStateClient = Pick<PublicClient, "readContract">;

/** Reads one protocol's state on one chain at one block. */
export interface ProtocolStateReader {
  /** The result is frozen by the caller and never mutated afterwards. */
  read(client: RoutingStateClient, blockNumber: bigint): Promise<unknown>;
  /**
   * The contracts a read state lacks because their own calls failed (reverted, no code), with
   * why, by lowercase address: their legs go unpriced, the rest of the state is used. A reader
   * throws instead when the chain itself cannot be read.
   */
  unreadable?(state: unknown): ReadonlyMap<string, string>;
}

export type PrepareLegResult<T> =
  | { ok: true; terms: T }
  | { ok: false; chainId: number; missing: string };

/** A transaction in the form eth_sendTransaction takes (hex quantities). */
export interface RoutedTransactionRequest {
  /** EVM chain id to send it on. */
  chainId: number;
  to: Address;
  data: `0x${string}`;
  /** Wei, a hex quantity ("0x0" for none). */
  value: `0x${string}`;
}

/** What a priced quote fixes, in base units: the input the transaction is built from. */
export interface LegQuote {
  /** Source token. */
  amount: bigint;
  /** The quote's fee (source bridge token). */
  fee: bigint;
  /** The messaging fee (messagingFeeToken: the source bridge token, or the native coin). */
  messagingFee: bigint;
  /** Recipient on the destination chain. */
  to: Address;
  sourceSwap: boolean;
  sourceSwapFee: bigint;
  sourceMinAmount: bigint;
  destSwap: boolean;
  destSwapFee: bigint;
  /** Destination token. */
  destMinAmount: bigint;
}

export interface LegTransaction {
  transactionRequest: RoutedTransactionRequest;
  /** The ERC-20 approval the transaction needs first; null for none. */
  approval: {
    token: Address;
    spender: Address;
    transactionRequest: RoutedTransactionRequest;
  } | null;
}

/**
 * How the router quotes one protocol. `T` is the protocol's terms of a prepared leg (what it read
 * from the snapshot), opaque to the router.
 */
export interface ProtocolRouting<T = unknown> {
  /** The bridge hops between two chains (registry order: the router's tie-break keeps it). */
  legs(registry: Registry, sourceChain: RegistryChain, destChain: RegistryChain): BridgeLeg[];
  /**
   * Whether the router may put DEX swaps before and after this protocol's legs (the transaction
   * then has to perform them), unless a leg says otherwise (BridgeLeg.swaps). false: a route is
   * the bridge tokens alone, and discovery says so.
   */
  readonly swaps: boolean;
  /**
   * In which token the messaging fee is paid: "bridgeToken" (it is part of the quote's `fee`),
   * or "native" (the source chain's native coin, sent as the transaction's value beside the
   * amount; the quote names it apart from `fee`).
   */
  readonly messagingFeeToken: "bridgeToken" | "native";
  /** What to read per block on `chain`; undefined when nothing. */
  stateReader(registry: Registry, chain: RegistryChain): ProtocolStateReader | undefined;
  /**
   * The leg's terms from the protocol's state on the source and destination chains (undefined:
   * not read), or what is missing. Once per snapshot and route: `swaps` says whether the route
   * swaps before and after the leg (a protocol may charge such a route differently).
   */
  prepare(leg: BridgeLeg, source: unknown, dest: unknown, swaps: LegSwaps): PrepareLegResult<T>;
  /** The quote's fee for `bridgeAmount` (source bridge token): what of it does not arrive. */
  fee(terms: T, bridgeAmount: bigint): bigint;
  /** The messaging fee (messagingFeeToken units); included in `fee` when that is the bridge token. */
  messagingFee(terms: T): bigint;
  /** What arrives (destination bridge token) for `bridgeAmount`; 0n when nothing. Non-decreasing. */
  delivered(terms: T, leg: BridgeLeg, bridgeAmount: bigint): bigint;
  /** Smallest bridge amount accepted (source bridge token). */
  minAmount(terms: T): bigint;
  /** Largest bridge amount accepted (source bridge token); undefined when only uint256 bounds it. */
  maxAmount(terms: T): bigint | undefined;
  /** What the destination can pay out (destination bridge token); undefined: no bound. */
  destLiquidity(terms: T): bigint | undefined;
  /** The fee rule as discovery shows it (source bridge token units, the messaging fee in its token). */
  feeRule(terms: T): { feeBps: bigint; flatFee: bigint; messagingFee: bigint };
  /**
   * Whatever a leg's transactions share from quote to quote (encoded call heads), computed once
   * per prepared route and handed back to `transaction`.
   */
  transactionTemplate(leg: RoutedLeg, terms: T): unknown;
  /** The quote's transaction and approval. */
  transaction(leg: RoutedLeg, terms: T, template: unknown, quote: LegQuote): LegTransaction;
}
