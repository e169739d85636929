#!/usr/bin/env node
// `npm run build`'s first step: src/**/*.ts (not the tests) -> dist/**/*.js, one module per file,
// with esbuild. Type checking is `npm run typecheck` (part of `npm run lint`): tsc took 15-30 s
// here to write the same modules, and CI checked the same sources again right after.
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { build } from "esbuild";

const ROOT = resolve(import.meta.dirname, "..");
const SRC = join(ROOT, "src");

function sources(dir, out) {
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (entry.endsWith(".ts") && !entry.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

await build({
  entryPoints: sources(SRC, []),
  outdir: join(ROOT, "dist"),
  outbase: SRC,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: "linked",
  logLevel: "warning",
});
