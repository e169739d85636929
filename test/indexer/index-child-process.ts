/** The `bridge-oracle index` child processes of the crash, standby and stop tests (index-child.ts). */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tsEntryArgs } from "../../bench/ts-entry.js";
import type { DevnetManifest } from "../../src/devnet/manifest.js";

/** `bridge-oracle index ARGS` in a child process, stdout and stderr piped. */
export function spawnIndexChild(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  return spawn(
    process.execPath,
    [...tsEntryArgs(join(import.meta.dirname, "index-child.ts")), ...args],
    { stdio: ["ignore", "pipe", "pipe"], env },
  );
}

export function startChild(configPath: string, databaseUrl: string): ChildProcess {
  return spawnIndexChild(["--config", configPath, "--database", databaseUrl]);
}

/** A child and what it has written so far. */
export interface WatchedChild {
  child: ChildProcess;
  /** Its stdout (the JSON log). */
  stdout: string;
  stderr: string;
  /** Both, in the order they arrived. */
  output: string;
}

/** `startChild`, collecting what the child writes. */
export function startWatchedChild(configPath: string, databaseUrl: string): WatchedChild {
  const child = startChild(configPath, databaseUrl);
  const watched: WatchedChild = { child, stdout: "", stderr: "", output: "" };
  child.stdout?.on("data", (d) => {
    watched.stdout += String(d);
    watched.output += String(d);
  });
  child.stderr?.on("data", (d) => {
    watched.stderr += String(d);
    watched.output += String(d);
  });
  return watched;
}

/**
 * A temporary directory with the children's indexer config: the manifest's chains, polled every
 * 20 ms in spans of 2 blocks (a batch per couple of blocks, so a kill lands inside one nearly
 * always).
 */
export async function writeChildConfig(
  manifest: DevnetManifest,
  prefix: string,
): Promise<{ dir: string; configPath: string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const configPath = join(dir, "indexer.json");
  const config = {
    chains: manifest.chains.map((c) => ({ ...c, finalityDepth: 64 })),
    // LayerZero's endpoints and OFTs, as the manifest lists them.
    ...(manifest.contracts === undefined ? {} : { contracts: manifest.contracts }),
    indexer: { pollIntervalMs: 20, maxBlockRange: 2 },
  };
  await writeFile(configPath, JSON.stringify(config));
  return { dir, configPath };
}

export function exited(
  child: ChildProcess,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.once("exit", (code, signal) => resolve({ code, signal }));
  });
}

export function waitFor(
  condition: () => boolean,
  what: () => string,
  timeoutMs = 45_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (condition()) resolve();
      else if (Date.now() > deadline) reject(new Error(`timed out waiting: ${what()}`));
      else setTimeout(check, 20);
    };
    check();
  });
}
