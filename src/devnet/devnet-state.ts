/**
 * A persistent devnet's files under its state directory (default `$DEVNET_DIR/state`):
 * - `<chain>.json`: anvil's own state dump of each chain (`anvil --state`): accounts, blocks,
 *   receipts; loading it brings the chain back with the same block hashes and logs.
 * - `devnet-state.json`: which manifest these dumps belong to (its `createdAt`) and the hash of
 *   each chain's deploy block, so a manifest rewritten by another devnet run, or a dump that
 *   belongs to a different deployment, is never mixed with them.
 *
 * `planRestore` decides whether the saved devnet can be resumed; anything missing or unreadable
 * means a fresh devnet, with the reason in words for the operator.
 */
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "../errors.js";
import type { DevnetManifest } from "./manifest.js";
import { readManifest } from "./write-manifest.js";

export const STATE_META_FILE = "devnet-state.json";

export interface DevnetStateMeta {
  version: 1;
  manifestCreatedAt: string;
  chains: { name: string; chainId: number; deployBlock: number; deployBlockHash: string }[];
}

export type RestorePlan =
  | { restore: true; manifest: DevnetManifest; meta: DevnetStateMeta }
  | { restore: false; reason: string };

export function chainStatePath(stateDir: string, chainName: string): string {
  return join(stateDir, `${chainName}.json`);
}

/** Whether the manifest in `manifestDir` and the dumps in `stateDir` form a resumable devnet. */
export async function planRestore(
  manifestDir: string,
  stateDir: string,
  chainNames: readonly string[],
): Promise<RestorePlan> {
  let manifest: DevnetManifest;
  try {
    manifest = await readManifest(manifestDir);
  } catch (error) {
    return isMissing(error)
      ? { restore: false, reason: "no saved devnet yet" }
      : { restore: false, reason: `the saved manifest is unreadable (${errorMessage(error)})` };
  }
  let meta: DevnetStateMeta;
  try {
    meta = JSON.parse(await readFile(join(stateDir, STATE_META_FILE), "utf8")) as DevnetStateMeta;
  } catch (error) {
    return {
      restore: false,
      reason: isMissing(error)
        ? "no saved chain state (the last devnet did not run in persistent mode)"
        : `${STATE_META_FILE} is unreadable (${errorMessage(error)})`,
    };
  }
  if (meta.version !== 1 || meta.manifestCreatedAt !== manifest.createdAt) {
    return { restore: false, reason: "manifest.json was replaced by another devnet run" };
  }
  const saved = manifest.chains.map((chain) => chain.name);
  if (saved.join(",") !== chainNames.join(",") || meta.chains.length !== saved.length) {
    return {
      restore: false,
      reason: `the saved devnet has chains ${saved.join(", ")}, asked for ${chainNames.join(", ")}`,
    };
  }
  for (const name of chainNames) {
    const path = chainStatePath(stateDir, name);
    try {
      const dump = JSON.parse(await readFile(path, "utf8")) as { blocks?: unknown };
      if (!Array.isArray(dump.blocks)) throw new Error("no block list in it");
    } catch (error) {
      return {
        restore: false,
        reason: isMissing(error)
          ? `the state of chain ${name} was never saved (${path})`
          : `the state of chain ${name} is unreadable (${path}: ${errorMessage(error)})`,
      };
    }
  }
  return { restore: true, manifest, meta };
}

export async function writeStateMeta(stateDir: string, meta: DevnetStateMeta): Promise<void> {
  await mkdir(stateDir, { recursive: true });
  const target = join(stateDir, STATE_META_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(meta, null, 2)}\n`, "utf8");
  await rename(temporary, target);
}

/**
 * Moves the old dumps aside (`*.discarded`, replacing older ones) before a fresh devnet starts
 * with the same paths, so anvil neither loads them nor loses them for a post-mortem.
 */
export async function discardState(stateDir: string, chainNames: readonly string[]): Promise<void> {
  await mkdir(stateDir, { recursive: true });
  await rm(join(stateDir, STATE_META_FILE), { force: true });
  for (const name of chainNames) {
    const path = chainStatePath(stateDir, name);
    if (await exists(path)) await rename(path, `${path}.discarded`);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}
