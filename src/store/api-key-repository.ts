/**
 * The api_keys table: what the keys CLI writes and what every server process's key cache
 * (src/keys/api-key-cache.ts) reads.
 *
 * Invariants:
 * - Only the SHA-256 hash of a key is stored (src/keys/api-key.ts says why that suffices).
 * - A name is unique among active keys; a revoked key's name may be reused.
 * - Every create and every revoke increments the single-row key-set version in the same
 *   transaction, so readers can poll one cheap row and reload the keys only when it moved.
 *   Recording last use does not move it: it changes no key's validity.
 * - Times are UTC "YYYY-MM-DD HH:MM:SS" (docs/http-api.md, API rule 2), so they compare as strings.
 */
import type { SqlExecutor } from "./backend.js";

export interface ApiKeyRecord {
  readonly id: number;
  readonly name: string;
  /** First characters of the key, stored in clear for listings. */
  readonly prefix: string;
  /** Lowercase hex SHA-256 of the key. */
  readonly hash: string;
  readonly createdAt: string;
  /** Null when never used (or not yet flushed by a server). */
  readonly lastUsedAt: string | null;
  /** Null while the key is active. */
  readonly revokedAt: string | null;
}

export interface ActiveApiKey {
  readonly id: number;
  readonly name: string;
  readonly prefix: string;
  readonly hash: string;
}

export interface NewApiKey {
  readonly name: string;
  readonly prefix: string;
  readonly hash: string;
  readonly createdAt: Date;
}

export interface ApiKeyUse {
  readonly id: number;
  readonly usedAt: Date;
}

export interface ApiKeyRepository {
  /** Stores a new active key. Rejects with ApiKeyNameTakenError if an active key has the name. */
  createKey(key: NewApiKey): Promise<ApiKeyRecord>;
  /** All keys, active and revoked, oldest first. */
  listKeys(): Promise<ApiKeyRecord[]>;
  /** Revokes an active key; false when it does not exist or was already revoked. */
  revokeKey(id: number, revokedAt: Date): Promise<boolean>;
  /** A number that changes whenever the set of active keys changes. */
  getKeySetVersion(): Promise<number>;
  listActiveKeyHashes(): Promise<ActiveApiKey[]>;
  /** Sets last_used_at for each key, never moving it backwards. */
  recordKeyUses(uses: readonly ApiKeyUse[]): Promise<void>;
}

export class ApiKeyNameTakenError extends Error {
  readonly keyName: string;

  constructor(name: string, options?: { cause?: unknown }) {
    super(`an active API key named '${name}' already exists`, options);
    this.name = "ApiKeyNameTakenError";
    this.keyName = name;
  }
}

/** UTC "YYYY-MM-DD HH:MM:SS" (docs/http-api.md, API rule 2). */
export function formatKeyTime(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

interface ApiKeyRow {
  id: number | string;
  name: string;
  prefix: string;
  key_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const COLUMNS = "id, name, prefix, key_hash, created_at, last_used_at, revoked_at";

function toRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: Number(row.id),
    name: row.name,
    prefix: row.prefix,
    hash: row.key_hash,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** A unique-constraint violation on either backend (SQLite SQLITE_CONSTRAINT_*, PostgreSQL 23505). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE";
}

/**
 * The api_keys repository over the store's shared SQL executor (same SQL on both backends).
 * No statement needs an explicit transaction: the key-set version is bumped by triggers inside
 * each statement (migration 0002-api-keys), and each last-use update is idempotent.
 */
export function createApiKeyRepository(sql: SqlExecutor): ApiKeyRepository {
  async function findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const rows = await sql.all<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE key_hash = ?`, [
      hash,
    ]);
    return rows[0] === undefined ? undefined : toRecord(rows[0]);
  }

  return {
    async createKey(key) {
      try {
        await sql.run(
          "INSERT INTO api_keys (name, prefix, key_hash, created_at) VALUES (?, ?, ?, ?)",
          [key.name, key.prefix, key.hash, formatKeyTime(key.createdAt)],
        );
      } catch (error) {
        // The hash is 256 random bits: only the active-name index can realistically collide.
        if (isUniqueViolation(error)) throw new ApiKeyNameTakenError(key.name, { cause: error });
        throw error;
      }
      const created = await findByHash(key.hash);
      if (created === undefined) throw new Error("API key vanished right after its insert");
      return created;
    },

    async listKeys() {
      const rows = await sql.all<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`);
      return rows.map(toRecord);
    },

    async revokeKey(id, revokedAt) {
      const changed = await sql.run(
        "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
        [formatKeyTime(revokedAt), id],
      );
      return changed > 0;
    },

    async getKeySetVersion() {
      const rows = await sql.all<{ version: number | string }>(
        "SELECT version FROM api_key_set_version WHERE id = 1",
      );
      return Number(rows[0]?.version ?? 0);
    },

    async listActiveKeyHashes() {
      const rows = await sql.all<ApiKeyRow>(
        `SELECT ${COLUMNS} FROM api_keys WHERE revoked_at IS NULL ORDER BY id`,
      );
      return rows.map((row) => ({
        id: Number(row.id),
        name: row.name,
        prefix: row.prefix,
        hash: row.key_hash,
      }));
    },

    async recordKeyUses(uses) {
      for (const use of uses) {
        const at = formatKeyTime(use.usedAt);
        await sql.run(
          "UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)",
          [at, use.id, at],
        );
      }
    },
  };
}
