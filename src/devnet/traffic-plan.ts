/**
 * Pure parts of the traffic generator: a seeded random source, the swap path rule, the fee and
 * slippage arithmetic of docs/protocol.md, and the random choice of what to send next. Chain
 * state (pool prices, fee configs, balances) is read elsewhere and passed in.
 */
import { type Address, zeroAddress } from "viem";
import type { BridgeKind } from "../domain/bridge-kind.js";
import { createPrng } from "../transfers/prng.js";
import { hasVenue } from "./adapter-quote.js";
import type { DevnetManifest, ManifestChain, ManifestLink } from "./manifest.js";

/** Deterministic pseudo-random numbers (src/transfers/prng.ts), so a seed reproduces a traffic run. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

export function createRandom(seed: number): Random {
  const prng = createPrng(seed);
  return {
    next: prng.float,
    int: prng.int,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError("pick from an empty list");
      return prng.pick(items);
    },
  };
}

/** A token a user can send or receive on a chain; the native coin is the zero address. */
export interface TradableToken {
  symbol: string;
  address: Address;
  decimals: number;
}

export const NATIVE: TradableToken = { symbol: "ETH", address: zeroAddress, decimals: 18 };

/** Every token of the chain plus the native coin. */
export function tradableTokens(chain: ManifestChain): TradableToken[] {
  return [
    NATIVE,
    ...chain.tokens.map(({ symbol, address, decimals }) => ({ symbol, address, decimals })),
  ];
}

const same = (a: Address, b: Address): boolean => a.toLowerCase() === b.toLowerCase();

/**
 * The swap path rule of docs/protocol.md, as the SwapAdapter applies it: `[A, B]` when a venue
 * (the V2 pair or a V3 pool) trades A/B, else `[A, WETH, B]` when both couples have one, else
 * null (no swap route). The native coin swaps as WETH.
 */
export function swapPath(chain: ManifestChain, from: Address, to: Address): Address[] | null {
  const a = same(from, zeroAddress) ? chain.weth : from;
  const b = same(to, zeroAddress) ? chain.weth : to;
  if (same(a, b)) return null;
  if (hasVenue(chain, a, b)) return [a, b];
  const hub = chain.weth;
  if (!same(a, hub) && !same(b, hub) && hasVenue(chain, a, hub) && hasVenue(chain, hub, b)) {
    return [a, hub, b];
  }
  return null;
}

export interface TokenFeeConfig {
  feeBps: bigint;
  flatFee: bigint;
  minAmount: bigint;
  maxAmount: bigint;
}

/** `bridgeFee(x) = flatFee + x * feeBps / 10000` (floor). */
export function bridgeFee(config: TokenFeeConfig, amount: bigint): bigint {
  return config.flatFee + (amount * config.feeBps) / 10_000n;
}

/** `x * (10000 - bps) / 10000` (floor): the minimum after a slippage tolerance. */
export function applySlippage(amount: bigint, bps: bigint): bigint {
  return (amount * (10_000n - bps)) / 10_000n;
}

/** Rough USD prices (in cents per whole token) used only to pick realistic amounts. */
const PRICE_CENTS: Record<string, bigint> = {
  USDC: 100n,
  DAI: 100n,
  WETH: 300_000n,
  ETH: 300_000n,
  ORC: 1_500n,
  GOV: 200n,
};

/** Base units of `token` worth about `usdCents`. */
export function amountForUsd(token: TradableToken, usdCents: bigint): bigint {
  const price = PRICE_CENTS[token.symbol] ?? 100n;
  return (usdCents * 10n ** BigInt(token.decimals)) / price;
}

export type FailureMode = "none" | "dest-min-too-high";

/** What to send next: the random choices, before any chain state is read. */
export interface TransferChoice {
  kind: BridgeKind;
  link: ManifestLink;
  source: ManifestChain;
  dest: ManifestChain;
  sourceToken: TradableToken;
  destToken: TradableToken;
  /** Approximate value to send, in USD cents (turned into base units by amountForUsd). */
  usdCents: bigint;
  failure: FailureMode;
}

export interface ChooseTransferOptions {
  /** Probability that a transfer is built to fail on the destination (then refunded). */
  failureRate: number;
  /** Kinds to choose from, e.g. cycled by the caller so every kind shows up early. */
  kind: BridgeKind;
}

/**
 * Chooses a random transfer of `kind`: a link (source/destination chain and bridge tokens), a
 * source token that is the bridge token or swaps into it, a destination token likewise, and an
 * amount between 10 and 2,000 USD. A transfer meant to fail always has a destination swap (its
 * minimum is then set above what the pool gives). Null when the kind has no usable link.
 */
export function chooseTransfer(
  manifest: DevnetManifest,
  random: Random,
  options: ChooseTransferOptions,
): TransferChoice | null {
  const links = manifest.links.filter((link) => link.kind === options.kind);
  if (links.length === 0) return null;
  const link = random.pick(links);
  const source = manifest.chains.find((chain) => chain.chainId === link.sourceChainId);
  const dest = manifest.chains.find((chain) => chain.chainId === link.destChainId);
  if (source === undefined || dest === undefined) return null;

  const failure: FailureMode = random.next() < options.failureRate ? "dest-min-too-high" : "none";
  const sourceBridge = tradableTokens(source).find((t) => same(t.address, link.sourceToken));
  const destBridge = tradableTokens(dest).find((t) => same(t.address, link.destToken));
  if (sourceBridge === undefined || destBridge === undefined) return null;

  const sourceSwaps = tradableTokens(source).filter(
    (t) =>
      !same(t.address, link.sourceToken) && swapPath(source, t.address, link.sourceToken) !== null,
  );
  const destSwaps = tradableTokens(dest).filter(
    (t) => !same(t.address, link.destToken) && swapPath(dest, link.destToken, t.address) !== null,
  );
  const sourceToken =
    sourceSwaps.length > 0 && random.next() < 0.5 ? random.pick(sourceSwaps) : sourceBridge;
  let destToken = destBridge;
  if (destSwaps.length > 0 && (failure !== "none" || random.next() < 0.4)) {
    destToken = random.pick(destSwaps);
  }
  if (failure !== "none" && destToken === destBridge) return null;

  // Log-uniform between $10 and $2,000: mostly small transfers, some large ones.
  const usdCents = BigInt(Math.round(1_000 * 200 ** random.next()));
  return { kind: options.kind, link, source, dest, sourceToken, destToken, usdCents, failure };
}
