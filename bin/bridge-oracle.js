#!/usr/bin/env node
// Thin launcher: runs the compiled CLI (npm install builds it through the `prepare` script).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";

const main = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
if (!existsSync(main)) {
  console.error("bridge-oracle is not built yet: run `npm run build` (npm install does it too).");
  process.exit(1);
}
// Our V8 flags (src/node-flags.ts), set before any of our code loads.
const { V8_FLAGS } = await import(new URL("../dist/node-flags.js", import.meta.url).href);
setFlagsFromString(V8_FLAGS.join(" "));
const { main: run } = await import(main);
process.exitCode = await run(process.argv.slice(2));
