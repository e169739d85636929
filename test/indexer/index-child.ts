/** Child process entry for the crash tests: `bridge-oracle index` from the TypeScript sources. */
import { run } from "../../src/cli/index-chains.js";

process.exitCode = await run(process.argv.slice(2));
