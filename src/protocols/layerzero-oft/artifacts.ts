/**
 * The LayerZero contracts the devnet deploys: EndpointV2 and SimpleMessageLib exactly as
 * @layerzerolabs/lz-evm-protocol-v2 ships them (read from node_modules, never recompiled), and our
 * concrete DevnetOFT / DevnetOFTAdapter and periphery (OftSwapSender, OftSwapComposer) compiled
 * from the OFT sources (compile.ts). Loading checks
 * every pin (pins.ts) first and refuses to go on when one moved.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Abi, Hex } from "viem";
import { collectSources, loadLayerZeroCompiled, packageDir } from "./compile.js";
import { LAYERZERO_PINS, type PinnedArtifactName, verifyLayerZeroPins } from "./pins.js";

export interface LayerZeroArtifact {
  abi: Abi;
  bytecode: Hex;
  /** Runtime code as built, with zeros where immutables go. */
  deployedBytecode: Hex;
  /** Known immutable byte ranges (our compiled wrappers); absent for the package's artifacts. */
  immutableRanges?: Array<{ start: number; length: number }>;
}

export interface LayerZeroArtifacts {
  EndpointV2: LayerZeroArtifact;
  SimpleMessageLib: LayerZeroArtifact;
  DevnetOFT: LayerZeroArtifact;
  DevnetOFTAdapter: LayerZeroArtifact;
  /** Our periphery (contracts/layerzero/OftSwapSender.sol, OftSwapComposer.sol). */
  OftSwapSender: LayerZeroArtifact;
  OftSwapComposer: LayerZeroArtifact;
}

export class LayerZeroPinError extends Error {
  override name = "LayerZeroPinError";
}

/** One artifact as shipped in @layerzerolabs/lz-evm-protocol-v2. */
export function readPackageArtifact(name: PinnedArtifactName, root?: string): LayerZeroArtifact {
  const { package: pkg, contracts } = LAYERZERO_PINS.artifacts;
  const file = join(packageDir(pkg, root), contracts[name].path);
  const json = JSON.parse(readFileSync(file, "utf8")) as {
    abi: Abi;
    bytecode: Hex;
    deployedBytecode: Hex;
    linkReferences?: Record<string, unknown>;
  };
  if (Object.keys(json.linkReferences ?? {}).length > 0) {
    throw new LayerZeroPinError(
      `${pkg} ${name} needs linked libraries, which the devnet does not do`,
    );
  }
  return { abi: json.abi, bytecode: json.bytecode, deployedBytecode: json.deployedBytecode };
}

export function loadLayerZeroArtifacts(
  options: { root?: string; progress?: (message: string) => void } = {},
): LayerZeroArtifacts {
  const problems = verifyLayerZeroPins(collectSources(options.root), options.root);
  if (problems.length > 0) {
    throw new LayerZeroPinError(
      `the installed LayerZero packages differ from src/protocols/layerzero-oft/pins.ts (update the pins deliberately after reviewing the upgrade):\n${problems.join("\n")}`,
    );
  }
  const compiled = loadLayerZeroCompiled(options);
  const wrapper = (
    name: "DevnetOFT" | "DevnetOFTAdapter" | "OftSwapSender" | "OftSwapComposer",
  ): LayerZeroArtifact => {
    const contract = compiled.contracts[name];
    if (contract === undefined) throw new Error(`contracts/layerzero has no contract ${name}`);
    return {
      abi: contract.abi,
      bytecode: contract.bytecode,
      deployedBytecode: contract.deployedBytecode,
      immutableRanges: contract.immutableRanges,
    };
  };
  return {
    EndpointV2: readPackageArtifact("EndpointV2", options.root),
    SimpleMessageLib: readPackageArtifact("SimpleMessageLib", options.root),
    DevnetOFT: wrapper("DevnetOFT"),
    DevnetOFTAdapter: wrapper("DevnetOFTAdapter"),
    OftSwapSender: wrapper("OftSwapSender"),
    OftSwapComposer: wrapper("OftSwapComposer"),
  };
}

const bytesOf = (hex: Hex): Buffer => Buffer.from(hex.slice(2), "hex");

/**
 * Whether `deployed` (eth_getCode) is `artifact`'s runtime code with its immutables filled in.
 * With `immutableRanges` (solc's immutableReferences) those ranges are taken from `deployed`
 * and everything else must be equal byte for byte. Without them (hardhat artifacts do not carry
 * them) each 32-byte word that is zero in the artifact may hold one of `immutableValues` (the
 * constructor-set values, as 32-byte words) in the deployed code, and nothing else may differ.
 */
export function runtimeCodeMatches(
  deployed: Hex,
  artifact: Pick<LayerZeroArtifact, "deployedBytecode" | "immutableRanges">,
  immutableValues: readonly Hex[] = [],
): boolean {
  const actual = bytesOf(deployed);
  const expected = bytesOf(artifact.deployedBytecode);
  if (actual.length !== expected.length || actual.length === 0) return false;
  const patched = Buffer.from(expected);
  if (artifact.immutableRanges !== undefined) {
    for (const { start, length } of artifact.immutableRanges) {
      if (!expected.subarray(start, start + length).every((b) => b === 0)) return false;
      actual.copy(patched, start, start, start + length);
    }
    return patched.equals(actual);
  }
  const words = immutableValues.map((value) => bytesOf(value));
  if (words.some((word) => word.length !== 32))
    throw new Error("immutable values are 32-byte words");
  for (let i = 0; i < actual.length; i++) {
    if (actual[i] === expected[i]) continue;
    // The first differing byte may sit inside a word whose leading bytes are zero in both.
    let matched = false;
    const last = Math.min(i, actual.length - 32);
    for (let start = Math.max(0, i - 31); start <= last && !matched; start++) {
      const window = actual.subarray(start, start + 32);
      if (!expected.subarray(start, start + 32).every((b) => b === 0)) continue;
      if (words.some((word) => word.equals(window))) {
        window.copy(patched, start);
        i = start + 31;
        matched = true;
      }
    }
    if (!matched) return false;
  }
  return patched.equals(actual);
}
