/**
 * The router benchmark's requests: the fixture registry (three chains, the base tokens plus
 * `extraTokensPerChain` tokens per chain) and a seeded mix of quote requests between random
 * tokens of different chains, kept only when they quote successfully (so every benchmark
 * response is a 200), classified as direct (no swap) or swap routes.
 */
import { createRouter } from "../src/router/create-router.js";
import { createRouterFixture, type RouterFixture } from "../src/router/fixtures.js";
import type { QuoteExtensions } from "../src/router/quote-extensions.js";
import type { RouterRequest } from "../src/router/validate-request.js";
import { createPrng } from "../src/transfers/prng.js";

/** The app server's extra route: the same app and plugins, a canned quote instead of the router. */
export const APP_CANNED_PATH = "/bench/app-canned-quote";

/**
 * The bare server's extra routes: the canned quote's text sent as is, and the same text without
 * the fields beside the spec's, so that the two differ only in the bytes they send.
 */
export const BARE_TEXT_PATH = "/bench/bare-quote-text";
export const BARE_SPEC_TEXT_PATH = "/bench/bare-quote-text-spec-only";

/** The fields a quote carries beside the spec's four. */
export const ADDED_QUOTE_FIELDS = [
  "transactionRequest",
  "approval",
  "stateBlocks",
  "expiresAt",
  "estimatedDuration",
] as const satisfies readonly (keyof QuoteExtensions)[];

/** Garbage collections a benchmark server saw (router-server.ts, BENCH_GC_FILE). */
export interface GcStats {
  scavenges: { count: number; totalMs: number; maxMs: number };
  other: { count: number; totalMs: number; maxMs: number };
}

export interface BenchRequest {
  body: RouterRequest;
  /** Whether the best route swaps on either side. */
  swap: boolean;
  bridgeType: number;
}

export interface RequestSet {
  fixture: RouterFixture;
  tokensPerChain: Record<string, number>;
  direct: BenchRequest[];
  swaps: BenchRequest[];
  /** Half direct, half swap, interleaved. */
  mix: BenchRequest[];
}

const RECIPIENT = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

export function buildRouterRequests(options: {
  extraTokensPerChain: number;
  count: number;
  seed: number;
}): RequestSet {
  const fixture = createRouterFixture({
    extraTokensPerChain: options.extraTokensPerChain,
    readAtMs: Date.now(),
    // Uniswap V3 pools beside the V2 pairs, as the server's fixture has (router-server.ts).
    uniswapV3: true,
  });
  const router = createRouter({ registry: fixture.registry });
  const random = createPrng(options.seed).float;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const chains = fixture.registry.chains;
  const direct: BenchRequest[] = [];
  const swaps: BenchRequest[] = [];
  const amounts = ["1.5", "12", "37.5", "250", "1000", "4321.5"];
  for (let attempts = 0; attempts < options.count * 50; attempts++) {
    if (direct.length >= options.count && swaps.length >= options.count) break;
    const source = pick(chains);
    const dest = pick(chains.filter((c) => c !== source));
    const wantDirect = direct.length < options.count && random() < 0.5;
    const [sourceToken, destToken] = wantDirect
      ? (() => {
          const symbol = pick(["USDC", "DAI"]);
          const s = source.tokens.find((t) => t.symbol === symbol)!;
          const d = dest.tokens.find((t) => t.symbol === symbol)!;
          return [s, d];
        })()
      : [pick(source.tokens), pick(dest.tokens)];
    const body: RouterRequest = {
      sourceChain: String(source.chainId),
      sourceToken: sourceToken.address,
      destChain: String(dest.chainId),
      destToken: destToken.address,
      amount: pick(amounts),
      to: RECIPIENT,
    };
    const result = router.quote(body, fixture.snapshot);
    if (!result.ok) continue;
    const swap = result.priced.sourceSwap || result.priced.destSwap;
    const entry = { body, swap, bridgeType: result.data.signData.bridgeType };
    if (swap && swaps.length < options.count) swaps.push(entry);
    if (!swap && direct.length < options.count) direct.push(entry);
  }
  const mix: BenchRequest[] = [];
  for (let i = 0; i < Math.max(direct.length, swaps.length); i++) {
    if (direct[i]) mix.push(direct[i]!);
    if (swaps[i]) mix.push(swaps[i]!);
  }
  const tokensPerChain = Object.fromEntries(chains.map((c) => [c.name, c.tokens.length]));
  return { fixture, tokensPerChain, direct, swaps, mix };
}
