/**
 * The devnet manifest assembled from the base's part and every protocol's (ManifestPart,
 * src/devnet/protocols/protocol-devnet.ts). The manifest format requires the reference bridge's
 * fields (each chain's bridges, ids and endpoint; the links; the bridge ABIs), so a devnet
 * without the reference protocol is refused here rather than written incomplete.
 */
import type { DevnetManifest, ManifestChain } from "./manifest.js";
import type { ManifestPart } from "./protocols/protocol-devnet.js";

/** The chain fields a protocol part must bring (the reference bridge's). */
const PROTOCOL_CHAIN_FIELDS = ["bridgeChainIds", "bridges", "messagingEndpoint"] as const;
type ProtocolChainField = (typeof PROTOCOL_CHAIN_FIELDS)[number];

export type BaseManifestChain = Omit<ManifestChain, ProtocolChainField>;

export type BaseManifest = Omit<DevnetManifest, "chains" | "links" | "abis"> & {
  chains: BaseManifestChain[];
  abis: Partial<DevnetManifest["abis"]>;
};

/** `base` with every part merged in (see ManifestPart for the rules). */
export function mergeManifestParts(
  base: BaseManifest,
  parts: readonly ManifestPart[],
): DevnetManifest {
  const chains: Partial<ManifestChain>[] = base.chains.map((chain) => ({ ...chain }));
  let top: Record<string, unknown> = { ...base, abis: { ...base.abis } };
  delete top.chains;
  for (const part of parts) {
    part.chains?.forEach((fields, index) => {
      const chain = chains[index];
      if (chain === undefined)
        throw new Error(`a manifest part names chain ${index}, not deployed`);
      mergeInto(chain as Record<string, unknown>, fields as Record<string, unknown>, "chain");
    });
    if (part.top !== undefined) top = mergeTop(top, part.top as Record<string, unknown>);
  }
  for (const [index, chain] of chains.entries()) {
    for (const field of PROTOCOL_CHAIN_FIELDS) {
      if (chain[field] === undefined) {
        throw new Error(`chain ${index} lacks ${field}: the reference protocol was not deployed`);
      }
    }
  }
  if (top.links === undefined) throw new Error("the manifest lacks links (reference protocol)");
  return { ...(top as Omit<DevnetManifest, "chains">), chains: chains as ManifestChain[] };
}

/** The lists several protocols add to: appended. */
const APPENDED = new Set(["contracts"]);

/** APPENDED lists appended; anything else set once. */
function mergeInto(target: Record<string, unknown>, fields: Record<string, unknown>, at: string) {
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const existing = target[key];
    if (existing === undefined) target[key] = value;
    else if (APPENDED.has(key) && Array.isArray(existing) && Array.isArray(value)) {
      target[key] = [...existing, ...value];
    } else throw new Error(`two devnet parts set the manifest's ${at} field ${key}`);
  }
}

function mergeTop(top: Record<string, unknown>, fields: Record<string, unknown>) {
  const { abis, ...rest } = fields;
  const merged = { ...top, abis: { ...(top.abis as object) } };
  if (abis !== undefined) mergeInto(merged.abis, abis as Record<string, unknown>, "abi");
  mergeInto(merged, rest, "top-level");
  return merged;
}
