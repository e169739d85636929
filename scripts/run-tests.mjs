#!/usr/bin/env node
// Runs every *.test.ts under src/ and test/ (or the files/folders given) with node's test runner
// and tsx, so tests run from TypeScript sources without a build step.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function collect(path, out) {
  const stat = statSync(path);
  if (stat.isFile()) {
    if (path.endsWith(".test.ts")) out.push(path);
    return out;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    collect(join(path, entry), out);
  }
  return out;
}

const roots = process.argv.slice(2);
const files = (roots.length > 0 ? roots : ["src", "test"]).flatMap((root) => collect(root, []));
if (files.length === 0) {
  console.error("no test files found");
  process.exit(1);
}
const concurrency = process.env.TEST_CONCURRENCY ?? "2";
const result = spawnSync(
  process.execPath,
  [
    "--import",
    "tsx",
    "--test",
    `--test-concurrency=${concurrency}`,
    "--test-reporter=spec",
    ...files,
  ],
  { stdio: "inherit" },
);
process.exit(result.status ?? 1);
