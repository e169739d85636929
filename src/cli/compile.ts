/** `bridge-oracle compile`: recompiles contracts/ into artifacts/contracts.json. */
import { artifactsPath, CompileError, compileContracts } from "../devnet/compile.js";

export async function run(_args: string[]): Promise<number> {
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
