/**
 * Writes and reads `<DEVNET_DIR>/manifest.json`. The write is atomic (a temporary file in the
 * same directory, flushed, then renamed over the old one), so a reader polling the file never
 * sees half a manifest.
 */
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { DevnetManifest } from "./manifest.js";

export const MANIFEST_FILE = "manifest.json";

/** The devnet directory: env DEVNET_DIR, default `.devnet` (relative to the working directory). */
export function devnetDir(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.DEVNET_DIR?.trim();
  return resolve(dir !== undefined && dir !== "" ? dir : ".devnet");
}

/** Writes the manifest into `dir` and returns the file's absolute path. */
export async function writeManifest(manifest: DevnetManifest, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const target = join(resolve(dir), MANIFEST_FILE);
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  const file = await open(temporary, "w", 0o600); // holds private keys (anvil's well-known ones)
  try {
    await file.writeFile(`${JSON.stringify(manifest, null, 2)}\n`, "utf8");
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  return target;
}

/** Reads a manifest written by writeManifest (a path to the file or to its directory). */
export async function readManifest(path: string): Promise<DevnetManifest> {
  const file = path.endsWith(".json") ? path : join(path, MANIFEST_FILE);
  const manifest = JSON.parse(await readFile(file, "utf8")) as DevnetManifest;
  if (manifest.version !== 1 || !Array.isArray(manifest.chains)) {
    throw new Error(`${file} is not a devnet manifest (version 1)`);
  }
  return manifest;
}
