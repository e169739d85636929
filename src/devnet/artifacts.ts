/**
 * The compiled devnet contracts. `loadArtifacts()` returns artifacts/contracts.json when its
 * source hash matches contracts/ as they are now, and recompiles otherwise, so tests and the
 * devnet never deploy outdated bytecode.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Abi, Hex } from "viem";
import {
  type ArtifactsFile,
  artifactsPath,
  type ContractArtifact,
  compileContracts,
  hashSources,
  projectRoot,
  readSources,
  solcPackageVersion,
} from "./compile.js";

export type { ArtifactsFile, ContractArtifact };

export interface Artifacts {
  sourceHash: string;
  contracts: Record<string, ContractArtifact>;
  /** Abi and bytecode of `name`; throws when the contract does not exist. */
  get(name: string): { abi: Abi; bytecode: Hex };
}

export interface LoadArtifactsParameters {
  root?: string;
  /** Recompile even when the file is fresh. */
  force?: boolean;
}

function readFresh(path: string, expectedHash: string): ArtifactsFile | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const file = JSON.parse(readFileSync(path, "utf8")) as ArtifactsFile;
    return file.sourceHash === expectedHash ? file : undefined;
  } catch {
    return undefined; // unreadable or half-written: compile again
  }
}

const LOCK_STALE_MS = 120_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Compiles under a lock directory so that concurrent processes (parallel test files) compile
 * once: the others wait for the lock holder and read its fresh file.
 */
function compileOnce(root: string, expectedHash: string): ArtifactsFile {
  const lock = join(dirname(artifactsPath(root)), ".compile.lock");
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      else sleepSync(200);
      const fresh = readFresh(artifactsPath(root), expectedHash);
      if (fresh !== undefined) return fresh;
    }
  }
  try {
    return readFresh(artifactsPath(root), expectedHash) ?? compileContracts({ root });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export function loadArtifacts(parameters: LoadArtifactsParameters = {}): Artifacts {
  const root = parameters.root ?? projectRoot();
  const expectedHash = hashSources(readSources(root), solcPackageVersion());
  const file = parameters.force
    ? compileContracts({ root })
    : (readFresh(artifactsPath(root), expectedHash) ?? compileOnce(root, expectedHash));
  return {
    sourceHash: file.sourceHash,
    contracts: file.contracts,
    get(name) {
      const artifact = file.contracts[name];
      if (artifact === undefined) throw new Error(`no compiled contract named ${name}`);
      return { abi: artifact.abi, bytecode: artifact.bytecode };
    },
  };
}
