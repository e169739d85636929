/**
 * `bridge-oracle keys create --name NAME | list | revoke NAME_OR_PREFIX`: API key management on
 * the database of DATABASE_URL (the same one `serve` uses). Running servers notice a created or
 * revoked key within about a second, on PostgreSQL within milliseconds (src/keys/api-key-cache.ts);
 * no restart is needed.
 *
 * `create` prints the key alone on the last line of its output, so scripts can take it with
 * `| tail -n 1`. Exit code 0 on success, 1 with a message on stderr otherwise.
 */
import { parseArgs } from "node:util";
import { ConfigError, loadDatabaseUrl } from "../config/env.js";
import { errorMessage } from "../errors.js";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "../keys/api-key.js";
import { redactUrl } from "../redact-url.js";
import {
  ApiKeyNameTakenError,
  type ApiKeyRecord,
  type ApiKeyRepository,
} from "../store/api-key-repository.js";
import { missingSqliteFile } from "../store/database-url.js";
import { API_POSTGRES_TIMEOUTS, type Database, openDatabase } from "../store/index.js";
import { formatTable } from "./format-table.js";

export const KEYS_USAGE = `usage:
  bridge-oracle keys create --name NAME    create a key; prints it once, on the last line
  bridge-oracle keys list                  names, prefixes, creation, last use, status
  bridge-oracle keys revoke NAME_OR_PREFIX revoke an active key (name, prefix or whole key)

The database is DATABASE_URL (a SQLite file path or a postgres:// URL), as for \`serve\`.
Names: 1-64 characters of letters, digits, '.', '_', '-' and '@', not starting with "bo_".
`;

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export interface KeysIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => Date;
}

const processIo: KeysIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  now: () => new Date(),
};

class UsageError extends Error {}

/**
 * The database of a management command (keys, webhooks). DATABASE_URL is the only setting they
 * need: a bad PORT must not stop them. Their statements are tiny, so they take the API's bounds
 * (docs/store.md, "Timeouts"). A database that cannot be opened is reported on stderr and gives
 * undefined; a bad DATABASE_URL throws ConfigError.
 */
export async function openCliDatabase(
  io: KeysIo,
  options: { creates?: boolean } = {},
): Promise<Database | undefined> {
  const databaseUrl = loadDatabaseUrl(io.env);
  // A SQLite path with no file is most often a forgotten DATABASE_URL (the servers' database is
  // elsewhere): a read refuses it, a write says it makes a new database.
  const file = missingSqliteFile(databaseUrl);
  if (file !== undefined) {
    if (options.creates !== true) {
      io.stderr(
        `no database at ${file} (DATABASE_URL): nothing is there yet; set DATABASE_URL to the database serve uses\n`,
      );
      return undefined;
    }
    io.stderr(
      `no database at ${file} yet (DATABASE_URL): creating it; serve must use the same DATABASE_URL\n`,
    );
  }
  try {
    return await openDatabase(databaseUrl, { timeouts: API_POSTGRES_TIMEOUTS });
  } catch (error) {
    io.stderr(`cannot open the database ${redactUrl(databaseUrl)}: ${errorMessage(error)}\n`);
    return undefined;
  }
}

export async function run(args: string[], io: KeysIo = processIo): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined || ["help", "--help", "-h"].includes(subcommand)) {
    (subcommand === undefined ? io.stderr : io.stdout)(KEYS_USAGE);
    return subcommand === undefined ? 1 : 0;
  }
  let database: Database | undefined;
  try {
    const command = parseCommand(subcommand, rest);
    database = await openCliDatabase(io, { creates: command.kind === "create" });
    if (database === undefined) return 1;
    const repository = database.apiKeys;
    switch (command.kind) {
      case "create":
        return await create(repository, command.name, io);
      case "list":
        return await list(repository, io);
      case "revoke":
        return await revoke(repository, command.target, io);
    }
    return 1;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n\n${KEYS_USAGE}`);
    } else if (error instanceof ConfigError) {
      io.stderr(`configuration error: ${error.message}\n`);
    } else {
      io.stderr(`keys ${subcommand} failed: ${errorMessage(error)}\n`);
    }
    return 1;
  } finally {
    await database?.close();
  }
}

type Command =
  | { kind: "create"; name: string }
  | { kind: "list" }
  | { kind: "revoke"; target: string };

function parseCommand(subcommand: string, args: string[]): Command {
  let values: { name?: string | boolean | undefined };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: subcommand === "create" ? { name: { type: "string" as const } } : {},
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    throw new UsageError(`keys ${subcommand}: ${errorMessage(error)}`);
  }
  switch (subcommand) {
    case "create": {
      if (positionals.length > 0) {
        throw new UsageError(
          `keys create takes no arguments besides --name (got '${positionals[0]}')`,
        );
      }
      const name = typeof values.name === "string" ? values.name.trim() : undefined;
      if (name === undefined || name === "") throw new UsageError("keys create needs --name NAME");
      if (!NAME_PATTERN.test(name) || name.startsWith("bo_")) {
        throw new UsageError(
          `invalid key name '${name.slice(0, 80)}': use 1-64 letters, digits, '.', '_', '-' or '@', not starting with "bo_"`,
        );
      }
      return { kind: "create", name };
    }
    case "list":
      if (positionals.length > 0) throw new UsageError("keys list takes no arguments");
      return { kind: "list" };
    case "revoke": {
      const target = positionals[0]?.trim();
      if (target === undefined || target === "" || positionals.length > 1) {
        throw new UsageError("keys revoke needs exactly one NAME_OR_PREFIX");
      }
      return { kind: "revoke", target };
    }
    default:
      throw new UsageError(`unknown keys command '${subcommand}'`);
  }
}

async function create(repository: ApiKeyRepository, name: string, io: KeysIo): Promise<number> {
  const generated = generateApiKey();
  let record: ApiKeyRecord;
  try {
    record = await repository.createKey({ name, ...generated, createdAt: io.now() });
  } catch (error) {
    if (error instanceof ApiKeyNameTakenError) {
      io.stderr(
        `an active key named '${name}' already exists; choose another name or revoke it first\n`,
      );
      return 1;
    }
    throw error;
  }
  io.stdout(
    `Created API key '${record.name}' (prefix ${record.prefix}) at ${record.createdAt} UTC.\n` +
      "This is the only time the key is shown: only its hash is stored. Keep it secret.\n" +
      "Send it as the header 'Authorization: <key>' or 'Authorization: Bearer <key>'.\n" +
      `${generated.key}\n`,
  );
  return 0;
}

async function list(repository: ApiKeyRepository, io: KeysIo): Promise<number> {
  const keys = await repository.listKeys();
  if (keys.length === 0) {
    io.stdout("no API keys yet; create one with: bridge-oracle keys create --name NAME\n");
    return 0;
  }
  const header = ["NAME", "PREFIX", "CREATED (UTC)", "LAST USED (UTC)", "STATUS"];
  const rows = keys.map((key) => [
    key.name,
    key.prefix,
    key.createdAt,
    key.lastUsedAt ?? "never",
    key.revokedAt === null ? "active" : `revoked ${key.revokedAt}`,
  ]);
  io.stdout(formatTable([header, ...rows]));
  return 0;
}

async function revoke(repository: ApiKeyRepository, target: string, io: KeysIo): Promise<number> {
  const keys = await repository.listKeys();
  const matches = findRevokeTargets(keys, target);
  const active = matches.filter((key) => key.revokedAt === null);
  if (active.length > 1) {
    io.stderr(
      `'${target}' matches ${active.length} active keys; give a longer prefix or the name:\n` +
        formatTable(active.map((key) => [key.name, key.prefix, `created ${key.createdAt}`])),
    );
    return 1;
  }
  const key = active[0];
  if (key === undefined) {
    const revoked = matches[0];
    if (revoked !== undefined) {
      io.stdout(
        `API key '${revoked.name}' (${revoked.prefix}) was already revoked at ${revoked.revokedAt} UTC\n`,
      );
      return 0;
    }
    io.stderr(`no API key has the name or prefix '${target}'; see \`bridge-oracle keys list\`\n`);
    return 1;
  }
  if (!(await repository.revokeKey(key.id, io.now()))) {
    io.stdout(`API key '${key.name}' (${key.prefix}) was revoked meanwhile by someone else\n`);
    return 0;
  }
  io.stdout(
    `Revoked API key '${key.name}' (${key.prefix}). Running servers refuse it within a second.\n`,
  );
  return 0;
}

/**
 * Keys a revoke argument designates: the key itself when a whole key is given; else the keys
 * with that exact name; else (for `bo_...`) the keys whose prefix starts with it or which it
 * starts with (a longer piece of the key). Active keys first.
 */
export function findRevokeTargets(keys: readonly ApiKeyRecord[], target: string): ApiKeyRecord[] {
  const byActive = (list: ApiKeyRecord[]) =>
    list.sort((a, b) => Number(a.revokedAt !== null) - Number(b.revokedAt !== null));
  if (isWellFormedApiKey(target)) {
    const hash = hashApiKey(target);
    return keys.filter((key) => key.hash === hash);
  }
  const named = keys.filter((key) => key.name === target);
  if (named.length > 0) return byActive(named);
  if (!target.startsWith("bo_")) return [];
  return byActive(
    keys.filter((key) => key.prefix.startsWith(target) || target.startsWith(key.prefix)),
  );
}
