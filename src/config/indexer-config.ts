/**
 * The indexer's configuration file: the chains to index and their bridge contracts. The format
 * is a superset of the devnet manifest's `chains` (so `.devnet/manifest.json` is accepted as is):
 *
 *     { "chains": [ { "name": "alpha", "chainId": 71001, "rpcUrl": "http://127.0.0.1:8545",
 *                     "startBlock"?: 0,          // default: deployBlock, else 0
 *                     "confirmations"?: 0,       // follow the head this many blocks behind
 *                     "finalityDepth"?: 64,      // a deeper reorg stops this chain loudly
 *                     "nativeSymbol"?: "ETH",
 *                     "bridges": { "0": "0x..", "1": "0x..", "2": "0x.." },
 *                     "bridgeChainIds": { "0": "71001", "1": "101", "2": "40101" } } ],
 *       "contracts"?: [ { "protocol": "layerzero-oft", "chainId": 71001, "address": "0x..",
 *                         "kind": 2, "bridgeChainId": "40101", "token"?: "0x..",
 *                         "auxiliary"?: true, "swapSender"?: "0x..", "swapComposer"?: "0x.." },
 *                       { "protocol": "across", "chainId": 8453, "address": "0x..",
 *                         "kind": 1, "bridgeChainId": "8453" } ],
 *       "indexer"?: { "pollIntervalMs"?: 1000, "maxBlockRange"?: 2000, "rpcTimeoutMs"?: 10000 } }
 *
 * `contracts` are other protocols' contracts (src/protocols/: LayerZero's OFTs, Across'
 * SpokePools, ...), the one place they are listed; a chain listed there may leave out `bridges`
 * and `bridgeChainIds` (it runs no reference bridge).
 *
 * Validated once at start; every error names the entry and the rule.
 */
import { readFile } from "node:fs/promises";
import { type Address, getAddress, isAddress } from "viem";
import { BRIDGE_KINDS, type BridgeKind } from "../domain/bridge-kind.js";
import type { BridgeChain, RegistryBridge } from "../domain/bridge-registry.js";
import { redactRpcUrl } from "../redact-url.js";

export interface IndexerChainConfig extends BridgeChain {
  rpcUrl: string;
  startBlock: number;
  confirmations: number;
  finalityDepth: number;
}

export interface IndexerConfig {
  chains: IndexerChainConfig[];
  bridges: RegistryBridge[];
  pollIntervalMs: number;
  maxBlockRange: number;
  rpcTimeoutMs: number;
}

export const INDEXER_DEFAULTS = {
  confirmations: 0,
  finalityDepth: 64,
  nativeSymbol: "ETH",
  pollIntervalMs: 1000,
  maxBlockRange: 2000,
  rpcTimeoutMs: 10_000,
} as const;

export class IndexerConfigError extends Error {
  constructor(source: string, message: string) {
    super(`${source}: ${message}`);
    this.name = "IndexerConfigError";
  }
}

export async function loadIndexerConfig(path: string): Promise<IndexerConfig> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new IndexerConfigError(path, `cannot read the file (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new IndexerConfigError(path, `is not valid JSON (${(error as Error).message})`);
  }
  return parseIndexerConfig(json, path);
}

export function parseIndexerConfig(json: unknown, source = "indexer config"): IndexerConfig {
  const fail = (message: string): never => {
    throw new IndexerConfigError(source, message);
  };
  if (!isObject(json)) fail("must be a JSON object with a `chains` array");
  const root = json as Record<string, unknown>;
  if (!Array.isArray(root.chains) || root.chains.length === 0) {
    fail("`chains` must be a non-empty array");
  }
  const options = root.indexer === undefined ? {} : root.indexer;
  if (!isObject(options)) fail("`indexer` must be an object");
  const opt = options as Record<string, unknown>;

  const chains: IndexerChainConfig[] = [];
  const bridges: RegistryBridge[] = [];
  (root.chains as unknown[]).forEach((raw, i) => {
    const at = `chains[${i}]`;
    if (!isObject(raw)) fail(`${at} must be an object`);
    const c = raw as Record<string, unknown>;
    const name = c.name;
    if (typeof name !== "string" || name.trim() === "")
      fail(`${at}.name must be a non-empty string`);
    const where = `chains[${i}] (${String(name)})`;
    const chainId = integer(c.chainId, `${where}.chainId`, 1, fail);
    if (chains.some((x) => x.chainId === chainId))
      fail(`${where}.chainId ${chainId} is listed twice`);
    if (typeof c.rpcUrl !== "string") fail(`${where}.rpcUrl must be a string`);
    const rpcUrl = c.rpcUrl as string;
    if (!/^https?:\/\//.test(rpcUrl) || !URL.canParse(rpcUrl)) {
      fail(`${where}.rpcUrl must be a valid http(s) URL, got ${redactRpcUrl(rpcUrl)}`);
    }
    const startBlock = integer(c.startBlock ?? c.deployBlock ?? 0, `${where}.startBlock`, 0, fail);
    const confirmations = integer(
      c.confirmations ?? INDEXER_DEFAULTS.confirmations,
      `${where}.confirmations`,
      0,
      fail,
    );
    const finalityDepth = integer(
      c.finalityDepth ?? INDEXER_DEFAULTS.finalityDepth,
      `${where}.finalityDepth`,
      1,
      fail,
    );
    const nativeSymbol = c.nativeSymbol ?? INDEXER_DEFAULTS.nativeSymbol;
    if (typeof nativeSymbol !== "string") fail(`${where}.nativeSymbol must be a string`);
    // A chain of other protocols' contracts only (`contracts`) may leave both out.
    const onlyContracts = c.bridges === undefined && c.bridgeChainIds === undefined;
    if (!onlyContracts && !isObject(c.bridges))
      fail(`${where}.bridges must map bridge kinds ("0", "1", "2") to addresses`);
    if (!onlyContracts && !isObject(c.bridgeChainIds))
      fail(`${where}.bridgeChainIds must map bridge kinds to ids`);
    const addresses = (c.bridges ?? {}) as Record<string, unknown>;
    const schemeIds = (c.bridgeChainIds ?? {}) as Record<string, unknown>;
    // A chain with no bridge would be polled forever and never yield a record.
    if (!onlyContracts && Object.keys(addresses).length === 0) {
      fail(`${where}.bridges names no bridge; give at least one of "0", "1", "2"`);
    }
    for (const key of Object.keys(addresses)) {
      const kind = Number(key) as BridgeKind;
      if (!BRIDGE_KINDS.includes(kind) || String(kind) !== key) {
        fail(`${where}.bridges has unknown bridge kind "${key}" (allowed: 0, 1, 2)`);
      }
      const address = addresses[key];
      if (typeof address !== "string" || !isAddress(address, { strict: false })) {
        fail(`${where}.bridges["${key}"] must be a 0x address`);
      }
      const schemeId = schemeIds[key];
      if (typeof schemeId !== "string" && typeof schemeId !== "number") {
        fail(`${where}.bridgeChainIds["${key}"] is missing (the kind's id for this chain)`);
      }
      if (!/^[0-9]+$/.test(String(schemeId))) {
        fail(`${where}.bridgeChainIds["${key}"] must be a decimal integer`);
      }
      bridges.push({
        kind,
        chainId,
        address: getAddress(address as string) as Address,
        bridgeChainId: BigInt(String(schemeId)).toString(),
      });
    }
    if (c.protocolBridges !== undefined)
      fail(movedToContracts(`${where}.protocolBridges`, chainId));
    chains.push({
      name: (name as string).trim(),
      chainId,
      rpcUrl,
      startBlock,
      confirmations,
      finalityDepth,
      nativeSymbol: nativeSymbol as string,
    });
  });
  for (const kind of BRIDGE_KINDS) {
    const seen = new Map<string, number>();
    for (const b of bridges.filter((x) => x.kind === kind && x.protocol === undefined)) {
      const other = seen.get(b.bridgeChainId);
      if (other !== undefined) {
        fail(`bridge kind ${kind} uses id ${b.bridgeChainId} for chains ${other} and ${b.chainId}`);
      }
      seen.set(b.bridgeChainId, b.chainId);
    }
  }
  bridges.push(...parseContracts(root.contracts, chains, fail));
  for (const c of chains) {
    if (!bridges.some((b) => b.chainId === c.chainId)) {
      fail(`chain ${c.name} has no bridge: give its \`bridges\` or list contracts of it`);
    }
  }
  return {
    chains,
    bridges,
    pollIntervalMs: integer(
      opt.pollIntervalMs ?? INDEXER_DEFAULTS.pollIntervalMs,
      "indexer.pollIntervalMs",
      10,
      fail,
    ),
    maxBlockRange: integer(
      opt.maxBlockRange ?? INDEXER_DEFAULTS.maxBlockRange,
      "indexer.maxBlockRange",
      1,
      fail,
    ),
    rpcTimeoutMs: integer(
      opt.rpcTimeoutMs ?? INDEXER_DEFAULTS.rpcTimeoutMs,
      "indexer.rpcTimeoutMs",
      100,
      fail,
    ),
  };
}

/**
 * `contracts`: the other protocols' contracts (src/protocols/), each `{ "protocol", "chainId",
 * "address", "kind", "bridgeChainId", "token"?, "auxiliary"? }` (RegistryBridge; `auxiliary`:
 * read for its logs only, never a transfer's endpoint, as LayerZero's EndpointV2). Within one protocol an id
 * names one chain; the devnet manifest lists its LayerZero contracts and Across SpokePools here.
 */
function parseContracts(
  raw: unknown,
  chains: readonly IndexerChainConfig[],
  fail: (m: string) => never,
): RegistryBridge[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail("`contracts` must be an array");
  const out: RegistryBridge[] = [];
  const chainOfId = new Map<string, number>();
  (raw as unknown[]).forEach((entry, i) => {
    const at = `contracts[${i}]`;
    if (!isObject(entry)) fail(`${at} must be an object`);
    const c = entry as Record<string, unknown>;
    if (typeof c.protocol !== "string" || c.protocol === "")
      fail(`${at}.protocol must name a protocol`);
    const chainId = integer(c.chainId, `${at}.chainId`, 1, fail);
    if (!chains.some((x) => x.chainId === chainId))
      fail(`${at}.chainId ${chainId} is not one of \`chains\``);
    const optional = ["token", "swapSender", "swapComposer"].filter((f) => c[f] !== undefined);
    for (const field of ["address", ...optional]) {
      const value = c[field];
      if (typeof value !== "string" || !isAddress(value, { strict: false }))
        fail(`${at}.${field} must be a 0x address`);
    }
    const kind = c.kind as BridgeKind;
    if (!BRIDGE_KINDS.includes(kind)) fail(`${at}.kind must be 0, 1 or 2`);
    if (!/^[0-9]+$/.test(String(c.bridgeChainId)))
      fail(`${at}.bridgeChainId must be a decimal integer (the chain in its protocol's scheme)`);
    const bridgeChainId = BigInt(String(c.bridgeChainId)).toString();
    if (c.auxiliary !== undefined && typeof c.auxiliary !== "boolean")
      fail(`${at}.auxiliary must be true or false`);
    const protocol = c.protocol as string;
    const key = `${protocol}:${bridgeChainId}`;
    const other = chainOfId.get(key);
    if (other !== undefined && other !== chainId)
      fail(`${at}: ${protocol} uses id ${bridgeChainId} for chains ${other} and ${chainId}`);
    chainOfId.set(key, chainId);
    const address = getAddress(c.address as string);
    if (out.some((b) => b.chainId === chainId && b.address === address))
      fail(`${at}.address ${address} is listed twice on chain ${chainId}`);
    out.push({
      protocol,
      kind,
      chainId,
      address,
      bridgeChainId,
      ...(c.token === undefined ? {} : { token: getAddress(c.token as string) }),
      ...(c.auxiliary === true ? { auxiliary: true } : {}),
      // The router's swap periphery of an OFT: not indexed, checked by check-config.
      ...(c.swapSender === undefined ? {} : { swapSender: getAddress(c.swapSender as string) }),
      ...(c.swapComposer === undefined
        ? {}
        : { swapComposer: getAddress(c.swapComposer as string) }),
    });
  });
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function integer(value: unknown, name: string, min: number, fail: (m: string) => never): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    return fail(`${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * A chain's `protocolBridges` (an earlier format for other protocols' contracts) is refused, not
 * ignored: a config that relied on it would index nothing of those contracts.
 */
function movedToContracts(at: string, chainId: number): string {
  return (
    `${at} is no longer read: list these contracts in the top-level \`contracts\` array,` +
    ` each with "chainId": ${chainId} (docs/indexer.md#configuration-file)`
  );
}
