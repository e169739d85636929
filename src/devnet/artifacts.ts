/**
 * The compiled devnet contracts. `loadArtifacts()` returns artifacts/contracts.json when its
 * source hash matches contracts/ as they are now, and recompiles otherwise, so tests and the
 * devnet never deploy outdated bytecode.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
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
import { withCompileLock } from "./compile-lock.js";

export type { ArtifactsFile, ContractArtifact };

export interface Artifacts {
  sourceHash: string;
  contracts: Record<string, ContractArtifact>;
  /** Abi and bytecode of `name`; throws when the contract does not exist. */
  get(name: string): { abi: Abi; bytecode: Hex };
}

export interface LoadArtifactsParameters {
  root?: string;
  /** Told when a compile starts or waits for another process's (a person may be waiting). */
  progress?: (message: string) => void;
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

/**
 * Compiles under a lock (compile-lock.ts) so that concurrent processes (parallel test files)
 * compile once: the others wait for the lock holder and read its fresh file.
 */
function compileOnce(
  root: string,
  expectedHash: string,
  progress: (message: string) => void,
): ArtifactsFile {
  const lock = join(dirname(artifactsPath(root)), ".compile.lock");
  mkdirSync(dirname(lock), { recursive: true });
  return withCompileLock(lock, {
    ready: () => readFresh(artifactsPath(root), expectedHash),
    work: () => {
      progress(COMPILING_MESSAGE);
      return compileContracts({ root });
    },
    onWait: (owner) =>
      progress(
        `waiting for ${owner === undefined ? "another process" : `pid ${owner.pid}`}, which is compiling the contracts`,
      ),
  });
}

/** Said before a compile, which takes long enough (and blocks Ctrl-C) to look like a hang. */
export const COMPILING_MESSAGE =
  "compiling the contracts (first run or changed contracts; about 10 s)";

export function loadArtifacts(parameters: LoadArtifactsParameters = {}): Artifacts {
  const root = parameters.root ?? projectRoot();
  const expectedHash = hashSources(readSources(root), solcPackageVersion());
  const progress = parameters.progress ?? (() => {});
  const file =
    readFresh(artifactsPath(root), expectedHash) ?? compileOnce(root, expectedHash, progress);
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
