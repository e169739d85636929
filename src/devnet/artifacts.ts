/**
 * The compiled devnet contracts. `loadArtifacts()` returns artifacts/contracts.json when its
 * source hash matches contracts/ as they are now, and recompiles otherwise, so tests and the
 * devnet never deploy outdated bytecode.
 */
import { existsSync, readFileSync } from "node:fs";
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

export function loadArtifacts(parameters: LoadArtifactsParameters = {}): Artifacts {
  const root = parameters.root ?? projectRoot();
  const expectedHash = hashSources(readSources(root), solcPackageVersion());
  const file =
    (parameters.force ? undefined : readFresh(artifactsPath(root), expectedHash)) ??
    compileContracts({ root });
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
