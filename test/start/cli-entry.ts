// Runs the CLI from source the way bin/bridge-oracle.js runs the build: the tests start it with
// `node ...tsEntryArgs(this file) start ...` (bench/ts-entry.ts: its bundle under `npm test`, else
// through tsx); the exit code is what the command returned.
import { main } from "../../src/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
