/**
 * Compiles our concrete OFT wrappers (contracts/layerzero/*.sol, MIT, ours) with solc-js against
 * LayerZero's and OpenZeppelin's sources as installed in node_modules (imports such as
 * "@layerzerolabs/oft-evm/contracts/OFT.sol" are read from the npm packages at build time; none of
 * them is copied into the repository). The result is cached in artifacts/layerzero-oft.json under
 * a hash of every source unit that went in, so a package upgrade or an edited wrapper recompiles.
 *
 * contracts/layerzero/ is left out of the devnet's own compile (src/devnet/compile.ts), which
 * knows no node_modules imports.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, posix } from "node:path";
import { fileURLToPath } from "node:url";
import type { Abi, Hex } from "viem";

export interface CompiledContract {
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
  /** Byte ranges of immutables in deployedBytecode (solc's immutableReferences, flattened). */
  immutableRanges: Array<{ start: number; length: number }>;
  source: string;
}

export interface LayerZeroCompileOutput {
  sourceHash: string;
  solcVersion: string;
  /** Source unit name -> sha256 of its text, for the pin check (pins.ts). */
  sourceDigests: Record<string, string>;
  contracts: Record<string, CompiledContract>;
}

/** The folder of our wrappers, relative to the project root. */
export const WRAPPER_DIR = "contracts/layerzero";

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: "cancun",
  outputSelection: {
    "*": {
      "*": [
        "abi",
        "evm.bytecode.object",
        "evm.deployedBytecode.object",
        "evm.deployedBytecode.immutableReferences",
      ],
    },
  },
} as const;

/** Project root: three folders up from src/protocols/layerzero-oft/ (or dist/...). */
export function layerZeroProjectRoot(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
}

export function layerZeroArtifactsPath(root = layerZeroProjectRoot()): string {
  return join(root, "artifacts", "layerzero-oft.json");
}

/** Directory of an installed npm package ("@scope/name"), resolved from `root`. */
export function packageDir(name: string, root = layerZeroProjectRoot()): string {
  const require = createRequire(join(root, "package.json"));
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    const fallback = join(root, "node_modules", name);
    if (existsSync(join(fallback, "package.json"))) return fallback;
    throw new Error(`npm package ${name} is not installed (run npm install)`);
  }
}

/** "@scope/name/path" or "name/path" -> [package name, path inside it]. */
export function splitImport(unit: string): [string, string] {
  const parts = unit.split("/");
  const scoped = unit.startsWith("@");
  const name = parts.slice(0, scoped ? 2 : 1).join("/");
  return [name, parts.slice(scoped ? 2 : 1).join("/")];
}

const IMPORT = /import\s+(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/g;

/**
 * Every source unit our wrappers need, keyed by its solc unit name: our files as
 * "contracts/layerzero/X.sol", package files as "@scope/pkg/contracts/....sol".
 */
export function collectSources(root = layerZeroProjectRoot()): Record<string, string> {
  const sources: Record<string, string> = {};
  const dir = join(root, WRAPPER_DIR);
  const pending = readdirSync(dir)
    .filter((name) => name.endsWith(".sol"))
    .sort()
    .map((name) => `${WRAPPER_DIR}/${name}`);
  while (pending.length > 0) {
    const unit = pending.pop() as string;
    if (sources[unit] !== undefined) continue;
    let text: string;
    if (unit.startsWith("contracts/")) {
      // Ours: the wrappers and what they import from our other contracts (the SwapAdapter's interface).
      text = readFileSync(join(root, unit), "utf8");
    } else {
      const [name, path] = splitImport(unit);
      text = readFileSync(join(packageDir(name, root), path), "utf8");
    }
    sources[unit] = text;
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] as string;
      pending.push(
        spec.startsWith(".") ? posix.normalize(posix.join(posix.dirname(unit), spec)) : spec,
      );
    }
  }
  return sources;
}

interface SolcModule {
  version(): string;
  compile(input: string): string;
}

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

function solcPackageVersion(): string {
  const require = createRequire(import.meta.url);
  return (require("solc/package.json") as { version: string }).version;
}

export function hashLayerZeroSources(sources: Record<string, string>): string {
  const hash = createHash("sha256");
  hash.update(solcPackageVersion());
  hash.update(JSON.stringify(SETTINGS));
  for (const name of Object.keys(sources).sort()) hash.update(`\0${name}\0${sources[name]}`);
  return hash.digest("hex");
}

interface SolcContractOutput {
  abi: Abi;
  evm: {
    bytecode: { object: string };
    deployedBytecode: {
      object: string;
      immutableReferences?: Record<string, Array<{ start: number; length: number }>>;
    };
  };
}

export function compileLayerZeroContracts(root = layerZeroProjectRoot()): LayerZeroCompileOutput {
  const sources = collectSources(root);
  const require = createRequire(import.meta.url);
  const solc = require("solc") as SolcModule;
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(Object.entries(sources).map(([k, content]) => [k, { content }])),
    settings: SETTINGS,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: Array<{ severity: string; formattedMessage?: string; message: string }>;
    contracts?: Record<string, Record<string, SolcContractOutput>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    throw new Error(
      `solc reported ${errors.length} error(s) compiling ${WRAPPER_DIR}:\n${errors
        .map((e) => e.formattedMessage ?? e.message)
        .join("\n")}`,
    );
  }
  const contracts: Record<string, CompiledContract> = {};
  for (const [source, byName] of Object.entries(output.contracts ?? {})) {
    if (!source.startsWith(`${WRAPPER_DIR}/`)) continue; // only our concrete contracts
    for (const [name, contract] of Object.entries(byName)) {
      contracts[name] = {
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
        immutableRanges: Object.values(contract.evm.deployedBytecode.immutableReferences ?? {})
          .flat()
          .sort((a, b) => a.start - b.start),
        source,
      };
    }
  }
  return {
    sourceHash: hashLayerZeroSources(sources),
    solcVersion: solc.version(),
    sourceDigests: Object.fromEntries(
      Object.keys(sources)
        .sort()
        .map((name) => [name, sha256(sources[name] as string)]),
    ),
    contracts,
  };
}

/**
 * The compiled wrappers: the cached file when its source hash matches what node_modules and
 * contracts/layerzero/ hold now, else a fresh compile (written back, then renamed into place so
 * a concurrent reader never sees half a file).
 */
export function loadLayerZeroCompiled(
  options: { root?: string; progress?: (message: string) => void } = {},
): LayerZeroCompileOutput {
  const root = options.root ?? layerZeroProjectRoot();
  const path = layerZeroArtifactsPath(root);
  const expected = hashLayerZeroSources(collectSources(root));
  if (existsSync(path)) {
    try {
      const cached = JSON.parse(readFileSync(path, "utf8")) as LayerZeroCompileOutput;
      if (cached.sourceHash === expected) return cached;
    } catch {
      // unreadable or half-written: compile again
    }
  }
  options.progress?.("compiling the LayerZero OFT contracts (first run or changed sources)");
  const compiled = compileLayerZeroContracts(root);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(compiled)}\n`);
  renameSync(temporary, path);
  return compiled;
}
