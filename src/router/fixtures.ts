/**
 * A realistic registry + state snapshot without a chain, for the router's tests and the router
 * benchmark: the three devnet chains, tokens, pairs and links of docs/protocol.md, pool reserves
 * at the protocol's seeding prices (WETH 3,000 USDC, DAI 1, ORC 15, GOV 2), and bridge
 * configurations chosen to exercise every limit. `extraTokensPerChain` adds tokens X1..Xn with a
 * pair each (to USDC or to WETH, alternately, so both one- and two-hop paths occur) so the
 * benchmark gets ten or more tokens per chain.
 */
import { type Address, getAddress, keccak256, toBytes } from "viem";
import type { BridgeKind } from "../domain/bridge-kind.js";
import {
  parseRegistry,
  type Registry,
  type RegistryChain,
  type RegistryToken,
} from "../domain/registry.js";
import { REFERENCE_PROTOCOL } from "../protocols/reference/index.js";
import type { ReferenceTerms } from "../protocols/reference/routing.js";
import { fixtureV3Section, fixtureV3States } from "./fixture-v3.js";
import { type PreparedRoute, prepareRoute } from "./price-route.js";
import { enumerateRoutes } from "./routes.js";
import type { BridgeState, ChainState, PairReserves, StateSnapshot, TokenConfig } from "./state.js";

export interface RouterFixtureOptions {
  /** Extra tokens per chain, each with one DEX pair. Default 0. */
  extraTokensPerChain?: number;
  /** Deploy-alike: the same contract and token addresses on every chain (as anvil does). */
  sameAddressesAcrossChains?: boolean;
  /** Per-kind token config overrides (applied on every chain). */
  tokenConfigs?: Partial<Record<BridgeKind, Partial<TokenConfig>>>;
  /** Kind 1 pool liquidity of USDC on every chain, base units. Default 250,000 USDC. */
  poolLiquidity?: bigint;
  /**
   * Kind 0 DAI locked in alpha's bridge (DAI's home chain; beta and gamma mint wrapped DAI, so
   * their bridges report 2^256 - 1). Base units; default 1,000,000 DAI.
   */
  lockedLiquidity?: bigint;
  /** Kind 2 messaging fee to every destination, USDC base units. Default 0.25 USDC. */
  xprotoFee?: bigint;
  /** Pool depth (USD per side) of every pair. Default per pair, see PAIRS. */
  pairDepthUsd?: bigint;
  /** ChainState.readAtMs of every chain. Default 0. */
  readAtMs?: number;
  /**
   * Adds Uniswap V3 pools on every chain (USDC/WETH at 0.05 % and 0.3 %, DAI/USDC at 0.01 %)
   * with positions around the price and their tick windows (fixture-v3.ts). Default false.
   */
  uniswapV3?: boolean;
}

export interface RouterFixture {
  /** The registry JSON (accepted by parseRegistry / loadRegistry). */
  registryJson: Record<string, unknown>;
  registry: Registry;
  snapshot: StateSnapshot;
  chain(name: string): RegistryChain;
  token(chainName: string, symbol: string): RegistryToken;
}

export const FIXTURE_CHAINS = [
  { name: "alpha", chainId: 71001, ids: { 0: "71001", 1: "101", 2: "40101" } },
  { name: "beta", chainId: 71002, ids: { 0: "71002", 1: "102", 2: "40102" } },
  { name: "gamma", chainId: 71003, ids: { 0: "71003", 1: "103", 2: "40103" } },
] as const;

interface TokenSpec {
  symbol: string;
  decimals: number;
  /** USD price with 6 decimals. */
  priceMicroUsd: bigint;
  chains: readonly string[];
}

const BASE_TOKENS: readonly TokenSpec[] = [
  { symbol: "USDC", decimals: 6, priceMicroUsd: 1_000000n, chains: ["alpha", "beta", "gamma"] },
  { symbol: "DAI", decimals: 18, priceMicroUsd: 1_000000n, chains: ["alpha", "beta", "gamma"] },
  { symbol: "WETH", decimals: 18, priceMicroUsd: 3000_000000n, chains: ["alpha", "beta", "gamma"] },
  { symbol: "ORC", decimals: 8, priceMicroUsd: 15_000000n, chains: ["alpha", "beta"] },
  { symbol: "GOV", decimals: 18, priceMicroUsd: 2_000000n, chains: ["beta", "gamma"] },
];

/** [tokenA, tokenB, default depth in USD per side, chains]. */
const PAIRS: readonly [string, string, bigint, readonly string[]][] = [
  ["USDC", "WETH", 3_000_000n, ["alpha", "beta", "gamma"]],
  ["DAI", "USDC", 2_000_000n, ["alpha", "beta", "gamma"]],
  ["ORC", "WETH", 300_000n, ["alpha", "beta"]],
  ["GOV", "USDC", 500_000n, ["beta", "gamma"]],
];

export const FIXTURE_TOKEN_CONFIGS: Record<BridgeKind, TokenConfig> = {
  // kind 0 carries DAI (18 decimals): 0.1 %, 1 DAI to 100,000 DAI.
  0: { feeBps: 10n, flatFee: 0n, minAmount: 10n ** 18n, maxAmount: 100_000n * 10n ** 18n },
  // kind 1 carries USDC: 0.05 % + 0.5 USDC, at least 1 USDC, no cap (the pool's liquidity caps).
  1: { feeBps: 5n, flatFee: 500_000n, minAmount: 1_000_000n, maxAmount: 0n },
  // kind 2 carries USDC: 0.03 %, 1 to 500,000 USDC, plus the messaging fee.
  2: { feeBps: 3n, flatFee: 0n, minAmount: 1_000_000n, maxAmount: 500_000_000_000n },
};

const BRIDGED: Record<BridgeKind, string> = { 0: "DAI", 1: "USDC", 2: "USDC" };

/** A deterministic address from a label. */
export function fixtureAddress(label: string): Address {
  return getAddress(`0x${keccak256(toBytes(label)).slice(-40)}`);
}

export function createRouterFixture(options: RouterFixtureOptions = {}): RouterFixture {
  const extra = options.extraTokensPerChain ?? 0;
  const scope = (chain: string, label: string) =>
    fixtureAddress(options.sameAddressesAcrossChains ? label : `${chain}/${label}`);

  const specs: TokenSpec[] = [...BASE_TOKENS];
  const pairs = [...PAIRS];
  for (let i = 1; i <= extra; i++) {
    const symbol = `X${i}`;
    specs.push({
      symbol,
      decimals: [18, 6, 8, 12][i % 4]!,
      priceMicroUsd: BigInt(i) * 1_250000n,
      chains: ["alpha", "beta", "gamma"],
    });
    pairs.push([symbol, i % 2 === 0 ? "USDC" : "WETH", 1_000_000n, ["alpha", "beta", "gamma"]]);
  }
  const spec = (symbol: string) => specs.find((s) => s.symbol === symbol)!;

  const chains = FIXTURE_CHAINS.map((c) => ({
    chainId: c.chainId,
    name: c.name,
    bridgeChainIds: c.ids,
    bridges: {
      0: scope(c.name, "bridge/0"),
      1: scope(c.name, "bridge/1"),
      2: scope(c.name, "bridge/2"),
    },
    messagingEndpoint: scope(c.name, "endpoint"),
    dex: {
      factory: scope(c.name, "factory"),
      router: scope(c.name, "router"),
      hubToken: scope(c.name, "token/WETH"),
      pairs: pairs
        .filter(([, , , on]) => on.includes(c.name))
        .map(([a, b]) => {
          const [token0, token1] = sortTokens(
            scope(c.name, `token/${a}`),
            scope(c.name, `token/${b}`),
          );
          return { address: scope(c.name, `pair/${a}/${b}`), token0, token1 };
        }),
    },
    ...(options.uniswapV3 ? { uniswapV3: fixtureV3Section((label) => scope(c.name, label)) } : {}),
    tokens: specs
      .filter((s) => s.chains.includes(c.name))
      .map((s) => ({
        address: scope(c.name, `token/${s.symbol}`),
        symbol: s.symbol,
        decimals: s.decimals,
      })),
  }));
  const links = ([0, 1, 2] as const).flatMap((kind) =>
    FIXTURE_CHAINS.flatMap((from) =>
      FIXTURE_CHAINS.filter((to) => to !== from).map((to) => ({
        kind,
        sourceChainId: from.chainId,
        sourceToken: scope(from.name, `token/${BRIDGED[kind]}`),
        destChainId: to.chainId,
        destToken: scope(to.name, `token/${BRIDGED[kind]}`),
      })),
    ),
  );
  const registryJson = { chains, links };
  const registry = parseRegistry(registryJson);

  const token = (chainName: string, symbol: string): RegistryToken => {
    const chain = registry.chainByName(chainName);
    const found = chain?.tokens.find((t) => t.symbol === symbol);
    if (!found) throw new RangeError(`fixture has no ${symbol} on ${chainName}`);
    return found;
  };

  const states = new Map<number, ChainState>();
  for (const chain of registry.chains) {
    const reserves = new Map<string, PairReserves>();
    for (const [a, b, depth, on] of pairs) {
      if (!on.includes(chain.name)) continue;
      const pair = registry.pair(
        chain.chainId,
        token(chain.name, a).key,
        token(chain.name, b).key,
      )!;
      const usd = options.pairDepthUsd ?? depth;
      const reserveOf = (t: RegistryToken) =>
        (usd * 1_000000n * 10n ** BigInt(t.decimals)) / spec(t.symbol).priceMicroUsd;
      reserves.set(pair.key, {
        token0: pair.token0.key,
        token1: pair.token1.key,
        reserve0: reserveOf(pair.token0),
        reserve1: reserveOf(pair.token1),
      });
    }
    const bridges: Partial<Record<BridgeKind, BridgeState>> = {};
    for (const kind of [0, 1, 2] as const) {
      const config = { ...FIXTURE_TOKEN_CONFIGS[kind], ...options.tokenConfigs?.[kind] };
      const bridged = token(chain.name, BRIDGED[kind]);
      const state: BridgeState = { tokenConfigs: new Map([[bridged.key, config]]) };
      if (kind === 1) {
        state.availableLiquidity = new Map([
          [bridged.key, options.poolLiquidity ?? 250_000_000000n],
        ]);
      }
      if (kind === 0) {
        const locked = options.lockedLiquidity ?? 1_000_000n * 10n ** 18n;
        state.availableLiquidity = new Map([
          [bridged.key, chain.name === "alpha" ? locked : 2n ** 256n - 1n],
        ]);
      }
      if (kind === 2) {
        const fee = options.xprotoFee ?? 250_000n;
        state.xprotoFees = new Map(
          registry.chains.filter((c) => c !== chain).map((c) => [c.chainId, fee]),
        );
      }
      bridges[kind] = state;
    }
    states.set(chain.chainId, {
      chainId: chain.chainId,
      blockNumber: 100n,
      blockTimestamp: 1_700_000_000n,
      readAtMs: options.readAtMs ?? 0,
      bridges,
      pairs: reserves,
      ...(options.uniswapV3 ? { v3Pools: fixtureV3States(chain, spec) } : {}),
    });
  }

  return {
    registryJson,
    registry,
    snapshot: { chains: states },
    chain: (name) => {
      const chain = registry.chainByName(name);
      if (!chain) throw new RangeError(`fixture has no chain ${name}`);
      return chain;
    },
    token,
  };
}

function sortTokens(a: Address, b: Address): [Address, Address] {
  return a.toLowerCase() < b.toLowerCase() ? [a, b] : [b, a];
}

/**
 * The fixture's route of bridge kind `kind` from `from` to `to` ([chain, symbol]), prepared on
 * `snapshot`; throws when there is no such route or it cannot be prepared.
 */
/** A reference route's terms (ReferenceTerms) from its prepared route. */
export function referenceTerms(prepared: PreparedRoute): ReferenceTerms {
  if (prepared.route.protocol !== REFERENCE_PROTOCOL) {
    throw new Error(`a ${prepared.route.protocol} route has no reference terms`);
  }
  return prepared.terms as ReferenceTerms;
}

export function preparedFixtureRoute(
  fx: RouterFixture,
  from: [string, string],
  to: [string, string],
  kind: number,
  snapshot: StateSnapshot = fx.snapshot,
): PreparedRoute {
  const route = enumerateRoutes(fx.registry, fx.token(...from), fx.token(...to)).find(
    (r) => r.kind === kind,
  );
  if (route === undefined) throw new Error(`no kind ${kind} route`);
  const result = prepareRoute(route, snapshot);
  if (!result.ok) throw new Error(result.missing);
  return result.prepared;
}

/** A quote request (as the API takes it) for `amount` of `from` ([chain, symbol]) into `to`. */
export function fixtureQuoteRequest(
  fx: RouterFixture,
  from: [string, string],
  to: [string, string],
  amount: string,
  recipient: string,
) {
  return {
    sourceChain: String(fx.chain(from[0]).chainId),
    sourceToken: fx.token(...from).address,
    destChain: String(fx.chain(to[0]).chainId),
    destToken: fx.token(...to).address,
    amount,
    to: recipient,
  };
}
