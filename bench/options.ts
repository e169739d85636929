/** Command-line options of the benchmarks. */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { redactUrl } from "../src/redact-url.js";
import { databaseKind } from "../src/store/database-url.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The list data set's cache (data/ is gitignored). */
const DEFAULT_CACHE_DIR = join(ROOT, "data", "bench");

/** The parseArgs options of every benchmark that writes a section of bench/RESULTS.md. */
export const RESULTS_ARGS = {
  results: { type: "string", default: join(ROOT, "bench", "RESULTS.md") },
  "no-write": { type: "boolean", default: false },
  help: { type: "boolean", short: "h" },
} as const;

/** `--name`'s value as an integer from min to max; throws a message naming the option. */
export function integerOption(name: string, text: string, min: number, max: number): number {
  const n = /^[0-9]+$/.test(text) ? Number(text) : Number.NaN;
  if (!(n >= min && n <= max))
    throw new Error(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

/**
 * The parseArgs options of the benchmarks that load the list data set and run the list mix
 * against it (list, push); what `listMixOptions` reads.
 */
export function listMixArgs(defaultRecords: string) {
  return {
    records: { type: "string", default: defaultRecords },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "10" },
    seed: { type: "string", default: "1" },
    "cache-dir": { type: "string", default: DEFAULT_CACHE_DIR },
  } as const;
}

export function listMixOptions(values: Record<keyof ReturnType<typeof listMixArgs>, string>) {
  return {
    records: integerOption("records", values.records, 1000, 100_000_000),
    durationSeconds: integerOption("duration", values.duration, 1, 600),
    connections: integerOption("connections", values.connections, 1, 1000),
    seed: integerOption("seed", values.seed, 0, 2 ** 32 - 1),
    cacheDir: values["cache-dir"],
  };
}

export type StoreKind = "sqlite" | "postgres";

const STORES: Record<string, StoreKind[]> = {
  sqlite: ["sqlite"],
  postgres: ["postgres"],
  both: ["sqlite", "postgres"],
};

/**
 * `--store sqlite|postgres|both` and `--database-url` (default DATABASE_URL): the stores to run
 * on, in order, and the PostgreSQL database when one of them is postgres.
 */
export function storesOption(
  store: string,
  databaseUrlOption: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): { stores: StoreKind[]; databaseUrl?: string } {
  const stores = Object.hasOwn(STORES, store) ? STORES[store] : undefined;
  if (stores === undefined) throw new Error("--store must be sqlite, postgres or both");
  if (!stores.includes("postgres")) return { stores };
  const databaseUrl = databaseUrlOption ?? env.DATABASE_URL ?? "";
  if (databaseKind(databaseUrl) !== "postgres") {
    throw new Error(
      `--store ${store} needs a postgres:// URL: set DATABASE_URL or pass --database-url` +
        (databaseUrl === "" ? "" : ` (got ${redactUrl(databaseUrl)})`),
    );
  }
  return { stores, databaseUrl };
}

/**
 * A benchmark's options from `parse`, or its exit code when there is nothing to run: 0 after
 * printing `usage` for --help, 1 after printing the error and `usage` for bad arguments.
 */
export function optionsOrExitCode<T extends object>(
  parse: () => T | "help",
  usage: string,
): T | number {
  let options: T | "help";
  try {
    options = parse();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}`);
    return 1;
  }
  if (options === "help") {
    process.stdout.write(usage);
    return 0;
  }
  return options;
}

/** The command as a report shows it (`npm run bench:NAME -- ARGS`), a database URL's password redacted. */
export function benchmarkCommandLine(name: string, args: readonly string[]): string {
  const shown = args.map((arg, i) => {
    if (args[i - 1] === "--database-url") return redactUrl(arg);
    if (arg.startsWith("--database-url=")) {
      return `--database-url=${redactUrl(arg.slice("--database-url=".length))}`;
    }
    return arg;
  });
  const script = `npm run bench:${name}`;
  return shown.length > 0 ? `${script} -- ${shown.join(" ")}` : script;
}
