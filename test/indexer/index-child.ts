/** Child process entry for the crash tests: `bridge-oracle index` from the TypeScript sources. */
import { run } from "../../src/cli/index-chains.js";

const grace = process.env.TEST_INDEX_STOP_GRACE_MS;
process.exitCode = await run(
  process.argv.slice(2),
  process.env,
  grace === undefined ? {} : { stopGraceMs: Number(grace) },
);
