/**
 * The seam a bridge protocol plugs in at: one folder per protocol under src/protocols/ (its ABIs,
 * decoding, pricing, transaction building), each exporting one `Protocol`, listed once in
 * src/protocols/index.ts. The indexer asks a protocol for the topics to fetch and for the
 * normalised events (src/domain/bridge-event.ts) of its contracts' logs; the derivation pairs
 * those by their pairing key and never sees a protocol's event names; the registry says which
 * contract belongs to which protocol and maps each protocol's chain naming to our chains
 * (RegistryBridge.protocol, .bridgeChainId).
 *
 * A protocol imports the domain and chain/ (ABIs, RPC types), never indexer/, router/, api/,
 * store/ or devnet/: they import it (test/layout/layering.test.ts).
 */
import type { Hex } from "viem";
import type { RawLog } from "../chain/create-chain-client.js";
import type { BridgeEvent } from "../domain/bridge-event.js";
import type { RegistryBridge } from "../domain/bridge-registry.js";
import type { ProtocolRouting } from "./routing.js";

/** What a protocol's decoder knows about a span's logs besides the logs. */
export interface DecodeContext {
  chainId: number;
  /** Unix seconds of a log's block (every log of the span has one). */
  blockTime(log: RawLog): number;
  /** The registry's entry of the contract at `address` on this chain, when it is this protocol's. */
  contract(address: string): RegistryBridge | undefined;
  /**
   * This protocol's contract at `address` on the chain the protocol names `schemeId` (its
   * RegistryBridge.bridgeChainId): a send's destination contract, e.g. to name the token it
   * delivers.
   */
  contractIn(schemeId: string, address: string): RegistryBridge | undefined;
  /**
   * The native value (wei) of a transaction with a log whose topic0 is in the protocol's
   * `valueTopics`; undefined for any other transaction.
   */
  transactionValue(txHash: Hex): bigint | undefined;
  /**
   * Decimals of an ERC-20 on a chain (undefined: the chain is not indexed, or the context has
   * none). Given to protocols whose indexing says `readsTokenDecimals`: their sends' logs are
   * decoded again once the tokens the sends name have been read (so the answer never depends on
   * what happened to be cached).
   */
  tokenDecimals?(chainId: number, address: string): number | undefined;
}

/** How the indexer reads a protocol. */
export interface ProtocolIndexing {
  /** topic0 of every event it decodes: the eth_getLogs filter, over all of its contracts. */
  readonly topics: readonly Hex[];
  /**
   * topic0 of the events whose transaction's native value decodeLogs needs (a messaging fee no
   * event carries: LayerZero's OFTSent). The indexer fetches those transactions' values in the
   * same span (one eth_getTransactionByHash each) and hands them over as
   * DecodeContext.transactionValue. Absent: none.
   */
  readonly valueTopics?: readonly Hex[];
  /**
   * The normalised events of one span's logs of this protocol's contracts on one chain (in
   * block and log order). Logs it does not know, or that do not decode, are left out. All the
   * span's logs come at once, so a protocol whose transfer spans several logs of a transaction
   * (LayerZero: OFTSent beside the endpoint's PacketSent with the fee) can join them here.
   */
  decodeLogs(logs: readonly RawLog[], context: DecodeContext): BridgeEvent[];
  /**
   * Its sends carry a `deadline` (SentArgs): the indexer of a destination chain then records an
   * `expired` event for each of its Processing transfers whose deadline that chain's indexed
   * time has passed (src/indexer/expire-sends.ts).
   */
  readonly sendsHaveDeadlines?: boolean;
  /**
   * Its decoding reads DecodeContext.tokenDecimals (Across: a fee of input minus output in two
   * tokens' decimals): the indexer decodes its logs again after reading the sends' tokens.
   */
  readonly readsTokenDecimals?: boolean;
}

export interface Protocol {
  /** Its name: the record's `protocol` field and the registry's RegistryBridge.protocol. */
  readonly name: string;
  readonly indexing: ProtocolIndexing;
  /** How the router quotes it (routing.ts); absent: indexed only, never quoted. */
  readonly routing?: ProtocolRouting;
}

/** The protocols a process knows, by name. */
export interface ProtocolRegistry {
  readonly protocols: readonly Protocol[];
  get(name: string): Protocol | undefined;
  /** topic0 of every protocol's events (one eth_getLogs filter for a chain's contracts). */
  readonly topics: readonly Hex[];
}

export function createProtocolRegistry(protocols: readonly Protocol[]): ProtocolRegistry {
  const byName = new Map<string, Protocol>();
  for (const p of protocols) {
    if (byName.has(p.name)) throw new Error(`protocol ${p.name} is registered twice`);
    byName.set(p.name, p);
  }
  const topics = [
    ...new Set(protocols.flatMap((p) => p.indexing.topics.map((t) => t.toLowerCase() as Hex))),
  ];
  return { protocols: [...protocols], get: (name) => byName.get(name), topics };
}
