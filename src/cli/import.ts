/**
 * `bridge-oracle import FILE.jsonl [--database URL]`: imports bridge transaction records,
 * one JSON object per line in exactly the API's record shape, all or nothing (see
 * src/transfers/import-file.ts for the invariants). Exit code 0 on success, 1 on any error with
 * the reason on stderr ("line N: field X: rule" for a bad line).
 */
import { parseArgs } from "node:util";
import { ConfigError, loadDatabaseUrl } from "../config/env.js";
import { redactUrl } from "../redact-url.js";
import { type Database, openDatabase } from "../store/index.js";
import {
  DEFAULT_IMPORT_BATCH_SIZE,
  ImportLineError,
  type ImportProgress,
  importTransfersFile,
} from "../transfers/import-file.js";

const USAGE = `usage: bridge-oracle import FILE.jsonl [--database URL] [--batch-size N]

Imports bridge transaction records (one JSON object per line, exactly the API's record shape)
into the database. Every line is validated; the first bad line stops the import and nothing from
the run is committed. Re-importing the same records changes nothing. Blank lines are ignored.

  --database URL   SQLite file path or postgres:// URL (default: DATABASE_URL, else
                   ./data/bridge-oracle.db), as for \`index\`; --database-url also works
  --batch-size N   records per write (default ${DEFAULT_IMPORT_BATCH_SIZE})
`;

/** Where the command writes; tests pass their own. */
export interface CliOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
}

export interface ImportCommandDeps {
  env?: Readonly<Record<string, string | undefined>>;
  output?: CliOutput;
}

export async function run(args: string[], deps: ImportCommandDeps = {}): Promise<number> {
  const { stdout, stderr } = deps.output ?? process;
  let parsed: ReturnType<typeof parseImportArgs>;
  try {
    parsed = parseImportArgs(args);
  } catch (error) {
    stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  if (parsed === "help") {
    stdout.write(USAGE);
    return 0;
  }

  let databaseUrl = parsed.databaseUrl;
  if (databaseUrl === undefined) {
    try {
      databaseUrl = loadDatabaseUrl(deps.env ?? process.env);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      stderr.write(`configuration error: ${error.message}\n`);
      return 1;
    }
  }

  // The background bounds (no query bound): an import batch is legitimately slow.
  let store: Database;
  try {
    store = await openDatabase(databaseUrl);
  } catch (error) {
    stderr.write(`cannot open the database ${redactUrl(databaseUrl)}: ${message(error)}\n`);
    return 1;
  }
  const progress = stderr.isTTY === true ? createProgressLine(stderr) : undefined;
  try {
    const summary = await importTransfersFile({
      path: parsed.file,
      store,
      batchSize: parsed.batchSize,
      ...(progress ? { onProgress: progress.update } : {}),
    });
    progress?.clear();
    const seconds = summary.durationMs / 1000;
    stdout.write(
      `imported ${parsed.file}: ${summary.read} read, ${summary.inserted} inserted, ` +
        `${summary.updated} updated, ${summary.unchanged} unchanged in ${seconds.toFixed(2)} s` +
        ` (${Math.round(summary.read / Math.max(seconds, 0.001))} records/s)\n`,
    );
    return 0;
  } catch (error) {
    progress?.clear();
    if (error instanceof ImportLineError) {
      stderr.write(`${parsed.file}: ${error.message}\nnothing was imported\n`);
    } else if (isNodeError(error) && (error.code === "ENOENT" || error.code === "EISDIR")) {
      stderr.write(`cannot read ${parsed.file}: ${error.message}\n`);
    } else {
      stderr.write(`import failed, nothing was imported: ${message(error)}\n`);
    }
    return 1;
  } finally {
    await store.close();
  }
}

function parseImportArgs(
  args: string[],
): "help" | { file: string; databaseUrl: string | undefined; batchSize: number } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      database: { type: "string" },
      "database-url": { type: "string" },
      "batch-size": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return "help";
  if (positionals.length !== 1) {
    throw new Error(`expected one FILE argument, got ${positionals.length}`);
  }
  const batchText = values["batch-size"] ?? String(DEFAULT_IMPORT_BATCH_SIZE);
  const batchSize = /^[0-9]+$/.test(batchText) ? Number(batchText) : Number.NaN;
  if (!(batchSize >= 1 && batchSize <= 100_000)) {
    throw new Error(`--batch-size must be an integer from 1 to 100000, got '${batchText}'`);
  }
  if (values.database !== undefined && values["database-url"] !== undefined) {
    throw new Error("--database and --database-url are the same option: give one");
  }
  const databaseUrl = values.database ?? values["database-url"];
  return { file: positionals[0] as string, databaseUrl, batchSize };
}

/** One terminal line, rewritten in place: lines/s, and percent and ETA when the size is known. */
function createProgressLine(stderr: CliOutput["stderr"]) {
  let shown = false;
  return {
    update(p: ImportProgress): void {
      const seconds = p.elapsedMs / 1000;
      const rate = p.lines / Math.max(seconds, 0.001);
      let text = `importing: ${p.lines.toLocaleString("en-US")} lines, ${Math.round(rate).toLocaleString("en-US")} lines/s`;
      if (p.totalBytes !== undefined && p.totalBytes > 0) {
        const fraction = Math.min(1, p.bytesRead / p.totalBytes);
        const eta = fraction > 0 ? (seconds / fraction) * (1 - fraction) : Number.NaN;
        text += `, ${(fraction * 100).toFixed(1)}%`;
        if (Number.isFinite(eta)) text += `, ETA ${formatDuration(eta)}`;
      }
      stderr.write(`\r\x1b[K${text}`);
      shown = true;
    },
    clear(): void {
      if (shown) stderr.write("\r\x1b[K");
      shown = false;
    },
  };
}

function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m${String(s % 60).padStart(2, "0")}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}

function isNodeError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && "code" in error;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
