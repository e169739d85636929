/** `bridge-oracle compile`: recompiles contracts/ into artifacts/contracts.json. */
import { artifactsPath, CompileError, compileContracts } from "../devnet/compile.js";

const USAGE = `usage: bridge-oracle compile

Recompiles the Solidity sources in contracts/ with the solc npm package into
artifacts/contracts.json (the devnet does this itself when the sources changed).
`;

export async function run(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (args.length > 0) {
    process.stderr.write(`unknown argument: ${args[0]}\n\n${USAGE}`);
    return 1;
  }
  const started = Date.now();
  try {
    const artifacts = compileContracts();
    for (const warning of artifacts.warnings) process.stderr.write(`${warning}\n`);
    const deployable = Object.values(artifacts.contracts).filter((c) => c.bytecode !== "0x");
    process.stdout.write(
      `compiled ${Object.keys(artifacts.contracts).length} contracts (${deployable.length} deployable) ` +
        `with solc ${artifacts.solcVersion} in ${Date.now() - started} ms -> ${artifactsPath()}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof CompileError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
