/**
 * The node arguments that run one of this repository's TypeScript entry points in a child
 * process (a benchmark server, the CLI or an indexer child of the tests).
 *
 * Through tsx, a process pays for its loader hooks on every module it loads, ours and viem's
 * alike: about 1.5 s of CPU before a server listens. scripts/run-tests.mjs bundles the test files
 * and the entries its children run with esbuild and names the folder in TS_ENTRY_BUNDLES; an entry
 * with a bundle there starts from it, without hooks. Anything else runs through tsx, as before.
 */
import { existsSync } from "node:fs";
import { join, relative, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "..");

/** The bundle of `script` (a .ts path) in TS_ENTRY_BUNDLES, or undefined when there is none. */
export function entryBundle(script: string): string | undefined {
  const bundles = process.env.TS_ENTRY_BUNDLES;
  if (bundles === undefined || bundles === "") return undefined;
  const bundle = join(bundles, relative(ROOT, resolve(script)).replace(/\.ts$/, ".mjs"));
  return existsSync(bundle) ? bundle : undefined;
}

/** `[...flags, entry]` for `node`: the bundle when there is one, else `--import tsx script`. */
export function tsEntryArgs(script: string): string[] {
  const bundle = entryBundle(script);
  return bundle === undefined ? ["--import", "tsx", script] : ["--enable-source-maps", bundle];
}
