#!/usr/bin/env node
// Runs every *.test.ts under src/ and test/ (or the files/folders given) with node's test runner.
//
// The test files, and the TypeScript entries their child processes run (CHILD_ENTRIES), are
// first bundled with esbuild into .test-build/<pid>/ (our sources inlined, packages left to
// node_modules; about 2 s), and the bundles run without loader hooks. Through tsx every process
// paid about 1.5 s of CPU for the hooks on each module it loaded (viem's included): the suite
// took 870 s of CPU that way, 577 s from bundles. Each module's import.meta.dirname, .filename
// and .url are its source file's, so paths relative to a test work as from the sources, and
// stack traces map back to them (source maps). Children find their bundles through
// TS_ENTRY_BUNDLES (bench/ts-entry.ts).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = resolve(import.meta.dirname, "..");

/** Entries the tests start as child processes (spawned through bench/ts-entry.ts). */
const CHILD_ENTRIES = [
  "test/start/cli-entry.ts",
  "test/indexer/index-child.ts",
  "test/api/stream-writer-child.ts",
  "bench/list-server.ts",
  "bench/router-server.ts",
];

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

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

/** A module's import.meta paths, written in as its source file's. */
const sourceImportMeta = {
  name: "source-import-meta",
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.ts$/ }, (args) => {
      const values = {
        dirname: JSON.stringify(dirname(args.path)),
        filename: JSON.stringify(args.path),
        url: JSON.stringify(pathToFileURL(args.path).href),
      };
      const text = readFileSync(args.path, "utf8").replace(
        /\bimport\.meta\.(dirname|filename|url)\b/g,
        (_, key) => values[key],
      );
      return { contents: text, loader: "ts" };
    });
  },
};

const roots = process.argv.slice(2);
const files = (roots.length > 0 ? roots : ["src", "test"]).flatMap((root) => collect(root, []));
if (files.length === 0) {
  console.error("no test files found");
  process.exit(1);
}
const builds = join(ROOT, ".test-build");
// Bundles of runs that were killed before they could clean up.
for (const pid of existsSync(builds) ? readdirSync(builds) : []) {
  if (!isRunning(Number(pid))) rmSync(join(builds, pid), { recursive: true, force: true });
}
const outdir = join(builds, String(process.pid));
const bundleOf = (file) => join(outdir, relative(ROOT, resolve(file)).replace(/\.ts$/, ".mjs"));
let status = 1;
try {
  await build({
    entryPoints: [...files, ...CHILD_ENTRIES.map((entry) => join(ROOT, entry))].map((file) => ({
      in: file,
      out: relative(ROOT, resolve(file)).replace(/\.ts$/, ""),
    })),
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    sourcesContent: false,
    plugins: [sourceImportMeta],
    logLevel: "warning",
  });
  const concurrency = process.env.TEST_CONCURRENCY ?? "2";
  const result = spawnSync(
    process.execPath,
    [
      "--enable-source-maps",
      "--test",
      `--test-concurrency=${concurrency}`,
      "--test-reporter=spec",
      ...files.map(bundleOf),
    ],
    { stdio: "inherit", env: { ...process.env, TS_ENTRY_BUNDLES: outdir } },
  );
  status = result.status ?? 1;
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
process.exit(status);
