// Runs the CLI from source the way bin/bridge-oracle.js runs the build: `node --import tsx
// test/start/cli-entry.ts start ...`; the exit code is what the command returned.
import { main } from "../../src/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
