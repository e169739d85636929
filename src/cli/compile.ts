/**
 * `bridge-oracle compile [--if-stale]`: compiles contracts/ into artifacts/contracts.json.
 * `npm install` runs it with --if-stale (package.json "prepare"), so the first `npm start` does
 * not spend ~10 s compiling, with Ctrl-C unanswered meanwhile (solc-js blocks the event loop).
 */

import { loadArtifacts } from "../devnet/artifacts.js";
import { artifactsPath, CompileError, compileContracts } from "../devnet/compile.js";
import {
  AcrossArtifactsError,
  acrossArtifactsPath,
  loadAcrossArtifacts,
} from "../devnet/protocols/across/fetch-artifacts.js";
import { loadLayerZeroArtifacts } from "../protocols/layerzero-oft/artifacts.js";

const USAGE = `usage: bridge-oracle compile [--if-stale]

Recompiles the Solidity sources in contracts/ with the solc npm package into
artifacts/contracts.json (the devnet does this itself when the sources changed), and
fetches Across' SpokePool artifacts (npm pack of a pinned, hash-checked version) into
artifacts/across/ when they are not there yet.

options:
  --if-stale   only when contracts/ or the solc version changed since the last compile
               (what \`npm install\` runs)
`;

export async function run(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  const unknown = args.find((arg) => arg !== "--if-stale");
  if (unknown !== undefined) {
    process.stderr.write(`unknown argument: ${unknown}\n\n${USAGE}`);
    return 1;
  }
  const started = Date.now();
  try {
    fetchAcross();
    if (args.includes("--if-stale")) {
      let compiled = false;
      const progress = (message: string) => {
        compiled = true;
        process.stdout.write(`${message}\n`);
      };
      loadArtifacts({ progress });
      // contracts/layerzero/ (LayerZero's OFT sources from node_modules), pins checked first.
      loadLayerZeroArtifacts({ progress });
      process.stdout.write(
        compiled
          ? `compiled in ${Date.now() - started} ms -> ${artifactsPath()}\n`
          : `contracts are up to date: ${artifactsPath()}\n`,
      );
      return 0;
    }
    const artifacts = compileContracts();
    loadLayerZeroArtifacts();
    for (const warning of artifacts.warnings) process.stderr.write(`${warning}\n`);
    const deployable = Object.values(artifacts.contracts).filter((c) => c.bytecode !== "0x");
    process.stdout.write(
      `compiled ${Object.keys(artifacts.contracts).length} contracts (${deployable.length} deployable) ` +
        `with solc ${artifacts.solcVersion} in ${Date.now() - started} ms -> ${artifactsPath()}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof CompileError || error instanceof AcrossArtifactsError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/**
 * Across' SpokePool for the devnet (src/devnet/protocols/across/fetch-artifacts.ts), once: says where it
 * went when it was fetched now, and nothing when it was already there (as `--if-stale` does).
 */
function fetchAcross(): void {
  let fetched = false;
  loadAcrossArtifacts({
    progress: (message) => {
      fetched = true;
      process.stdout.write(`${message}\n`);
    },
  });
  if (fetched) process.stdout.write(`Across artifacts: ${acrossArtifactsPath()}\n`);
}
