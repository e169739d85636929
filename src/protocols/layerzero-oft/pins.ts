/**
 * What the devnet's LayerZero contracts are made of, pinned so that an upgrade is a deliberate
 * edit of this file. Two kinds of pins:
 *
 * - artifacts LayerZero ships (EndpointV2, SimpleMessageLib from @layerzerolabs/lz-evm-protocol-v2,
 *   LZBL-1.2): deployed exactly as published, never recompiled; pinned by the sha256 of the
 *   artifact JSON file in the package;
 * - sources we compile into our concrete wrappers (contracts/layerzero/): pinned per package by
 *   the sha256 of the source units solc reads from it (packageSourcesDigest).
 *
 * Nothing of these packages is committed: they are npm dependencies read from node_modules.
 * After an upgrade, `verifyLayerZeroPins` names each package whose version or hash moved.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageDir, splitImport } from "./compile.js";

export interface ArtifactPin {
  /** Path of the hardhat artifact inside the package. */
  path: string;
  sha256: string;
}

export const PROTOCOL_PACKAGE = "@layerzerolabs/lz-evm-protocol-v2";

export const LAYERZERO_PINS = {
  artifacts: {
    package: PROTOCOL_PACKAGE,
    version: "3.0.168",
    contracts: {
      EndpointV2: {
        path: "artifacts/contracts/EndpointV2.sol/EndpointV2.json",
        sha256: "4bc372c8984fb5f595149f5003e9d2aa3eab1aa3fa46d1fdfc7a4be544714a3b",
      },
      SimpleMessageLib: {
        path: "artifacts/contracts/messagelib/SimpleMessageLib.sol/SimpleMessageLib.json",
        sha256: "2ca26525656c2bc5bc1f956457886b77a0046e560403eea7f2e1f5dc545a6695",
      },
    } satisfies Record<string, ArtifactPin>,
  },
  /** Package -> version and digest of the source units our wrappers compile from it. */
  sources: {
    "@layerzerolabs/oft-evm": {
      version: "4.0.1",
      sha256: "710f23a7cc11789437f384186e5a77705a365a6f574c70aade2704f9a2f4fc89",
    },
    "@layerzerolabs/oapp-evm": {
      version: "0.4.1",
      sha256: "d2f3a5cba35f3e7fc5c23d8ac864668145e665f8200b192c949301d237747135",
    },
    "@layerzerolabs/lz-evm-protocol-v2": {
      version: "3.0.168",
      sha256: "8a7fcb4875bd620b46803da09e58767ec8a93ebfc49a609e9a6ce7b5b7409fda",
    },
    "@openzeppelin/contracts": {
      version: "5.7.0",
      sha256: "dc4aaea7cf736d37d21fd92cd1a779409b1f0bfc56542fe37cf002c48e7aa293",
    },
  } as Record<string, { version: string; sha256: string }>,
} as const;

export type PinnedArtifactName = keyof typeof LAYERZERO_PINS.artifacts.contracts;

const sha256 = (text: string | Buffer): string => createHash("sha256").update(text).digest("hex");

/** sha256 over "unit\0sha256(text)" lines of one package's units, in unit-name order. */
export function packageSourcesDigest(sources: Record<string, string>, pkg: string): string {
  const lines = Object.keys(sources)
    .filter((unit) => !unit.startsWith("contracts/") && splitImport(unit)[0] === pkg)
    .sort()
    .map((unit) => `${unit}\0${sha256(sources[unit] as string)}`);
  return sha256(lines.join("\n"));
}

export function installedVersion(pkg: string, root?: string): string {
  const file = join(packageDir(pkg, root), "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/**
 * Every difference between the pins and what is installed (empty: all match). `sources` are the
 * units solc compiles (collectSources()).
 */
export function verifyLayerZeroPins(sources: Record<string, string>, root?: string): string[] {
  const problems: string[] = [];
  const { artifacts } = LAYERZERO_PINS;
  const version = installedVersion(artifacts.package, root);
  if (version !== artifacts.version) {
    problems.push(`${artifacts.package} is ${version}, pinned ${artifacts.version}`);
  }
  for (const [name, pin] of Object.entries(artifacts.contracts)) {
    const text = readFileSync(join(packageDir(artifacts.package, root), pin.path));
    const actual = sha256(text);
    if (actual !== pin.sha256) {
      problems.push(
        `${artifacts.package} ${name} artifact has sha256 ${actual}, pinned ${pin.sha256}`,
      );
    }
  }
  for (const [pkg, pin] of Object.entries(LAYERZERO_PINS.sources)) {
    const installed = installedVersion(pkg, root);
    if (installed !== pin.version) problems.push(`${pkg} is ${installed}, pinned ${pin.version}`);
    const digest = packageSourcesDigest(sources, pkg);
    if (digest !== pin.sha256) {
      problems.push(`${pkg} sources compiled have sha256 ${digest}, pinned ${pin.sha256}`);
    }
  }
  return problems;
}
