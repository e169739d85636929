/**
 * The chain / token / bridge registry: what exists (chains, their bridge contracts and chain-id
 * schemes, tokens, DEX pairs, bridge links), never what state it is in (that is the router's
 * StateSnapshot). Built once at start from the devnet manifest or a registry JSON file, validated
 * with errors that name the bad entry, then read-only. It is a BridgeRegistry too
 * (bridge-registry.ts: the chain and bridge lookups the indexer uses).
 *
 * Registry file format (a subset of the devnet manifest, so the manifest itself is accepted; any
 * other field is ignored):
 *
 *     { "chains": [ { "chainId": 71001, "name": "alpha", "rpcUrl"?: "http://...",
 *                     "publicRpcUrl"?: "https://...", "deployBlock"?: 0, "nativeSymbol"?: "ETH",
 *                     "nativeName"?: "Ether", "displayName"?: "Alpha",
 *                     "blockExplorerUrl"?: "https://explorer.example.org",
 *                     "bridgeChainIds": { "0": "71001", "1": "101", "2": "40101" },
 *                     "bridges": { "0": "0x..", "1": "0x..", "2": "0x.." },
 *                     "messagingEndpoint"?: "0x..",
 *                     "dex": { "factory": "0x..", "router": "0x..", "hubToken": "0x..",
 *                              "pairs": [ { "address": "0x..", "token0": "0x..", "token1": "0x.." } ] },
 *                     "uniswapV3"?: { "factory": "0x..", "tickLens": "0x..",
 *                                     "pools": [ { "address": "0x..", "token0": "0x..", "token1": "0x..",
 *                                                  "fee": 500, "tickSpacing": 10 } ] },
 *                     "tokens": [ { "address": "0x..", "symbol": "USDC", "decimals": 6, "name"?: "..." } ] } ],
 *       "links": [ { "kind": 1, "sourceChainId": 71001, "sourceToken": "0x..",
 *                    "destChainId": 71002, "destToken": "0x.." } ] }
 *
 * `rpcUrl` is what the server reads the chain through (it may carry credentials: never shown);
 * `publicRpcUrl` is the one the operator publishes to browser wallets (public-rpc-url.ts).
 * `blockExplorerUrl` is the chain's block explorer (Etherscan or Blockscout style: the explorer
 * page links `<url>/tx/<hash>`, `<url>/address/<address>`, `<url>/block/<number>`), published
 * under the same rules; `displayName` is the chain's name for people ("alpha" -> "Alpha" when
 * not given).
 *
 * A chain may omit bridge kinds it does not run (`bridges` / `bridgeChainIds` are partial). The
 * native coin (zero address, 18 decimals) is added to every chain as a token; it swaps as the
 * chain's hub token (WETH), see docs/protocol.md.
 */
import { readFile } from "node:fs/promises";
import { type Address, getAddress } from "viem";
import { BRIDGE_KINDS, type BridgeKind } from "./bridge-kind.js";
import {
  type BridgeRegistry,
  createBridgeRegistry,
  type RegistryBridge,
} from "./bridge-registry.js";
import { publicRpcUrlProblem } from "./public-rpc-url.js";

export const NATIVE_ADDRESS: Address = "0x0000000000000000000000000000000000000000";

export interface RegistryToken {
  chainId: number;
  /** EIP-55 checksum form. */
  address: Address;
  /** Lowercase address: the key of every lookup. */
  key: string;
  symbol: string;
  name: string;
  decimals: number;
  /** The chain's native coin (zero address); swaps as the hub token (WETH). */
  native: boolean;
}

export interface RegistryPair {
  address: Address;
  /** Lowercase pair address: the key of the pair's reserves in a StateSnapshot. */
  key: string;
  token0: RegistryToken;
  token1: RegistryToken;
}

/** A Uniswap V3 pool (tokens in the pool's order, token0 < token1). */
export interface RegistryV3Pool {
  address: Address;
  /** Lowercase pool address: the key of its state in a StateSnapshot. */
  key: string;
  token0: RegistryToken;
  token1: RegistryToken;
  /** Fee in hundredths of a basis point (100, 500, 3000, 10000). */
  fee: number;
  tickSpacing: number;
}

/** Uniswap V3 on a chain: TickLens reads the pools' ticks (docs/router.md). */
export interface RegistryUniswapV3 {
  factory: Address;
  tickLens: Address;
  pools: RegistryV3Pool[];
}

export interface RegistryChain {
  chainId: number;
  name: string;
  rpcUrl?: string;
  /** The RPC URL the operator publishes to browser wallets; absent: none is published. */
  publicRpcUrl?: string;
  deployBlock?: number;
  /** This chain in each bridge kind's chain-id scheme, as decimal strings. */
  bridgeChainIds: Partial<Record<BridgeKind, string>>;
  /** Each bridge kind's contract on this chain (kinds the chain does not run are absent). */
  bridges: Partial<Record<BridgeKind, Address>>;
  messagingEndpoint?: Address;
  dex: { factory: Address; router: Address; hubToken: RegistryToken; pairs: RegistryPair[] };
  /** Absent: the chain's swaps use the V2 pairs only. */
  uniswapV3?: RegistryUniswapV3;
  /** Every token of the chain, the native coin first. */
  tokens: RegistryToken[];
  nativeToken: RegistryToken;
  /** The native coin's name for wallets (wallet_addEthereumChain); the symbol when not given. */
  nativeName: string;
  /** The chain's name for people; `name` with its first letter capitalised when not given. */
  displayName: string;
  /** The chain's block explorer, no trailing slash; absent: none is published. */
  blockExplorerUrl?: string;
  /**
   * Other protocols' contracts on this chain (the manifest's and indexer config's top-level
   * `contracts`): indexed, never quoted (docs/protocols.md); discovery lists them.
   */
  indexOnly: { protocol: string; kind: BridgeKind; address: Address }[];
  /**
   * Other protocols' contracts on this chain from the top-level `contracts` (not the auxiliary
   * ones), with the token each moves when the entry names it (a LayerZero OFT or adapter) and
   * the mesh it belongs to: what a protocol's routing offers legs between.
   */
  protocolContracts: RegistryProtocolContract[];
}

/** A contract of another protocol than the reference bridges, on one chain. */
export interface RegistryProtocolContract {
  protocol: string;
  kind: BridgeKind;
  address: Address;
  /** This chain in the protocol's naming (a LayerZero endpoint id). */
  bridgeChainId: string;
  /**
   * The token it moves, a token of the chain: the registry's when listed, else built from the
   * entry's `token`, `symbol` and `decimals`. Absent when the entry does not name one.
   */
  token?: RegistryToken;
  /** The set of contracts it is connected to on other chains (a LayerZero OFT's peers). */
  mesh?: string;
  /** Our swap periphery for it on this chain (bridge-registry.ts RegistryBridge). */
  swapSender?: Address;
  swapComposer?: Address;
}

export interface RegistryLink {
  kind: BridgeKind;
  sourceChainId: number;
  sourceToken: RegistryToken;
  destChainId: number;
  destToken: RegistryToken;
}

export interface Registry extends BridgeRegistry {
  readonly chains: readonly RegistryChain[];
  readonly links: readonly RegistryLink[];
  chain(chainId: number): RegistryChain | undefined;
  chainByName(name: string): RegistryChain | undefined;
  /** Reverse of `bridgeChainIds`: the chain that kind `kind` calls `bridgeChainId`. */
  chainByBridgeChainId(kind: BridgeKind, bridgeChainId: string): RegistryChain | undefined;
  /** Case-insensitive on the address. */
  token(chainId: number, address: string): RegistryToken | undefined;
  /** The DEX pair of two tokens on a chain, either order, case-insensitive. */
  pair(chainId: number, tokenA: string, tokenB: string): RegistryPair | undefined;
  /** Every link from one chain to another (empty array when none). */
  linksBetween(sourceChainId: number, destChainId: number): readonly RegistryLink[];
}

export class RegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RegistryError";
  }
}

const ADDRESS_PATTERN = /^0x[0-9a-fA-F]{40}$/;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(where: string, rule: string): never {
  throw new RegistryError(`invalid registry: ${where} ${rule}`);
}

function readObject(value: unknown, where: string): Json {
  if (!isObject(value)) fail(where, "must be an object");
  return value;
}

function readArray(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) fail(where, "must be an array");
  return value;
}

function readString(value: unknown, where: string): string {
  if (typeof value !== "string" || value.length === 0) fail(where, "must be a non-empty string");
  return value;
}

/** An http(s) URL; never echoed in the error, since it may carry credentials. */
function readRpcUrl(value: unknown, where: string): string {
  const url = readString(value, where);
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    fail(where, "must be a valid http(s) URL");
  }
  return url;
}

function readInteger(value: unknown, where: string, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    fail(where, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

function readAddress(value: unknown, where: string): Address {
  if (typeof value !== "string" || !ADDRESS_PATTERN.test(value)) {
    fail(where, "must be an address (0x followed by 40 hex digits)");
  }
  const checksummed = getAddress(value.toLowerCase());
  const hex = value.slice(2);
  // Mixed case claims an EIP-55 checksum; a wrong one is a typo. One-case addresses pass.
  if (hex !== hex.toLowerCase() && hex !== hex.toUpperCase() && value !== checksummed) {
    fail(where, `has a wrong EIP-55 checksum (${value})`);
  }
  return checksummed;
}

function readPublicRpcUrl(value: unknown, where: string): string {
  const problem = publicRpcUrlProblem(value);
  if (problem !== null) fail(where, problem);
  return value as string;
}

function readKind(value: unknown, where: string): BridgeKind {
  if (value !== 0 && value !== 1 && value !== 2) fail(where, "must be a bridge kind 0, 1 or 2");
  return value;
}

function buildChain(raw: unknown, index: number): RegistryChain {
  let where = `chains[${index}]`;
  const c = readObject(raw, where);
  const chainId = readInteger(c.chainId, `${where}.chainId`, 1, Number.MAX_SAFE_INTEGER);
  const name = readString(c.name, `${where}.name`);
  where = `chains[${index}] (${name})`;
  // An earlier format listed other protocols' contracts per chain: refused, not ignored.
  if (c.protocolBridges !== undefined) {
    fail(
      `${where}.protocolBridges`,
      `is no longer read: list these contracts in the top-level \`contracts\` array, each with "chainId": ${chainId}`,
    );
  }

  const nativeSymbol =
    c.nativeSymbol === undefined ? "ETH" : readString(c.nativeSymbol, `${where}.nativeSymbol`);
  const nativeName =
    c.nativeName === undefined ? nativeSymbol : readString(c.nativeName, `${where}.nativeName`);
  const displayName =
    c.displayName === undefined
      ? name.charAt(0).toUpperCase() + name.slice(1)
      : readString(c.displayName, `${where}.displayName`);
  const nativeToken: RegistryToken = {
    chainId,
    address: NATIVE_ADDRESS,
    key: NATIVE_ADDRESS,
    symbol: nativeSymbol,
    name: `${nativeSymbol} (native coin)`,
    decimals: 18,
    native: true,
  };
  const tokens: RegistryToken[] = [nativeToken];
  const byKey = new Map<string, RegistryToken>([[NATIVE_ADDRESS, nativeToken]]);
  readArray(c.tokens, `${where}.tokens`).forEach((rawToken, i) => {
    const at = `${where}.tokens[${i}]`;
    const t = readObject(rawToken, at);
    const address = readAddress(t.address, `${at}.address`);
    const key = address.toLowerCase();
    if (key === NATIVE_ADDRESS)
      fail(`${at}.address`, "is the zero address, reserved for the native coin");
    if (byKey.has(key)) fail(`${at}.address`, `repeats token ${address} on chain ${chainId}`);
    const symbol = readString(t.symbol, `${at}.symbol`);
    const token: RegistryToken = {
      chainId,
      address,
      key,
      symbol,
      name: t.name === undefined ? symbol : readString(t.name, `${at}.name`),
      decimals: readInteger(t.decimals, `${at}.decimals`, 0, 77),
      native: false,
    };
    tokens.push(token);
    byKey.set(key, token);
  });
  const knownToken = (value: unknown, at: string): RegistryToken => {
    const address = readAddress(value, at);
    const token = byKey.get(address.toLowerCase());
    if (token === undefined || token.native) fail(at, `${address} is not a token of chain ${name}`);
    return token;
  };

  const bridgeChainIds: Partial<Record<BridgeKind, string>> = {};
  const rawIds = readObject(c.bridgeChainIds, `${where}.bridgeChainIds`);
  const bridges: Partial<Record<BridgeKind, Address>> = {};
  const rawBridges = readObject(c.bridges, `${where}.bridges`);
  for (const kind of BRIDGE_KINDS) {
    const id = rawIds[String(kind)];
    if (id !== undefined) {
      const text = typeof id === "number" ? String(id) : id;
      if (typeof text !== "string" || !/^[0-9]{1,78}$/.test(text)) {
        fail(`${where}.bridgeChainIds.${kind}`, "must be a decimal chain id");
      }
      bridgeChainIds[kind] = BigInt(text).toString();
    }
    if (rawBridges[String(kind)] !== undefined) {
      bridges[kind] = readAddress(rawBridges[String(kind)], `${where}.bridges.${kind}`);
    }
    if ((bridges[kind] === undefined) !== (bridgeChainIds[kind] === undefined)) {
      fail(where, `must give both bridges.${kind} and bridgeChainIds.${kind}, or neither`);
    }
  }

  const dex = readObject(c.dex, `${where}.dex`);
  const hubToken = knownToken(dex.hubToken, `${where}.dex.hubToken`);
  const pairs: RegistryPair[] = readArray(dex.pairs, `${where}.dex.pairs`).map((rawPair, i) => {
    const at = `${where}.dex.pairs[${i}]`;
    const p = readObject(rawPair, at);
    const address = readAddress(p.address, `${at}.address`);
    const token0 = knownToken(p.token0, `${at}.token0`);
    const token1 = knownToken(p.token1, `${at}.token1`);
    if (token0 === token1) fail(at, "pairs a token with itself");
    return { address, key: address.toLowerCase(), token0, token1 };
  });

  const uniswapV3 =
    c.uniswapV3 === undefined
      ? undefined
      : readUniswapV3(c.uniswapV3, `${where}.uniswapV3`, knownToken);

  return {
    chainId,
    name,
    ...(uniswapV3 === undefined ? {} : { uniswapV3 }),
    ...(c.rpcUrl === undefined ? {} : { rpcUrl: readRpcUrl(c.rpcUrl, `${where}.rpcUrl`) }),
    ...(c.publicRpcUrl === undefined
      ? {}
      : { publicRpcUrl: readPublicRpcUrl(c.publicRpcUrl, `${where}.publicRpcUrl`) }),
    ...(c.blockExplorerUrl === undefined
      ? {}
      : {
          // Published to every browser like the public RPC URL, so under the same rules.
          blockExplorerUrl: readPublicRpcUrl(
            c.blockExplorerUrl,
            `${where}.blockExplorerUrl`,
          ).replace(/\/+$/, ""),
        }),
    ...(c.deployBlock === undefined
      ? {}
      : {
          deployBlock: readInteger(
            c.deployBlock,
            `${where}.deployBlock`,
            0,
            Number.MAX_SAFE_INTEGER,
          ),
        }),
    bridgeChainIds,
    bridges,
    indexOnly: [],
    protocolContracts: [],
    ...(c.messagingEndpoint === undefined
      ? {}
      : { messagingEndpoint: readAddress(c.messagingEndpoint, `${where}.messagingEndpoint`) }),
    dex: {
      factory: readAddress(dex.factory, `${where}.dex.factory`),
      router: readAddress(dex.router, `${where}.dex.router`),
      hubToken,
      pairs,
    },
    tokens,
    nativeToken,
    nativeName,
    displayName,
  };
}

const V3_FEES = new Set([100, 500, 3000, 10000]);

function readUniswapV3(
  raw: unknown,
  where: string,
  knownToken: (value: unknown, at: string) => RegistryToken,
): RegistryUniswapV3 {
  const v3 = readObject(raw, where);
  const seen = new Set<string>();
  const pools = readArray(v3.pools, `${where}.pools`).map((rawPool, i): RegistryV3Pool => {
    const at = `${where}.pools[${i}]`;
    const p = readObject(rawPool, at);
    const address = readAddress(p.address, `${at}.address`);
    const token0 = knownToken(p.token0, `${at}.token0`);
    const token1 = knownToken(p.token1, `${at}.token1`);
    if (token0.key >= token1.key) fail(at, "must have token0 < token1 (the pool's own order)");
    const fee = readInteger(p.fee, `${at}.fee`, 1, 999_999);
    if (!V3_FEES.has(fee)) fail(`${at}.fee`, "must be a fee tier 100, 500, 3000 or 10000");
    const unique = `${token0.key}:${token1.key}:${fee}`;
    if (seen.has(unique)) fail(at, "repeats a pool of the same tokens and fee");
    seen.add(unique);
    const tickSpacing = readInteger(p.tickSpacing, `${at}.tickSpacing`, 1, 16384);
    return { address, key: address.toLowerCase(), token0, token1, fee, tickSpacing };
  });
  return {
    factory: readAddress(v3.factory, `${where}.factory`),
    tickLens: readAddress(v3.tickLens, `${where}.tickLens`),
    pools,
  };
}

function pairKey(chainId: number, a: string, b: string): string {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? `${chainId}:${x}:${y}` : `${chainId}:${y}:${x}`;
}

/**
 * Validates registry JSON (the documented format or a devnet manifest) and builds the lookups.
 * Throws RegistryError naming the first bad entry.
 */
export function parseRegistry(json: unknown): Registry {
  const root = readObject(json, "the root");
  const rawChains = readArray(root.chains, "chains");
  if (rawChains.length === 0) fail("chains", "must list at least one chain");
  // Other protocols' contracts listed at the top level (the manifest's `contracts`, as the
  // indexer configuration reads them) are index-only too, on the chain each names.
  const listed = readTopLevelContracts(root.contracts);
  const chains = rawChains.map(buildChain).map((chain) => {
    const more = listed.filter((c) => c.chainId === chain.chainId);
    return more.length === 0 ? chain : withProtocolContracts(chain, more);
  });

  const chainById = new Map<number, RegistryChain>();
  const chainByName = new Map<string, RegistryChain>();
  const chainByBridgeId = new Map<string, RegistryChain>();
  const tokenByKey = new Map<string, RegistryToken>();
  const pairByKey = new Map<string, RegistryPair>();
  for (const chain of chains) {
    if (chainById.has(chain.chainId))
      fail(`chain ${chain.name}`, `repeats chainId ${chain.chainId}`);
    if (chainByName.has(chain.name)) fail(`chain ${chain.chainId}`, `repeats name ${chain.name}`);
    chainById.set(chain.chainId, chain);
    chainByName.set(chain.name, chain);
    for (const kind of BRIDGE_KINDS) {
      const id = chain.bridgeChainIds[kind];
      if (id === undefined) continue;
      const other = chainByBridgeId.get(`${kind}:${id}`);
      if (other)
        fail(`chain ${chain.name}`, `repeats bridgeChainIds.${kind} ${id} of ${other.name}`);
      chainByBridgeId.set(`${kind}:${id}`, chain);
    }
    for (const token of chain.tokens) tokenByKey.set(`${chain.chainId}:${token.key}`, token);
    for (const pair of chain.dex.pairs) {
      const key = pairKey(chain.chainId, pair.token0.key, pair.token1.key);
      if (pairByKey.has(key)) {
        fail(`chain ${chain.name} pair ${pair.address}`, "repeats a pair of the same two tokens");
      }
      pairByKey.set(key, pair);
    }
  }

  const linksByChains = new Map<string, RegistryLink[]>();
  const seenLinks = new Set<string>();
  const links = readArray(root.links, "links").map((rawLink, i): RegistryLink => {
    const at = `links[${i}]`;
    const l = readObject(rawLink, at);
    const kind = readKind(l.kind, `${at}.kind`);
    const sourceChainId = readInteger(
      l.sourceChainId,
      `${at}.sourceChainId`,
      1,
      Number.MAX_SAFE_INTEGER,
    );
    const destChainId = readInteger(l.destChainId, `${at}.destChainId`, 1, Number.MAX_SAFE_INTEGER);
    const source = chainById.get(sourceChainId);
    const dest = chainById.get(destChainId);
    if (!source) fail(`${at}.sourceChainId`, `${sourceChainId} is not a listed chain`);
    if (!dest) fail(`${at}.destChainId`, `${destChainId} is not a listed chain`);
    if (source === dest) fail(at, "links a chain to itself");
    if (source.bridges[kind] === undefined)
      fail(at, `needs a kind ${kind} bridge on ${source.name}`);
    if (dest.bridges[kind] === undefined) fail(at, `needs a kind ${kind} bridge on ${dest.name}`);
    const sourceAddress = readAddress(l.sourceToken, `${at}.sourceToken`);
    const destAddress = readAddress(l.destToken, `${at}.destToken`);
    const sourceToken = tokenByKey.get(`${sourceChainId}:${sourceAddress.toLowerCase()}`);
    const destToken = tokenByKey.get(`${destChainId}:${destAddress.toLowerCase()}`);
    if (!sourceToken || sourceToken.native) {
      fail(`${at}.sourceToken`, `${sourceAddress} is not a token of ${source.name}`);
    }
    if (!destToken || destToken.native) {
      fail(`${at}.destToken`, `${destAddress} is not a token of ${dest.name}`);
    }
    const unique = `${kind}:${sourceChainId}:${sourceToken.key}:${destChainId}`;
    if (seenLinks.has(unique)) {
      fail(
        at,
        `repeats kind ${kind} link of ${sourceToken.symbol} from ${source.name} to ${dest.name}`,
      );
    }
    seenLinks.add(unique);
    const link: RegistryLink = { kind, sourceChainId, sourceToken, destChainId, destToken };
    const chainsKey = `${sourceChainId}:${destChainId}`;
    const list = linksByChains.get(chainsKey);
    if (list) list.push(link);
    else linksByChains.set(chainsKey, [link]);
    return link;
  });

  const none: readonly RegistryLink[] = Object.freeze([]);
  const bridges: RegistryBridge[] = chains.flatMap((chain) =>
    BRIDGE_KINDS.flatMap((kind) => {
      const address = chain.bridges[kind];
      const bridgeChainId = chain.bridgeChainIds[kind];
      return address === undefined || bridgeChainId === undefined
        ? []
        : [{ kind, chainId: chain.chainId, address, bridgeChainId }];
    }),
  );
  const bridgeChains = chains.map((chain) => ({
    name: chain.name,
    chainId: chain.chainId,
    nativeSymbol: chain.nativeToken.symbol,
  }));
  return {
    ...createBridgeRegistry(bridgeChains, bridges),
    chains,
    links,
    chain: (chainId) => chainById.get(chainId),
    chainByName: (name) => chainByName.get(name),
    chainByBridgeChainId: (kind, id) => chainByBridgeId.get(`${kind}:${id}`),
    token: (chainId, address) => tokenByKey.get(`${chainId}:${address.toLowerCase()}`),
    pair: (chainId, a, b) => pairByKey.get(pairKey(chainId, a, b)),
    linksBetween: (s, d) => linksByChains.get(`${s}:${d}`) ?? none,
  };
}

/** Reads a registry JSON file or a devnet manifest (`.devnet/manifest.json`). */
export async function loadRegistry(filePath: string): Promise<Registry> {
  let text: string;
  try {
    text = await readFile(filePath, "utf8");
  } catch (error) {
    throw new RegistryError(`cannot read registry file ${filePath}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new RegistryError(`registry file ${filePath} is not JSON: ${(error as Error).message}`);
  }
  try {
    return parseRegistry(json);
  } catch (error) {
    if (error instanceof RegistryError) {
      throw new RegistryError(`${filePath}: ${error.message}`);
    }
    throw error;
  }
}

/** A top-level `contracts` entry as the router's registry reads it. */
interface TopLevelContract {
  protocol: string;
  chainId: number;
  kind: BridgeKind;
  address: Address;
  bridgeChainId: string;
  token?: { address: Address; symbol?: string; decimals?: number };
  mesh?: string;
  swapSender?: Address;
  swapComposer?: Address;
}

/**
 * The top-level `contracts` (protocol, chainId, kind, address, bridgeChainId; token, symbol,
 * decimals and mesh when given), without those read for their logs only (`auxiliary`,
 * LayerZero's endpoint): their other fields are the indexer's.
 */
function readTopLevelContracts(raw: unknown): TopLevelContract[] {
  if (raw === undefined) return [];
  const where = "contracts";
  if (!Array.isArray(raw)) fail(where, "must be an array");
  return (raw as unknown[]).flatMap((entry, i): TopLevelContract[] => {
    const at = `${where}[${i}]`;
    const e = readObject(entry, at);
    if (e.auxiliary === true) return [];
    const token =
      e.token === undefined
        ? undefined
        : {
            address: readAddress(e.token, `${at}.token`),
            ...(e.symbol === undefined ? {} : { symbol: readString(e.symbol, `${at}.symbol`) }),
            ...(e.decimals === undefined
              ? {}
              : { decimals: readInteger(e.decimals, `${at}.decimals`, 0, 77) }),
          };
    return [
      {
        protocol: readString(e.protocol, `${at}.protocol`),
        chainId: readInteger(e.chainId, `${at}.chainId`, 1, Number.MAX_SAFE_INTEGER),
        kind: readInteger(e.kind, `${at}.kind`, 0, 2) as BridgeKind,
        address: readAddress(e.address, `${at}.address`),
        bridgeChainId: readSchemeId(e.bridgeChainId, `${at}.bridgeChainId`),
        ...(token === undefined ? {} : { token }),
        ...(e.mesh === undefined ? {} : { mesh: readString(e.mesh, `${at}.mesh`) }),
        ...(e.swapSender === undefined
          ? {}
          : { swapSender: readAddress(e.swapSender, `${at}.swapSender`) }),
        ...(e.swapComposer === undefined
          ? {}
          : { swapComposer: readAddress(e.swapComposer, `${at}.swapComposer`) }),
      },
    ];
  });
}

/** A chain's id in a protocol's naming as a canonical decimal string ("" when not given). */
function readSchemeId(value: unknown, where: string): string {
  if (value === undefined) return "";
  if (!/^[0-9]+$/.test(String(value))) fail(where, "must be a decimal integer");
  return BigInt(String(value)).toString();
}

/**
 * A chain with its top-level contracts: listed as index-only (discovery leaves out those a
 * protocol quotes) and as protocolContracts; a contract's token that the chain does not list
 * joins its tokens when the entry gives its symbol and decimals.
 */
function withProtocolContracts(chain: RegistryChain, listed: TopLevelContract[]): RegistryChain {
  const tokens = [...chain.tokens];
  const tokenOf = (c: TopLevelContract): RegistryToken | undefined => {
    if (c.token === undefined) return undefined;
    const key = c.token.address.toLowerCase();
    const known = tokens.find((t) => t.key === key);
    if (known !== undefined) return known;
    if (c.token.symbol === undefined || c.token.decimals === undefined) return undefined;
    const token: RegistryToken = {
      chainId: chain.chainId,
      address: c.token.address,
      key,
      symbol: c.token.symbol,
      name: c.token.symbol,
      decimals: c.token.decimals,
      native: false,
    };
    tokens.push(token);
    return token;
  };
  const protocolContracts = listed.map((c): RegistryProtocolContract => {
    const token = tokenOf(c);
    return {
      protocol: c.protocol,
      kind: c.kind,
      address: c.address,
      bridgeChainId: c.bridgeChainId,
      ...(token === undefined ? {} : { token }),
      ...(c.mesh === undefined ? {} : { mesh: c.mesh }),
      ...(c.swapSender === undefined ? {} : { swapSender: c.swapSender }),
      ...(c.swapComposer === undefined ? {} : { swapComposer: c.swapComposer }),
    };
  });
  return {
    ...chain,
    tokens,
    indexOnly: [
      ...chain.indexOnly,
      ...listed.map(({ protocol, kind, address }) => ({ protocol, kind, address })),
    ],
    protocolContracts,
  };
}
