/**
 * An ApiKeyRepository in memory that counts its calls, for tests of the key cache and plugins
 * that must prove which calls happen (and that none happen on the request path).
 */
import {
  ApiKeyNameTakenError,
  type ApiKeyRecord,
  type ApiKeyRepository,
  formatKeyTime,
} from "../../src/store/api-key-repository.js";

export interface CountingApiKeyRepository extends ApiKeyRepository {
  /** Calls per method name since creation. */
  readonly calls: Map<string, number>;
  totalCalls(): number;
  /** When set, every method rejects with this error (a database outage). */
  failWith: Error | undefined;
}

export function createMemoryApiKeyRepository(): CountingApiKeyRepository {
  const rows: { -readonly [K in keyof ApiKeyRecord]: ApiKeyRecord[K] }[] = [];
  let version = 0;
  const calls = new Map<string, number>();

  const repository: CountingApiKeyRepository = {
    calls,
    failWith: undefined,
    totalCalls: () => [...calls.values()].reduce((a, b) => a + b, 0),

    async createKey(key) {
      if (rows.some((row) => row.name === key.name && row.revokedAt === null)) {
        throw new ApiKeyNameTakenError(key.name);
      }
      const record = {
        id: rows.length + 1,
        name: key.name,
        prefix: key.prefix,
        hash: key.hash,
        createdAt: formatKeyTime(key.createdAt),
        lastUsedAt: null,
        revokedAt: null,
      };
      rows.push(record);
      version += 1;
      return { ...record };
    },
    async listKeys() {
      return rows.map((row) => ({ ...row }));
    },
    async revokeKey(id, revokedAt) {
      const row = rows.find((r) => r.id === id && r.revokedAt === null);
      if (row === undefined) return false;
      row.revokedAt = formatKeyTime(revokedAt);
      version += 1;
      return true;
    },
    async getKeySetVersion() {
      return version;
    },
    async listActiveKeyHashes() {
      return rows
        .filter((row) => row.revokedAt === null)
        .map(({ id, name, prefix, hash }) => ({ id, name, prefix, hash }));
    },
    async recordKeyUses(uses) {
      for (const use of uses) {
        const row = rows.find((r) => r.id === use.id);
        const at = formatKeyTime(use.usedAt);
        if (row !== undefined && (row.lastUsedAt === null || row.lastUsedAt < at)) {
          row.lastUsedAt = at;
        }
      }
    },
  };

  // Count every method call and apply failWith, without repeating it in each method.
  const methods = [
    "createKey",
    "listKeys",
    "revokeKey",
    "getKeySetVersion",
    "listActiveKeyHashes",
    "recordKeyUses",
  ] as const satisfies readonly (keyof ApiKeyRepository)[];
  for (const name of methods) {
    const method = repository[name];
    const original = method.bind(repository) as (...args: unknown[]) => Promise<unknown>;
    (repository as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      calls.set(name, (calls.get(name) ?? 0) + 1);
      if (repository.failWith !== undefined) throw repository.failWith;
      return original(...args);
    };
  }
  return repository;
}
