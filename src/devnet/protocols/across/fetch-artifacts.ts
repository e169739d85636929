/**
 * Across' own SpokePool for the devnet, from its published npm package, never from this
 * repository: `@across-protocol/contracts` is AGPL-3.0, so its bytecode must not be committed,
 * and the package itself (engines node >= 22.18, heavy dependencies) is not a dependency. At
 * build time (`bridge-oracle compile`, run by npm install's prepare step) and when the devnet
 * needs it, the pinned tarball is fetched with `npm pack`, its sha256 checked against the pin
 * below, and only the artifact JSONs the devnet deploys are extracted into
 * artifacts/across/ (git-ignored):
 *
 * - `Ethereum_SpokePool`: the SpokePool of Across' hub chain. Its admin is its owner (the
 *   deployer), it has no cross-chain admin bridge to mock, and its constructor (wrapped native
 *   token, quote time buffer, fill deadline buffer, gateway) and `initialize(initialDepositId,
 *   withdrawalRecipient)` fit a local chain.
 * - `ERC1967Proxy`: the proxy it is deployed behind (UUPS, as on mainnet).
 * - `dist/broadcast/deployed-addresses.json`'s SpokePool entries, which presets.ts cites.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { Abi, Hex } from "viem";
import { projectRoot } from "../../compile.js";

export const ACROSS_PACKAGE = "@across-protocol/contracts";
export const ACROSS_VERSION = "5.0.27";
/** sha256 of the registry's tarball of ACROSS_VERSION (npm's integrity: sha512-zp6BEBTD...). */
export const ACROSS_TARBALL_SHA256 =
  "4e68a9c25c84e5ca53e9dac9e6b589f89b29dcb08258f73ad226663d3b990b32";

/** Paths inside the tarball of what the devnet uses. */
const ENTRIES = {
  Ethereum_SpokePool: "package/dist/evm/artifacts/Ethereum_SpokePool.sol/Ethereum_SpokePool.json",
  ERC1967Proxy: "package/dist/evm/artifacts/ERC1967Proxy.sol/ERC1967Proxy.json",
  deployedAddresses: "package/dist/broadcast/deployed-addresses.json",
} as const;

export interface AcrossArtifacts {
  package: string;
  version: string;
  sha256: string;
  contracts: Record<"Ethereum_SpokePool" | "ERC1967Proxy", { abi: Abi; bytecode: Hex }>;
  /** SpokePool address and deploy block per chain id (deployed-addresses.json). */
  spokePools: Record<string, { address: string; blockNumber: number }>;
}

export class AcrossArtifactsError extends Error {
  override name = "AcrossArtifactsError";
}

export function acrossArtifactsPath(root = projectRoot()): string {
  return join(root, "artifacts", "across", `contracts-${ACROSS_VERSION}.json`);
}

function readCached(path: string): AcrossArtifacts | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const file = JSON.parse(readFileSync(path, "utf8")) as AcrossArtifacts;
    return file.version === ACROSS_VERSION && file.sha256 === ACROSS_TARBALL_SHA256
      ? file
      : undefined;
  } catch {
    return undefined;
  }
}

/** The files of a .tar (ustar) whose names are in `wanted`. */
export function readTarEntries(tar: Buffer, wanted: readonly string[]): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString("utf8")
        .replace(/\0.*$/s, "");
    const prefix = field(345, 155);
    const name = prefix === "" ? field(0, 100) : `${prefix}/${field(0, 100)}`;
    const size = Number.parseInt(field(124, 12).trim() || "0", 8);
    const type = field(156, 1);
    if (!Number.isSafeInteger(size) || size < 0) {
      throw new AcrossArtifactsError(`malformed tar header at byte ${offset}`);
    }
    const body = offset + 512;
    if ((type === "0" || type === "") && wanted.includes(name)) {
      found.set(name, tar.subarray(body, body + size));
    }
    offset = body + Math.ceil(size / 512) * 512;
  }
  return found;
}

/** Runs `npm pack` of the pinned version into a temporary directory; returns the tarball. */
function packTarball(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), "bridge-oracle-across-"));
  try {
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    try {
      execFileSync(
        npm,
        ["pack", `${ACROSS_PACKAGE}@${ACROSS_VERSION}`, "--pack-destination", dir, "--silent"],
        {
          stdio: ["ignore", "ignore", "pipe"],
          timeout: 300_000,
          shell: process.platform === "win32",
        },
      );
    } catch (error) {
      const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
      throw new AcrossArtifactsError(
        `could not fetch ${ACROSS_PACKAGE}@${ACROSS_VERSION} with npm pack (the devnet deploys ` +
          `Across' SpokePool from it; the npm registry must be reachable once, after which ` +
          `artifacts/across/ caches it): ${stderr || String(error)}`,
      );
    }
    const file = join(dir, `across-protocol-contracts-${ACROSS_VERSION}.tgz`);
    if (!existsSync(file)) {
      throw new AcrossArtifactsError(`npm pack wrote no ${file}`);
    }
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The artifacts from a tarball, after checking it is the pinned one. */
export function extractAcrossArtifacts(tarball: Buffer): AcrossArtifacts {
  const sha256 = createHash("sha256").update(tarball).digest("hex");
  if (sha256 !== ACROSS_TARBALL_SHA256) {
    throw new AcrossArtifactsError(
      `${ACROSS_PACKAGE}@${ACROSS_VERSION}: tarball sha256 ${sha256} is not the pinned ` +
        `${ACROSS_TARBALL_SHA256}; refusing to deploy unverified bytecode`,
    );
  }
  const entries = readTarEntries(gunzipSync(tarball), Object.values(ENTRIES));
  const json = (key: keyof typeof ENTRIES) => {
    const body = entries.get(ENTRIES[key]);
    if (body === undefined) {
      throw new AcrossArtifactsError(`${ACROSS_PACKAGE}@${ACROSS_VERSION} has no ${ENTRIES[key]}`);
    }
    return JSON.parse(body.toString("utf8")) as Record<string, unknown>;
  };
  const contract = (key: "Ethereum_SpokePool" | "ERC1967Proxy") => {
    const artifact = json(key) as { abi?: Abi; bytecode?: string | { object?: string } };
    const raw =
      typeof artifact.bytecode === "string" ? artifact.bytecode : artifact.bytecode?.object;
    if (artifact.abi === undefined || raw === undefined || raw.length < 4) {
      throw new AcrossArtifactsError(`${ENTRIES[key]} has no abi or bytecode`);
    }
    return { abi: artifact.abi, bytecode: (raw.startsWith("0x") ? raw : `0x${raw}`) as Hex };
  };
  const deployed = json("deployedAddresses") as {
    chains: Record<
      string,
      { contracts: Record<string, { address: string; block_number: number }> }
    >;
  };
  const spokePools: AcrossArtifacts["spokePools"] = {};
  for (const [chainId, chain] of Object.entries(deployed.chains)) {
    const spoke = chain.contracts.SpokePool;
    if (spoke !== undefined) {
      spokePools[chainId] = { address: spoke.address, blockNumber: spoke.block_number };
    }
  }
  return {
    package: ACROSS_PACKAGE,
    version: ACROSS_VERSION,
    sha256,
    contracts: {
      Ethereum_SpokePool: contract("Ethereum_SpokePool"),
      ERC1967Proxy: contract("ERC1967Proxy"),
    },
    spokePools,
  };
}

export interface LoadAcrossArtifactsParameters {
  root?: string;
  /** Told when the package is fetched (a person may be waiting). */
  progress?: (message: string) => void;
}

/**
 * artifacts/across/contracts-<version>.json, fetched and extracted first when missing or not
 * of the pinned version. Throws AcrossArtifactsError with what went wrong.
 */
export function loadAcrossArtifacts(
  parameters: LoadAcrossArtifactsParameters = {},
): AcrossArtifacts {
  const path = acrossArtifactsPath(parameters.root);
  const cached = readCached(path);
  if (cached !== undefined) return cached;
  parameters.progress?.(
    `fetching ${ACROSS_PACKAGE}@${ACROSS_VERSION} (npm pack) for the devnet's SpokePool`,
  );
  const artifacts = extractAcrossArtifacts(packTarball());
  mkdirSync(join(path, ".."), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(artifacts)}\n`);
  renameSync(temporary, path);
  return artifacts;
}
