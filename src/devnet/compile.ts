/**
 * Compiles contracts/**\/*.sol with solc-js (the `solc` npm package: WebAssembly, no binary
 * download) through the standard JSON interface and writes artifacts/contracts.json: abi and
 * bytecode per contract plus the hash of the inputs, so a stale file is detected (artifacts.ts).
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";

export interface ContractArtifact {
  abi: Abi;
  /** Creation bytecode; "0x" for interfaces and abstract contracts. */
  bytecode: Hex;
  /** Source unit that defines it, e.g. contracts/bridges/PoolBridge.sol. */
  source: string;
}

export interface ArtifactsFile {
  sourceHash: string;
  solcVersion: string;
  compiledAt: string;
  /** solc warnings as file:line:column lines (empty when clean). */
  warnings: string[];
  contracts: Record<string, ContractArtifact>;
}

export interface CompileParameters {
  /** Project root (holds contracts/ and artifacts/); default: this package's root. */
  root?: string;
  /** Write artifacts/contracts.json (default true). */
  write?: boolean;
}

/** Raised when solc reports errors; `message` lists each as file:line:column. */
export class CompileError extends Error {
  override name = "CompileError";
}

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  // anvil's default hardfork supports cancun; paris would drop PUSH0/MCOPY for older nodes.
  evmVersion: "cancun",
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
} as const;

export function projectRoot(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..");
}

export function artifactsPath(root = projectRoot()): string {
  return join(root, "artifacts", "contracts.json");
}

function listSolidityFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...listSolidityFiles(path));
    else if (entry.name.endsWith(".sol")) files.push(path);
  }
  return files.sort();
}

/** Source units keyed by their path relative to the root ("contracts/..."), POSIX separators. */
export function readSources(root = projectRoot()): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const file of listSolidityFiles(join(root, "contracts"))) {
    const name = relative(root, file).split(sep).join("/");
    // Imports npm packages: compiled by src/protocols/layerzero-oft/compile.ts.
    if (name.startsWith("contracts/layerzero/")) continue;
    sources[name] = readFileSync(file, "utf8");
  }
  return sources;
}

interface SolcModule {
  version(): string;
  compile(input: string): string;
}

function loadSolc(): SolcModule {
  const require = createRequire(import.meta.url);
  return require("solc") as SolcModule;
}

/** Hash of everything that determines the output: sources, settings and compiler version. */
export function hashSources(sources: Record<string, string>, solcVersion: string): string {
  const hash = createHash("sha256");
  hash.update(solcVersion);
  hash.update(JSON.stringify(SETTINGS));
  for (const name of Object.keys(sources).sort()) {
    hash.update(`\0${name}\0${sources[name]}`);
  }
  return hash.digest("hex");
}

/** The solc-js package version (cheap: no WebAssembly load), part of the source hash. */
export function solcPackageVersion(): string {
  const require = createRequire(import.meta.url);
  return (require("solc/package.json") as { version: string }).version;
}

interface SolcError {
  severity: "error" | "warning" | "info";
  formattedMessage?: string;
  message: string;
  sourceLocation?: { file: string; start: number };
}

interface SolcOutput {
  errors?: SolcError[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

function lineOf(text: string | undefined, offset: number): { line: number; column: number } {
  const before = (text ?? "").slice(0, Math.max(0, offset));
  const lines = before.split("\n");
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

function describeError(error: SolcError, sources: Record<string, string>): string {
  const location = error.sourceLocation;
  if (location === undefined) return error.message;
  const { line, column } = lineOf(sources[location.file], location.start);
  return `${location.file}:${line}:${column}: ${error.severity}: ${error.message}`;
}

export function compileContracts(parameters: CompileParameters = {}): ArtifactsFile {
  const root = parameters.root ?? projectRoot();
  const sources = readSources(root);
  const solc = loadSolc();
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(
      Object.entries(sources).map(([name, content]) => [name, { content }]),
    ),
    settings: SETTINGS,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    throw new CompileError(
      `solc reported ${errors.length} error(s):\n${errors.map((e) => describeError(e, sources)).join("\n")}`,
    );
  }
  const contracts: Record<string, ContractArtifact> = {};
  for (const [source, byName] of Object.entries(output.contracts ?? {})) {
    for (const [name, contract] of Object.entries(byName)) {
      if (contracts[name] !== undefined) {
        throw new CompileError(`contract name ${name} is defined twice (${source})`);
      }
      contracts[name] = {
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        source,
      };
    }
  }
  const artifacts: ArtifactsFile = {
    sourceHash: hashSources(sources, solcPackageVersion()),
    solcVersion: solc.version(),
    compiledAt: new Date().toISOString(),
    warnings: (output.errors ?? [])
      .filter((e) => e.severity === "warning")
      .map((e) => describeError(e, sources)),
    contracts,
  };
  if (parameters.write !== false) {
    const path = artifactsPath(root);
    mkdirSync(dirname(path), { recursive: true });
    // Write then rename: concurrent test processes never read a half-written file.
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(artifacts)}\n`);
    renameSync(temporary, path);
  }
  return artifacts;
}
