/** Which backend a DATABASE_URL selects (redact one with redactUrl, src/redact-url.ts). */
import { existsSync } from "node:fs";

export type DatabaseKind = "sqlite" | "postgres";

export function databaseKind(databaseUrl: string): DatabaseKind {
  return /^postgres(ql)?:\/\//i.test(databaseUrl) ? "postgres" : "sqlite";
}

/** The file of a SQLite DATABASE_URL (a path, or `file:` and a path). */
export function sqlitePath(databaseUrl: string): string {
  return databaseUrl.startsWith("file:") ? databaseUrl.slice("file:".length) : databaseUrl;
}

/**
 * The file of a SQLite DATABASE_URL that does not exist yet, else undefined (PostgreSQL,
 * `:memory:`, an existing file): commands that only read refuse it rather than create an empty
 * database where the operator most likely mistyped the path.
 */
export function missingSqliteFile(databaseUrl: string): string | undefined {
  if (databaseKind(databaseUrl) !== "sqlite") return undefined;
  const file = sqlitePath(databaseUrl);
  return file === "" || file === ":memory:" || existsSync(file) ? undefined : file;
}
